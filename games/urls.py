from django.urls import path, re_path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.new_game, name="new"),
    path("guide/", views.guide, name="guide"),
    path("sheet/", views.score_sheet, name="sheet"),
    path("game/<str:game_id>/", views.play, name="play"),
    path("game/<str:game_id>/sheet/", views.score_sheet, name="game_sheet"),
    path("game/<str:game_id>/again/", views.play_again, name="again"),
    path("game/<str:game_id>/leave-out/", views.leave_out, name="leave_out"),
    path("game/<str:game_id>/analysis/", views.analysis, name="analysis"),
    re_path(r"^game/(?P<game_id>[\w-]+)/(?P<kind>roll|hold|score)/$", views.act, name="act"),
]
