from django.urls import include, path

from games.health import healthz

urlpatterns = [
    # For a proxy or a service manager: 200 when the database answers (games/health.py).
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
    path("", include("profiles.urls")),
    path("", include("history.urls")),
]

handler404 = "games.responses.page_not_found"
handler500 = "games.responses.server_error"
