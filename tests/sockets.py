"""Pages on a socket, through Channels' communicator against the site's real routing: a visitor's
session, a connected page, an online game, and what a page has received."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games import services
from lobby.models import Player
from yahtzee_site.asgi import application

# The handshake's Host header, as a browser sends it: the origin must be this site's.
SITE = [(b"host", b"localhost")]


@database_sync_to_async
def session_for(visitor: str | None) -> str:
    session = SessionStore()
    if visitor:
        session["visitor"] = visitor
    session.create()
    return session.session_key


async def connect(path: str, visitor: str | None, cookies: str = "") -> WebsocketCommunicator:
    key = await session_for(visitor)
    cookie = f"sessionid={key}; {cookies}" if cookies else f"sessionid={key}"
    headers = [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), *SITE]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    # Channels' default of 1 s for the handshake failed on a busy machine (two workers and the
    # pages' own ticks at work): up to 10 s, as soon as it is accepted.
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


async def game_socket_opens(game_id: str, visitor: str | None) -> bool:
    """Whether this visitor's socket on the game stays open: it is sent the game at once. One
    refused (a private game: ``Game.open_to``) is closed at once with 4403, a code the page does
    not reconnect on (a handshake refused before it was tried again every 1.5 s)."""
    socket = await connect(f"/ws/game/{game_id}/", visitor)
    output = await socket.receive_output(timeout=5)
    await socket.disconnect()
    if output == {"type": "websocket.close", "code": 4403}:
        return False
    assert output["type"] == "websocket.send"  # the page caught up: the socket is open
    return True


@database_sync_to_async
def new_online_game():
    ana = Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    bo = Player.objects.create(visitor="bo", name="Bo", name_key="bo")
    return services.start_online_game([ana, bo])


async def drain(communicator: WebsocketCommunicator) -> list[str]:
    """Everything the socket has received so far."""
    messages = []
    while not await communicator.receive_nothing(timeout=0.2):
        messages.append(await communicator.receive_from())
    return messages


async def caught_up(communicator: WebsocketCommunicator) -> list[str]:
    """Everything a socket just connected has received, its catch-up redraw included: drain's quiet
    window alone can end before the catch-up is rendered when the machine is busy."""
    messages = [await receive_containing(communicator, 'id="game"')]
    return messages + await drain(communicator)


async def receive_containing(communicator: WebsocketCommunicator, text: str) -> str:
    """The first message that contains ``text`` (earlier ones, e.g. presence, are skipped)."""
    for _ in range(10):
        message = await communicator.receive_from(timeout=3)
        if text in message:
            return message
    raise AssertionError(f"no message with {text!r}")
