"""Hostile and unlucky input: random action sequences over HTTP, concurrent duplicates, dice."""

from __future__ import annotations

import concurrent.futures
import re
from collections import Counter

import pytest
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine.rules import CATEGORIES
from games import services
from games.models import Game
from games.services import roll_dice
from lobby.models import Player
from tests.clients import client_for
from tests.factories import VISITOR, make_game
from tests.servers import Browser, Server

HTMX = {"HX-Request": "true"}
WHO = st.integers(0, 2)  # which seat acts; past the last seat, the stranger


class PlayOverHttp(RuleBasedStateMachine):
    """Legal, illegal, stale and foreign actions from any seat in any order: never a 5xx, and
    the stored state always equals a replay of the log.

    The game is a solo game or a two-seat online game; the actors are its seats plus a
    stranger with no seat (so foreign and out-of-turn actions come up all the time).
    """

    @initialize(online=st.booleans())
    def new_game(self, online):
        if online:
            players = [
                Player.objects.get_or_create(visitor=v, defaults={"name": v, "name_key": v})[0]
                for v in ("ana", "bo")
            ]
            self.game = services.start_online_game(players)
            visitors = ["ana", "bo"]
        else:
            self.game = make_game()
            visitors = [VISITOR]
        self.clients = [client_for(v) for v in [*visitors, "stranger"]]
        self.statuses = []

    def post(self, who, kind, data, htmx):
        client = self.clients[who % len(self.clients)]
        response = client.post(f"/game/{self.game.id}/{kind}/", data, headers=HTMX if htmx else {})
        self.statuses.append(response.status_code)
        assert response.status_code < 500, response.content[:500]

    def step(self, stale: bool) -> int:
        self.game.refresh_from_db()
        return self.game.step - 1 if stale else self.game.step

    @rule(
        who=WHO,
        stale=st.booleans(),
        htmx=st.booleans(),
        seen=st.sampled_from(["", "00000", "11111"]),
    )
    def roll(self, who, stale, htmx, seen):
        data = {"step": self.step(stale)}
        if seen:
            data["held"] = seen
        self.post(who, "roll", data, htmx)

    @rule(
        who=WHO,
        die=st.sampled_from(["0", "3", "4", "5", "-1", "x", ""]),
        held=st.sampled_from(["0", "1", "2"]),
    )
    def hold(self, who, die, held):
        self.post(who, "hold", {"step": self.step(False), "die": die, "held": held}, True)

    @rule(who=WHO, box=st.sampled_from([*CATEGORIES, "sevens", ""]), stale=st.booleans())
    def score(self, who, box, stale):
        self.post(who, "score", {"step": self.step(stale), "box": box}, False)

    @rule(who=WHO, seat=st.sampled_from(["0", "1", "2", "x"]), end=st.booleans())
    def leave_out(self, who, seat, end):
        self.post(who, "leave-out", {"seat": seat, **({"end": "1"} if end else {})}, True)

    @invariant()
    def log_replays_to_the_stored_state(self):
        if hasattr(self, "game"):
            game = Game.objects.prefetch_related("seats").get(pk=self.game.pk)
            assert game.replayed_state() == game.state()
            assert game.actions.count() == game.log_length


@pytest.mark.django_db
def test_random_action_sequences_over_http():
    machine = PlayOverHttp.TestCase
    machine.settings = hypothesis_settings(max_examples=30, stateful_step_count=30, deadline=None)
    machine().runTest()


def test_concurrent_duplicates_apply_once(tmp_path):
    """Sixteen copies of the same roll at once, against the real server and its SQLite file."""
    with Server(tmp_path) as server:
        player = Browser(server.url)
        player.get("/")
        _, page = player.post("/new/", {"mode": "solo", "multiple_yahtzees": "on"})
        roll = re.search(r'action="(/game/[\w-]+/roll/)"', page)[1]
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            statuses = list(
                pool.map(lambda _: player.post(roll, {"step": 0, "held": "00000"}, htmx=True)[0],
                         range(16))
            )  # fmt: skip
        assert sorted(statuses) == [200] + [409] * 15
        _, page = player.get(roll.removesuffix("roll/"))
        assert "Roll again (2 left)" in page


def test_dice_are_fair():
    """Chi-square over 60,000 server dice; fails by chance once in 10,000 runs (p = 1e-4)."""
    counts = Counter(face for _ in range(12_000) for face in roll_dice(5))
    expected = 60_000 / 6
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert chi_square < 25.74  # 5 degrees of freedom, p = 1e-4
