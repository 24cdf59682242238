"""The site's door to the tables for a rule set with saved rolls: it borrows Maxi Yatzy's table
(the same game without them), says its advice is not exact, and never asks for a table of its
own."""

from __future__ import annotations

import io

import numpy as np
import pytest
from django.core.management import call_command

from engine.rules import Scorecard
from engine.rulesets import MAXI_YATZY, MAXI_YATZY_SAVED
from engine.strategy import Advisor, storage, table_path
from engine.strategy.points import layout
from games import advice
from games.management.commands import solve as solve_command


@pytest.fixture
def rebuilds(tmp_path, monkeypatch) -> list:
    """An empty strategy directory of this test's own; background builds recorded, not run."""
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    asked: list = []
    monkeypatch.setattr(advice, "_solve_in_background", lambda *args: asked.append(args))
    return asked


def test_saved_rolls_wait_for_maxi_yatzys_table_and_have_it_built(rebuilds, tmp_path, monkeypatch):
    assert table_path(MAXI_YATZY_SAVED, tmp_path) == table_path(MAXI_YATZY, tmp_path)
    assert advice.advisor(MAXI_YATZY_SAVED) is None
    assert not advice.bot_can_play("optimal", MAXI_YATZY_SAVED)
    assert advice.advisor(MAXI_YATZY) is None  # the same table: one build asked for, not two
    assert rebuilds == [(MAXI_YATZY_SAVED, tmp_path)]
    # What that background build runs: solve --variant maxi-saved builds Maxi Yatzy's table.
    built = []

    def build(rules, *args, **kwargs):
        built.append(rules)
        return Advisor(np.zeros(layout(rules).shape, dtype=np.float32), rules)

    monkeypatch.setattr(solve_command, "build", build)
    monkeypatch.setattr(solve_command, "count_states", lambda rules: 1)  # Maxi's: 1M masks
    out = io.StringIO()
    call_command("solve", "--variant", "maxi-saved", "--dir", str(tmp_path), stdout=out)
    assert "Solving the maxi rules" in out.getvalue()
    assert built == [MAXI_YATZY]


def test_saved_rolls_are_answered_from_maxi_yatzys_table_not_exactly(rebuilds, tmp_path):
    # A table of zeros in place of the 340 MiB file: the loaded advisor, as the door keeps it.
    maxi = Advisor(np.zeros(layout(MAXI_YATZY).shape, dtype=np.float32), MAXI_YATZY)
    loaded = {table_path(MAXI_YATZY, tmp_path): maxi}
    advice._advisors.update(loaded)
    try:
        saved = advice.advisor(MAXI_YATZY_SAVED)
        assert saved is not None and saved.table is maxi.table
        assert saved.rules is MAXI_YATZY_SAVED and not saved.exact and maxi.exact
        assert advice.advisor(MAXI_YATZY_SAVED) is saved  # kept, not made anew per request
        moves = saved.options(Scorecard(MAXI_YATZY_SAVED), (1, 2, 3, 4, 5, 6), 7)
        assert ("keep", (1, 2, 3, 4, 5, 6)) in dict(moves)  # seven rolls in store: accepted
    finally:
        for file in loaded:
            advice._advisors.pop(file)
    assert rebuilds == []
