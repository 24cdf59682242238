from django.urls import path

from games.consumers import GameConsumer
from lobby.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/game/<str:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),
]
