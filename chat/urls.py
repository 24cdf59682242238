from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("game/<str:game_id>/chat/", views.game_say, name="game_say"),
    path("game/<str:game_id>/chat/mute/", views.game_mute, name="game_mute"),
    path("game/<str:game_id>/chat/off/", views.game_off, name="game_off"),
    path("t/<str:code>/chat/", views.table_say, name="table_say"),
    path("t/<str:code>/chat/mute/", views.table_mute, name="table_mute"),
    path("t/<str:code>/chat/off/", views.table_off, name="table_off"),
]
