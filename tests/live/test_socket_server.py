"""The socket checks against the real ASGI server: refusals are 4xx answers, never a 500."""

from __future__ import annotations

import contextlib
import json
import re

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.players import Player, open_socket, receive, start_online_game
from tests.servers import Browser, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("sockets")) as running:
        yield running


def handshake(server: Server, path: str, origin: str | None = None, **headers) -> int:
    """The status of the WebSocket handshake: 101 when it opened."""
    url = server.url.replace("http://", "ws://") + path
    try:
        with connect(url, origin=origin or server.url, additional_headers=headers, open_timeout=5):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


@pytest.mark.parametrize(
    "path", ["/ws/game/" + "a" * 120 + "/", "/ws/game/%C3%A4/", "/ws/table/a%20b/", "/ws/x/"]
)
def test_a_socket_to_no_page_is_refused_with_403(server, path):
    assert handshake(server, path) == 403


def test_a_socket_from_another_port_of_the_same_host_is_refused(server):
    assert handshake(server, "/ws/lobby/", origin="http://127.0.0.1:9") == 403
    assert handshake(server, "/ws/lobby/") == 101


@pytest.mark.parametrize("language", ["fr-FR,fr;q=0.9", "*", "zh-Hant-TW", "de"])
def test_a_browser_in_any_language_gets_its_live_updates(server, language):
    browser = Browser(server.url, language=language)
    status, _ = browser.get("/online/")
    assert status == 200
    cookies = "; ".join(f"{c.name}={c.value}" for c in browser.cookies)
    url = server.url.replace("http://", "ws://") + "/ws/lobby/"
    headers = {"Cookie": cookies, "Accept-Language": language}
    with connect(url, origin=server.url, additional_headers=headers, open_timeout=5) as socket:
        assert 'id="online"' in socket.recv(timeout=5)  # the lobby's catch-up


def online_list(browser: Browser) -> str:
    """The lobby's list of who is online, as this browser's page shows it."""
    _, page = browser.get("/online/")
    return page[page.index('<div id="online"') :].split("</ul>", 1)[0]


def step_of(page: str) -> int:
    return int(re.search(r'name="step" value="(\d+)"', page)[1])


def test_a_browser_signed_out_from_another_can_no_longer_act_over_its_open_sockets(server):
    """Ana's phone joined her profile by a one-time code and has its game and lobby sockets open;
    her laptop signs the other browsers out. The phone's sockets, which read Ana when they opened,
    close at once: a roll sent over them is never applied, and the lobby counts Ana online
    through them no more (they once went on acting as her, logged as her seat)."""
    with contextlib.ExitStack() as sockets:
        ana, bo = Player("Ana", server.url, sockets), Player("Bo", server.url, sockets)
        game_id = start_online_game(ana, bo)
        laptop = ana.browser
        _, game_page = laptop.get(f"/game/{game_id}/")
        if f'action="/game/{game_id}/roll/"' not in game_page:  # Bo is first: he plays a turn
            bo.act(game_id, "roll", {"step": step_of(game_page), "held": "00000"})
            _, bo_page = bo.browser.get(f"/game/{game_id}/")
            bo.act(game_id, "score", {"step": step_of(bo_page), "box": "chance"})
            _, game_page = laptop.get(f"/game/{game_id}/")
        step = step_of(game_page)

        phone = Browser(server.url)
        phone.get("/")
        _, made = laptop.post("/me/code/", {})
        code = re.search(r'<p class="code"><strong>([A-Z0-9-]{11})</strong>', made)[1]
        status, _ = phone.post("/sign-in/", {"code": code})
        assert status == 200  # followed to the profile page, as Ana
        assert "You are online as Ana" in phone.get("/online/")[1]
        phone_game = sockets.enter_context(open_socket(server.url, f"/ws/game/{game_id}/", phone))
        receive(phone_game, 'id="game"')  # the catch-up: the phone plays as Ana's seat
        phone_lobby = sockets.enter_context(open_socket(server.url, "/ws/lobby/", phone))
        receive(phone_lobby, 'id="online"')
        ana.socket.close()  # the laptop's lobby page goes: Ana is online through the phone alone
        assert "Ana" in online_list(bo.browser)

        status, _ = laptop.post("/me/sign-out-others/", {})
        assert status == 200
        token = next(c.value for c in phone.cookies if c.name == "csrftoken")
        roll = {"move": "roll", "step": str(step), "held": "00000", "csrfmiddlewaretoken": token}
        with pytest.raises(ConnectionClosed) as closed:
            phone_game.send(json.dumps(roll))
            while True:
                phone_game.recv(timeout=5)
        assert closed.value.rcvd.code == 4401
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                phone_lobby.recv(timeout=5)
        assert closed.value.rcvd.code == 4401

        assert step_of(laptop.get(f"/game/{game_id}/")[1]) == step  # nothing was rolled
        assert "Ana" not in online_list(bo.browser)
        assert "Choose a name to go online" in phone.get("/online/")[1]
    assert "Traceback" not in server.log()


def test_a_socket_to_a_game_that_does_not_exist_is_closed_as_no_such_game(server):
    """It was accepted and kept open like a game's page; it is closed at once with the code
    the page does not reconnect on (4404), as a table's socket of no table is."""
    sock = open_socket(server.url, "/ws/game/NoSuchGame123/")
    with sock, pytest.raises(ConnectionClosed) as closed:
        sock.recv(timeout=5)
    assert closed.value.rcvd.code == 4404
