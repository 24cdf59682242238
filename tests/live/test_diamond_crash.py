"""A server killed (SIGKILL) as a diamond match's last score is sent, then restarted: the score
and the payout are both there or both not, and no diamond is made or lost."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import re
import subprocess
import sys
import threading
import time

from tests.servers import ROOT, Browser, Server, move

CHECK = """
import json
from games.models import Game
from lobby import diamonds
from lobby.models import Player
game = Game.objects.get(pk="{game}")
print(json.dumps({{
    "status": game.status,
    "step": game.step,
    "pot": diamonds.pot(game),
    "balances": dict(Player.objects.values_list("name", "diamonds")),
}}))
"""


def stored(server: Server, game_id: str) -> dict:
    """The game and the balances, read by a separate Django process."""
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", CHECK.format(game=game_id)],
        cwd=ROOT, env=server.env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


def audit(server: Server) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "diamonds", "audit"],
        cwd=ROOT, env=server.env, capture_output=True, text=True,
    )  # fmt: skip


def diamond_match(server: Server) -> tuple[Browser, Browser, str]:
    """Ana challenges Bo for 50 diamonds each and Bo accepts: the game's address."""
    ana, bo = Browser(server.url), Browser(server.url)
    for player, name in ((ana, "Ana"), (bo, "Bo")):
        player.get("/online/")
        assert player.post("/online/name/", {"name": name})[0] == 200
    _, lobby = ana.get("/online/")
    bo_id = re.search(r'name="player" value="(\d+)" aria-label="Challenge Bo"', lobby)[1]
    assert ana.post("/online/challenge/", {"player": bo_id, "stake": 50})[0] == 200
    _, lobby = bo.get("/online/")
    accept = re.search(r'action="(/online/challenge/\d+/accept/)"', lobby)[1]
    _, page = bo.post(accept, {})
    game_id = re.search(r"/ws/game/([\w-]+)/", page)[1]
    return ana, bo, f"/game/{game_id}/"


def test_killed_at_the_last_score_no_diamond_is_made_or_lost(tmp_path):
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    server = Server(tmp_path)
    with server:
        ana, bo, game = diamond_match(server)
        game_id = game.strip("/").split("/")[-1]
        step = 0
        while step < 51:  # 13 turns of a roll and a score for each, but for Bo's last score
            step = move(ana if (step // 2) % 2 == 0 else bo, game, step)
        box = last_box(bo, game)

        def last_score() -> None:
            # the server died under it (HTTPException: while its answer was on the way)
            with contextlib.suppress(OSError, http.client.HTTPException):
                bo.post(game + "score/", {"step": 51, "box": box}, htmx=True)

        last = threading.Thread(target=last_score, daemon=True)
        last.start()
        time.sleep(rng.uniform(0, 0.05))
    last.join(10)
    after = stored(server, game_id)
    if after["status"] == "finished":  # the score got through: so did the payout, whole
        assert after["pot"] == 0 and sum(after["balances"].values()) == 1000, (seed, after)
        assert sorted(after["balances"].values()) in ([450, 550], [500, 500]), (seed, after)
    else:  # it did not: both stakes are still in the pot
        assert after == {**after, "step": 51, "pot": 100}, (seed, after)
        assert after["balances"] == {"Ana": 450, "Bo": 450}, (seed, after)
        with server:  # and the game goes on after the restart, to the payout
            move(bo, game, 51)
        after = stored(server, game_id)
        assert after["status"] == "finished" and after["pot"] == 0, (seed, after)
    checked = audit(server)
    assert checked.returncode == 0, (seed, checked.stdout, checked.stderr)
    assert "the ledger and the balances agree" in checked.stdout


def last_box(player: Browser, game: str) -> str:
    _, page = player.get(game)
    return re.search(r'href="\?select=(\w+)"', page)[1]
