from django.urls import path
from django.views.decorators.cache import never_cache

from profiles import views

app_name = "profiles"

urlpatterns = [
    path("me/", never_cache(views.me), name="me"),
    path("me/code/", views.new_code, name="new_code"),
    path("me/sign-out-others/", views.sign_out_others, name="sign_out_others"),
    path("sign-in/", never_cache(views.sign_in), name="sign_in"),
    path("sign-in/<str:code>/", never_cache(views.sign_in), name="sign_in_with"),
    path("p/<int:pk>/", never_cache(views.profile), name="profile"),
    path("p/<int:pk>/block/", views.mark, {"verb": "block"}, name="block"),
    path("p/<int:pk>/unblock/", views.mark, {"verb": "unblock"}, name="unblock"),
    path("p/<int:pk>/favourite/", views.mark, {"verb": "favourite"}, name="favourite"),
    path("p/<int:pk>/unfavourite/", views.mark, {"verb": "unfavourite"}, name="unfavourite"),
    path("players/", views.find, name="find"),
    path("game/<str:game_id>/player/", views.seat_profile, name="seat"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
