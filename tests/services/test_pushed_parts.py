"""What a move announces for the live layer to push: which parts each page redraws."""

from __future__ import annotations

import pytest

from engine.rules import CATEGORIES, UPPER
from games import events, services
from tests.clients import online_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_score_announces_its_own_parts_for_the_others_and_the_whole_game_at_the_end():
    game, _ana, _bo = online_game()
    heard = []

    def listen(sender, *, parts, onlookers, mover, **kwargs):
        heard.append((parts, onlookers, mover))

    events.game_changed.connect(listen, weak=False)
    try:
        step = 0
        for box in CATEGORIES:
            for visitor in ("ana", "bo"):
                heard.clear()
                services.perform(game.id, visitor, "roll", {"held": [False] * 5}, step,
                                 roll=lambda n: [5] * n)  # fmt: skip
                services.perform(game.id, visitor, "score", {"box": box}, step + 1)
                step += 2
                (_, _, _), (parts, onlookers, mover) = heard
                assert mover == visitor and parts == ("game",)
                if (box, visitor) == (CATEGORIES[-1], "bo"):
                    assert onlookers == ("game",)  # the game is over: its end on every page
                    continue
                upper = ("upper_totals",) if box in UPPER else ()
                assert onlookers == (
                    "status", "messages", "dice", "coach", "card_head", f"box_row:{box}",
                    *upper, "yahtzee_bonus_row", "totals",
                )  # fmt: skip
    finally:
        events.game_changed.disconnect(listen)
