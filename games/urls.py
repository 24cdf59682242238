from django.urls import path, re_path
from django.views.decorators.cache import never_cache

from games import fairness, replays, views

app_name = "games"

# Pages that show a game as it is now are never shown from the browser's cache: going back to one
# would show an old position with live controls (static/js/page.js also reloads such a page when
# the browser brings it back from its back-forward cache).
urlpatterns = [
    path("", never_cache(views.home), name="home"),
    path("new/", views.new_game, name="new"),
    path("guide/", views.guide, name="guide"),
    path("sheet/", views.score_sheet, name="sheet"),
    path("game/<str:game_id>/", never_cache(views.play), name="play"),
    path("game/<str:game_id>/sheet/", views.score_sheet, name="game_sheet"),
    path("game/<str:game_id>/again/", views.play_again, name="again"),
    path("game/<str:game_id>/leave-out/", views.leave_out, name="leave_out"),
    path("game/<str:game_id>/resign/", never_cache(views.resign), name="resign"),
    path("game/<str:game_id>/analysis/", views.analysis, name="analysis"),
    path("game/<str:game_id>/replay/", replays.replay, name="replay"),
    path("game/<str:game_id>/replay/share/", replays.share, name="share"),
    path("game/<str:game_id>/speed/", views.choose_speed, name="speed"),
    path("game/<str:game_id>/seed/", fairness.add_seed, name="seed"),
    path("game/<str:game_id>/verify/", fairness.verify, name="verify"),
    re_path(r"^game/(?P<game_id>[\w-]+)/(?P<kind>roll|hold|score)/$", views.act, name="act"),
]
