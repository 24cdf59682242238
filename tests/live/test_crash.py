"""A server killed (SIGKILL) at random moments mid-game loses nothing and half-applies nothing."""

from __future__ import annotations

import http.client
import json
import random
import re
import subprocess
import sys
import threading
import time

from tests.servers import ROOT, Browser, Server

CHECK = """
import json
from games.models import Game
game = Game.objects.prefetch_related("seats").get(pk="{game}")
print(json.dumps({{
    "step": game.step,
    "log_length": game.log_length,
    "actions": game.actions.count(),
    "replays": game.replayed_state() == game.state(),
    "status": game.status,
}}))
"""


def stored(server: Server, game_id: str) -> dict:
    """What the server's database holds for the game, read by a separate Django process."""
    code = CHECK.format(game=game_id)
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=server.env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


class Player(threading.Thread):
    """Plays one solo game as fast as the server answers: roll once, score the first open box.

    ``acknowledged`` is the highest step that an answered (200) action left the game at: once
    the server has said so, that move must survive a crash.
    """

    def __init__(self, browser: Browser, game: str, step: int) -> None:
        super().__init__(daemon=True)
        self.browser, self.game, self.step = browser, game, step
        self.acknowledged = step
        self.finished = False
        self.refusal: tuple | None = None

    def run(self) -> None:
        page = None
        try:
            while self.step < 26:
                if self.step % 2 == 0:  # a new turn: roll
                    data, kind = {"step": self.step, "held": "00000"}, "roll/"
                else:  # rolled: score the first open box
                    if page is None:
                        page = self.browser.get(self.game)[1]
                    box = re.search(r'href="\?select=(\w+)"', page)
                    data, kind = {"step": self.step, "box": box[1] if box else ""}, "score/"
                status, page = self.browser.post(self.game + kind, data, htmx=True)
                if status != 200:
                    self.refusal = (status, data, page[-3000:])
                    return
                self.step += 1
                self.acknowledged = self.step
            self.finished = True
        except (OSError, http.client.HTTPException):  # the server died under the request
            return  # (HTTPException: killed while its answer was on the way, IncompleteRead)


def test_killed_at_random_moments_the_game_resumes_whole(tmp_path):
    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    server = Server(tmp_path)
    with server:
        browser = Browser(server.url)
        browser.get("/")
        status, page = browser.post("/new/", {"mode": "solo", "multiple_yahtzees": "on"})
        assert status == 200
        game = re.search(r'action="(/game/[\w-]+/)roll/"', page)[1]
    game_id = game.strip("/").split("/")[-1]
    step, kills = 0, 0
    while kills < 5:
        server.start()
        browser.get(game)  # warm: the kill should land among moves, not during start-up
        player = Player(browser, game, step)
        player.start()
        time.sleep(rng.uniform(0.02, 0.5))
        server.kill()
        player.join(15)
        kills += 1
        after = stored(server, game_id)
        assert after["replays"], (seed, after)
        assert after["actions"] == after["log_length"], (seed, after)
        # Nothing the server acknowledged is lost; at most the one move in flight got through.
        assert player.acknowledged <= after["step"] <= player.acknowledged + 1, (seed, after)
        step = after["step"]
        if player.finished:
            break
    # Play resumes where the log says, to the end of the game.
    with server:
        player = Player(browser, game, step)
        player.run()
        assert player.finished, (seed, player.refusal)
    final = stored(server, game_id)
    assert final["replays"] and final["status"] == "finished", (seed, final)
    assert final["step"] == 26
