"""The WebSocket routes of every app, in one place (the HTTP ones are in ``urls``)."""

from channels.security.websocket import WebsocketDenier
from django.urls import re_path

from games.consumers import GameConsumer
from games.live.sockets import GAME_ID, TABLE_CODE
from groups.consumers import GroupConsumer
from lobby.consumers import LobbyConsumer, PlayNowConsumer, TableConsumer
from tournaments.consumers import TournamentConsumer
from tournaments.urls import TOURNAMENT_ID

websocket_urlpatterns = [
    re_path(rf"^ws/game/{GAME_ID}/$", GameConsumer.as_asgi()),
    re_path(r"^ws/lobby/$", LobbyConsumer.as_asgi()),
    re_path(r"^ws/play-now/$", PlayNowConsumer.as_asgi()),
    re_path(rf"^ws/table/{TABLE_CODE}/$", TableConsumer.as_asgi()),
    re_path(rf"^ws/tournament/{TOURNAMENT_ID}/$", TournamentConsumer.as_asgi()),
    re_path(r"^ws/group/(?P<group_id>[A-Za-z0-9_-]{1,12})/$", GroupConsumer.as_asgi()),
    # Any other path (an id of the wrong shape included): refused at the handshake (403), where
    # the router would raise and the server answer 500.
    re_path(r"", WebsocketDenier.as_asgi()),
]
