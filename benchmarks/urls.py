"""The site's URLs plus the load benchmark's reference action (benchmarks.settings only)."""

from django.urls import include, path

from yahtzee_site.urls import handler404, handler500
from yahtzee_site.urls import urlpatterns as site_urlpatterns

urlpatterns = [*site_urlpatterns, path("", include("benchmarks.reference.urls"))]
__all__ = ["handler404", "handler500", "urlpatterns"]
