from django.urls import path, re_path
from django.views.decorators.cache import never_cache

from tournaments import views

app_name = "tournaments"

# The characters of a tournament's id (``tournaments.models.new_tournament_id``), for its socket's
# route too (yahtzee_site/routing.py).
TOURNAMENT_ID = r"(?P<tournament_id>[A-Za-z0-9_-]{1,12})"


def _on(verb: str) -> str:
    return rf"^tournament/{TOURNAMENT_ID}/{verb}/$"


# Live pages, never shown from the browser's cache (see games/urls.py).
urlpatterns = [
    path("tournaments/", never_cache(views.tournaments), name="list"),
    path("tournaments/new/", views.new, name="new"),
    re_path(rf"^tournament/{TOURNAMENT_ID}/$", never_cache(views.tournament), name="tournament"),
    re_path(_on("join"), views.join, name="join"),
    re_path(_on(f"(?P<verb>{'|'.join(views.STEPS)})"), views.step, name="step"),
    re_path(_on("berserk"), views.berserk, name="berserk"),
    re_path(_on("computer"), views.add_computer, name="add_computer"),
]
