"""Killing and restarting the real server loses nothing: the game resumes exactly."""

from __future__ import annotations

import re

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
