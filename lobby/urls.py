from django.urls import path, re_path
from django.views.decorators.cache import never_cache

from lobby import playnow_views, views

app_name = "lobby"

# Live pages, never shown from the browser's cache (see games/urls.py).
urlpatterns = [
    path("online/", never_cache(views.lobby), name="lobby"),
    path("online/name/", views.choose_name, name="name"),
    path("online/challenge/", views.challenge, name="challenge"),
    re_path(
        r"^online/challenge/(?P<challenge_id>\d+)/(?P<verb>accept|decline|cancel)/$",
        views.answer,
        name="answer",
    ),
    path("online/ranked/join/", views.join_queue, name="join_queue"),
    path("online/ranked/leave/", views.leave_queue, name="leave_queue"),
    path("play-now/", never_cache(playnow_views.play_now), name="play_now"),
    path("play-now/press/", playnow_views.press, name="press"),
    path("play-now/cancel/", playnow_views.cancel, name="play_now_cancel"),
    path("play-now/computer/", playnow_views.play_computer, name="play_now_computer"),
    path("table/new/", views.new_table, name="new_table"),
    path("table/join/", views.join_by_code, name="join_by_code"),
    path("t/<str:code>/", never_cache(views.table), name="table"),
    path("t/<str:code>/join/", views.join_table, name="join_table"),
    path("t/<str:code>/start/", views.start_table, name="start_table"),
    path("game/<str:game_id>/rematch/", views.rematch, name="rematch"),
    path("game/<str:game_id>/rematch/decline/", views.decline_rematch, name="decline_rematch"),
]
