"""The socket checks against the real ASGI server: refusals are 4xx answers, never a 500."""

from __future__ import annotations

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

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
