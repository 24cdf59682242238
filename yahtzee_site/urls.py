from django.apps import apps
from django.urls import include, path

from games.health import healthz

urlpatterns = [
    # For a proxy or a service manager: 200 when the database answers (games/health.py).
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
]
# The load benchmark's reference action, when settings installed it (YAHTZEE_BENCH_REFERENCE=1).
if apps.is_installed("benchref"):
    urlpatterns.append(path("", include("benchref.urls")))

handler404 = "games.responses.page_not_found"
handler500 = "games.responses.server_error"
