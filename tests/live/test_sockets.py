"""What every socket goes through before its consumer: origin, path and language (issue #14)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import services
from lobby import access
from lobby import services as lobby
from lobby.models import Player
from tests.sockets import drain, receive_containing, session_for
from yahtzee_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def online_game_and_table() -> tuple[str, str]:
    ana = Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    bo = Player.objects.create(visitor="bo", name="Bo", name_key="bo")
    game = services.start_online_game([ana, bo])
    return game.id, lobby.create_table("ana").code


async def open_socket(path: str, headers: list[tuple[bytes, bytes]], visitor: str = "ana"):
    key = await session_for(visitor)
    cookie = (b"cookie", f"sessionid={key}".encode())
    communicator = WebsocketCommunicator(application, path, headers=[cookie, *headers])
    connected, _ = await communicator.connect()
    return communicator, connected


# The game page's share line, as the catch-up pushed on connecting says it.
ENGLISH = "Friends can watch this game live"
SPANISH = "Tus amigos pueden mirar"

SAME_SITE = [(b"host", b"localhost:8000"), (b"origin", b"http://localhost:8000")]


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("fr-FR,fr;q=0.9", ENGLISH),  # a French Chromium: no live updates before
        ("de", ENGLISH),
        ("*", ENGLISH),
        ("zh-Hant-TW", ENGLISH),
        ("fr;q=1.0, es;q=0.5", SPANISH),  # the first one the site has, in order
        ("es-MX", SPANISH),
        ("!!;;q=x,,", ENGLISH),  # malformed
        ("e" * 300, ENGLISH),
    ],
)
async def test_every_socket_opens_in_any_browser_language(accept, expected):
    game_id, code = await online_game_and_table()
    headers = [*SAME_SITE, (b"accept-language", accept.encode())]
    for path in (f"/ws/game/{game_id}/", "/ws/lobby/", f"/ws/table/{code}/"):
        socket, connected = await open_socket(path, headers)
        assert connected, path
        pushed = await socket.receive_from(timeout=5)  # the catch-up, in the page's language
        if path.startswith("/ws/game/"):
            assert expected in pushed
        await socket.disconnect()


async def test_a_language_cookie_the_site_has_wins_over_the_browser():
    game_id, _code = await online_game_and_table()
    key = await session_for("ana")
    headers = [
        (b"cookie", f"sessionid={key}; django_language=es".encode()),
        (b"accept-language", b"de-DE"),
        *SAME_SITE,
    ]
    socket = WebsocketCommunicator(application, f"/ws/game/{game_id}/", headers=headers)
    assert (await socket.connect())[0]
    assert SPANISH in await socket.receive_from(timeout=5)
    await socket.disconnect()


@pytest.mark.parametrize(
    ("host", "origin", "allowed"),
    [
        (b"localhost:8000", b"http://localhost:8000", True),
        (b"localhost:8000", b"http://localhost:9999", False),  # another port of the same host
        (b"localhost:8000", b"https://localhost:8000", False),  # another scheme
        (b"localhost:8000", b"http://localhost", False),
        (b"localhost:8000", b"http://evil.example", False),
        (b"localhost:8000", b"null", False),
        (b"localhost:8000", None, False),  # no page of any site
        (b"evil.example", b"http://evil.example", False),  # a host the site does not answer to
        (None, b"http://localhost:8000", False),
        (b"localhost:8000", b"https://play.friends.example", True),  # CSRF_TRUSTED_ORIGINS
        (b"localhost:8000", b"https://eu.yahtzee.example", True),  # ... with a wildcard
        (b"localhost:8000", b"http://eu.yahtzee.example", False),  # ... of its scheme only
    ],
)
async def test_only_the_sites_own_origin_may_open_a_socket(settings, host, origin, allowed):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.friends.example", "https://*.yahtzee.example"]
    game_id, code = await online_game_and_table()
    headers = [(b"host", host)] if host else []
    headers += [(b"origin", origin)] if origin else []
    for path in (f"/ws/game/{game_id}/", "/ws/lobby/", f"/ws/table/{code}/"):
        socket, connected = await open_socket(path, headers)
        assert connected is allowed, path
        if connected:
            await socket.disconnect()


async def test_behind_a_tls_proxy_the_origin_is_https(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    headers = [(b"host", b"localhost"), (b"x-forwarded-proto", b"https")]
    socket, connected = await open_socket(
        "/ws/lobby/", [*headers, (b"origin", b"https://localhost")]
    )
    assert connected
    await socket.disconnect()
    _socket, connected = await open_socket(
        "/ws/lobby/", [*headers, (b"origin", b"http://localhost")]
    )
    assert not connected


@pytest.mark.parametrize(
    "path",
    [
        "/ws/game/" + "a" * 120 + "/",
        "/ws/game/ä/",
        "/ws/table/a b/",
        "/ws/table/" + "A" * 40 + "/",
        "/ws/nothing/",
        "/ws/game/abc/extra/",
    ],
)
async def test_a_path_of_no_page_is_refused_at_the_handshake(path):
    socket, connected = await open_socket(path, SAME_SITE)
    assert not connected


async def test_a_table_page_without_a_name_does_not_redraw_the_lobby():
    """Opening and closing a page is news for the lobby only when it takes a player online or
    offline (120 such pages once redrew 20 lobbies 120 times: 21.5 MB pushed)."""
    _game_id, code = await online_game_and_table()
    watcher, connected = await open_socket("/ws/lobby/", SAME_SITE, visitor="bo")
    assert connected
    await drain(watcher)
    for _ in range(3):  # a visitor with no name, looking at Ana's table
        page, connected = await open_socket(f"/ws/table/{code}/", SAME_SITE, visitor="nameless")
        assert connected
        await page.disconnect()
    # Bo's own second page: he was online already.
    second, _ = await open_socket("/ws/lobby/", SAME_SITE, visitor="bo")
    await second.disconnect()
    assert await watcher.receive_nothing(timeout=0.5)
    # Ana comes online: that is news.
    ana, _ = await open_socket("/ws/lobby/", SAME_SITE, visitor="ana")
    await receive_containing(watcher, "Ana")  # (drain's quiet window can end before it, when busy)
    await ana.disconnect()
    assert "Ana" not in "".join(await drain(watcher))
    await watcher.disconnect()


async def no_table(path: str, visitor: str) -> bool:
    """Whether the socket was closed at once as one of no table (a code the page does not try
    again: a refused handshake would be retried every second, each try counted as a guess)."""
    socket, connected = await open_socket(path, SAME_SITE, visitor)
    assert connected
    return await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}


async def test_a_table_socket_does_not_tell_a_guesser_which_codes_are_in_use(monkeypatch):
    """The table's page answers a wrong code with 404 and counts it toward the limit on guesses;
    so does its socket, which once sent the seats of any code that had a table, unlimited."""
    monkeypatch.setattr(access, "rate_window", lambda: 1)  # all in one minute of the limits
    _game_id, code = await online_game_and_table()
    for guess in range(10):
        assert await no_table(f"/ws/table/NOPE{guess:02}/", "guesser")
    # Past the limit even a code in use finds nothing: the answers stop telling codes apart.
    assert await no_table(f"/ws/table/{code}/", "guesser")
    socket, connected = await open_socket(f"/ws/table/{code}/", SAME_SITE, "someone")
    assert connected
    assert "Players (1 of 6)" in await socket.receive_from(timeout=5)
    await socket.disconnect()
