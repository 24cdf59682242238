"""Killing and restarting the real server loses nothing: the game resumes exactly."""

from __future__ import annotations

import contextlib
import re
import time

import pytest
from websockets.exceptions import ConnectionClosed

from tests.players import Player, receive, start_online_game
from tests.servers import Browser, Server, dice_labels


def test_game_resumes_after_the_server_is_killed_and_restarted(tmp_path):
    server = Server(tmp_path)
    with server:
        player = Browser(server.url)
        player.get("/")
        status, page = player.post("/new/", {"multiple_yahtzees": "on"})
        assert status == 200
        game_path = re.search(r'action="(/game/[\w-]+/)roll/"', page).group(1)
        player.post(game_path + "roll/", {"step": 0, "held": "00000"})
        player.post(game_path + "hold/", {"step": 1, "die": 3, "held": "1"})
        status, before = player.get(game_path)
        assert status == 200
        assert "Roll again (2 left)" in before
    # The server is gone (SIGKILL): start it again on the same data.
    with server:
        status, after = player.get(game_path)
        assert status == 200
        assert dice_labels(after) == dice_labels(before)
        assert dice_labels(after)[3][0] == "true"
        assert "Roll again (2 left)" in after
        status, home = player.get("/")
        assert "Continue: Solo · round 1" in home


def test_presence_is_right_after_the_server_is_killed_with_pages_open(tmp_path):
    """Two players' game pages are open when the server is killed. Their pages come back on the
    restarted server; when Bo then closes his, Ana is told at once that he is away, with the
    countdown (the pages counted before the crash once kept him "here" for good)."""
    server = Server(tmp_path)
    with contextlib.ExitStack() as sockets:
        sockets.callback(server.kill)
        server.start()
        ana, bo = Player("Ana", server.url, sockets), Player("Bo", server.url, sockets)
        game_id = start_online_game(ana, bo)
        for player in (ana, bo):
            player.connect(f"/ws/game/{game_id}/")
        receive(ana.socket, "Bo</a>: here")
        server.kill()
        down = time.monotonic()
        for player in (ana, bo):
            with pytest.raises(ConnectionClosed):  # the pages see their sockets go
                while True:
                    player.socket.recv(timeout=5)
        server.start()
        back = time.monotonic()
        for player in (ana, bo):  # as the pages reconnect
            player.connect(f"/ws/game/{game_id}/")
        print(f"server down {back - down:.1f} s; both pages back {time.monotonic() - back:.2f} s")
        receive(ana.socket, "Bo</a>: here")
        bo.socket.close()
        gone = receive(ana.socket, "Bo</a>: away")
        assert "Bo is away." in gone and "data-deadline" in gone
        assert "Ana</a>: here" in gone
