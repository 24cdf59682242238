"""People at browsers against a real server (tests/servers.py's or the stack's): pages and posts
over HTTP, one live socket, and what that socket is pushed."""

from __future__ import annotations

import contextlib
import re
import time

from websockets.sync.client import ClientConnection, connect

from tests.servers import Browser

PUSH_TIMEOUT = 5  # seconds a move may take to reach the other player's screen


class Player:
    """A person at a browser: pages and posts over HTTP, one live socket, all through one port."""

    def __init__(self, name: str, base: str, sockets: contextlib.ExitStack) -> None:
        self.name, self.base, self.sockets = name, base, sockets
        self.browser = Browser(base)
        self.socket: ClientConnection | None = None
        self.points = 0

    def go_online(self) -> None:
        self.browser.get("/online/")
        status, page = self.browser.post("/online/name/", {"name": self.name})
        assert status == 200 and f"You are online as {self.name}" in page, page[-2000:]

    def connect(self, path: str) -> ClientConnection:
        self.socket = self.sockets.enter_context(open_socket(self.base, path, self.browser))
        return self.socket

    def act(self, game_id: str, kind: str, data: dict) -> str:
        status, answer = self.browser.post(f"/game/{game_id}/{kind}/", data, htmx=True)
        assert status == 200, (self.name, kind, data, status, answer[-2000:])
        return answer


def open_socket(base: str, path: str, browser: Browser | None = None) -> ClientConnection:
    cookies = "; ".join(f"{c.name}={c.value}" for c in browser.cookies) if browser else ""
    url = base.replace("http://", "ws://") + path
    return connect(url, origin=base, additional_headers={"Cookie": cookies}, open_timeout=10)


def receive(sock: ClientConnection, wanted: str | re.Pattern) -> str:
    """The first push containing ``wanted``, skipping others; fails after PUSH_TIMEOUT."""
    deadline = time.monotonic() + PUSH_TIMEOUT
    seen = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = sock.recv(timeout=left)
        except TimeoutError:
            break
        if re.search(wanted, message) if isinstance(wanted, re.Pattern) else wanted in message:
            return message
        seen.append(message[:300])
    raise AssertionError(f"no push with {wanted!r} within {PUSH_TIMEOUT} s; got {seen}")


def start_online_game(ana: Player, bo: Player) -> str:
    """Ana challenges Bo in the lobby, Bo accepts; both lobbies hear of it live."""
    ana.go_online()
    bo.go_online()
    ana_lobby, bo_lobby = ana.connect("/ws/lobby/"), bo.connect("/ws/lobby/")
    _, lobby = ana.browser.get("/online/")
    bo_id = re.search(r'value="(\d+)" aria-label="Challenge Bo"', lobby)[1]
    ana.browser.post("/online/challenge/", {"player": bo_id})
    receive(bo_lobby, "Ana challenges you")  # pushed by WebSocket process 2
    _, page = bo.browser.get("/online/")
    accept = re.search(r'action="(/online/challenge/\d+/accept/)"', page)[1]
    status, game_page = bo.browser.post(accept, {})
    assert status == 200, game_page[-2000:]
    game_id = re.search(r"/ws/game/([\w-]+)/", game_page)[1]
    receive(ana_lobby, f'href="/game/{game_id}/"')  # "your game has started", on process 1
    return game_id
