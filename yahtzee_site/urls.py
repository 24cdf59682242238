from django.urls import include, path

from core import install
from core.health import healthz

urlpatterns = [
    # For a proxy or a service manager: 200 when the database answers (core/health.py).
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    # Installing on a phone (core/install.py): at the root, so the worker's scope is the site.
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("sw.js", install.service_worker, name="service_worker"),
    path("offline/", install.offline, name="offline"),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
    path("", include("profiles.urls")),
    path("", include("daily.urls")),
    path("", include("history.urls")),
    path("", include("chat.urls")),
    path("", include("groups.urls")),
    path("", include("tournaments.urls")),
]

handler404 = "core.errors.page_not_found"
handler500 = "core.errors.server_error"
