"""A server killed (SIGKILL) as the last score of a tournament's round or of its last game is
sent, then the tournaments moved on by ``manage.py tournaments`` (cron's path, as a restarted
server's sweep): the next round is paired once and the prizes paid once, whether the kill came
before the score, between it and what its commit set off, or after; the ledger balances."""

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

import pytest

from tests.servers import ROOT, Server, move, online

SETUP = """
import json
from datetime import timedelta
from django.utils import timezone
from tournaments import clock, services
from tournaments.models import Tournament
options = services.TournamentOptions(name="Night", format="{format}", entry_fee=50, {length})
made = services.create("{maker}", options)
for visitor in {visitors}:
    services.join(made.pk, visitor)
Tournament.objects.filter(pk=made.pk).update(starts_at=timezone.now())
clock.advance(made.pk)
if made.format == "arena":  # its end is due: the game under way is its last
    Tournament.objects.filter(pk=made.pk).update(ends_at=timezone.now())
game = made.games.get(entry__player__visitor="{maker}").game
print(json.dumps({{"tournament": made.pk, "game": game.id,
                   "seats": [seat.visitor for seat in game.ordered_seats()]}}))
"""

CHECK = """
import json
from lobby import diamonds
from lobby.models import DiamondEntry
from tournaments.models import Tournament
made = Tournament.objects.get(pk="{tournament}")
games = made.games.all()
print(json.dumps({{
    "status": made.status,
    "round": made.round,
    "rows": [[g.round, g.entry_id, g.game_id, g.finished_at is not None] for g in games],
    "prizes": list(DiamondEntry.objects.filter(pot="tournament:" + made.pk, reason="prize")
                   .values_list("amount", flat=True)),
    "pot": diamonds.named_pot("tournament:" + made.pk),
}}))
"""


def manage(server: Server, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=server.env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return result.stdout


def shell(server: Server, code: str) -> dict:
    return json.loads(manage(server, "shell", "-c", code).strip().splitlines()[-1])


@pytest.mark.parametrize("format_", ["arena", "swiss"])
def test_killed_at_the_last_score_nothing_is_paired_or_paid_twice(tmp_path, format_):
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    server = Server(tmp_path)
    with server:
        players = {name: online(server, name) for name in ("Ana", "Bo")}
        visitors = shell(
            server,
            "import json; from lobby.models import Player; "
            "print(json.dumps(dict(Player.objects.values_list('name', 'visitor'))))",
        )
        by_visitor = {visitors[name]: browser for name, browser in players.items()}
        length = "minutes=30" if format_ == "arena" else "rounds=2"
        made = shell(
            server,
            SETUP.format(
                format=format_, length=length, maker=visitors["Ana"], visitors=list(by_visitor)
            ),
        )
        game = f"/game/{made['game']}/"
        order = [by_visitor[visitor] for visitor in made["seats"]]
        step = 0
        while step < 51:  # 13 turns of a roll and a score for each, but for the last score
            step = move(order[(step // 2) % 2], game, step)
        _, page = order[1].get(game)
        box = re.search(r'href="\?select=(\w+)"', page)[1]

        def last_score() -> None:
            with contextlib.suppress(OSError, http.client.HTTPException):
                order[1].post(game + "score/", {"step": 51, "box": box}, htmx=True)

        last = threading.Thread(target=last_score, daemon=True)
        last.start()
        time.sleep(rng.uniform(0, 0.08))
    last.join(10)
    check = CHECK.format(tournament=made["tournament"])
    before = shell(server, check)
    last_rows = [done for _, _, game_id, done in before["rows"] if game_id == made["game"]]
    if not all(last_rows):  # the score did not get through
        with server:
            move(order[1], game, 51)
    for _ in range(2):  # cron's path, twice: the second finds nothing to do twice
        manage(server, "tournaments")
    after = shell(server, check)
    if format_ == "arena":
        assert after["status"] == "finished", (seed, before, after)
        assert sum(after["prizes"]) == 100 and len(after["prizes"]) in (1, 2), (seed, after)
        assert after["pot"] == 0, (seed, after)
    else:  # the second round paired once: one game each, Ana and Bo again (two players)
        assert after["round"] == 2, (seed, before, after)
        second = [entry for number, entry, _, _ in after["rows"] if number == 2]
        assert sorted(second) == sorted(set(second)) and len(second) == 2, (seed, after)
        assert after["pot"] == 100, (seed, after)
    audit = subprocess.run(
        [sys.executable, "manage.py", "diamonds", "audit"],
        cwd=ROOT, env=server.env, capture_output=True, text=True,
    )  # fmt: skip
    assert audit.returncode == 0, (seed, audit.stdout, audit.stderr)
