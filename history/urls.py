from django.urls import path
from django.views.decorators.cache import never_cache

from history import practice

app_name = "history"

urlpatterns = [
    # The positions change as games finish: never from the browser's cache.
    path("me/practice/", never_cache(practice.practice), name="practice"),
]
