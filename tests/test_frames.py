"""What a game socket takes from a page: moves, at a person's pace."""

from __future__ import annotations

import pytest

from games.live import moves


def test_a_frame_budget_allows_a_burst_then_a_steady_rate(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(moves.time, "monotonic", lambda: clock[0])
    budget = moves.FrameBudget(burst=3, per_second=2)
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    clock[0] += 0.5  # one frame's worth back
    assert [budget.take(), budget.take()] == [True, False]
    clock[0] += 60  # never more than the burst saved up
    assert sum(budget.take() for _ in range(10)) == 3


@pytest.mark.parametrize(
    ("frame", "move"),
    [
        ('{"move": "roll", "step": "0"}', {"move": "roll", "step": "0"}),
        ('{"move": "score", "box": "chance"}', {"move": "score", "box": "chance"}),
        ('{"move": "undo"}', None),
        ("[" * 2000, None),
        ("null", None),
        (None, None),
        ('{"move": "hold", "pad": "' + "x" * 2000 + '"}', None),
    ],
)
def test_only_a_move_a_page_sends_is_taken(frame, move):
    assert moves.parse_move(frame) == move
