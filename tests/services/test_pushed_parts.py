"""What a move announces for the live layer to push (what happened), and which parts each page
redraws for it (decided by the pages: ``games.presenters.parts``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.rules import CATEGORIES, UPPER
from games import events, services
from games.presenters.parts import redrawn
from tests.clients import online_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", ["games/services.py", "games/events.py", "lobby/notify.py"])
def test_what_happened_is_announced_without_naming_a_part_of_the_page(module):
    """Which fragments a change redraws is decided where the page is drawn (issue 30)."""
    page = (ROOT / "templates/games/play.html").read_text()
    parts = set(re.findall(r"partialdef (\w+)", page))
    named = [
        node.value
        for node in ast.walk(ast.parse((ROOT / module).read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if node.value.partition(":")[0] in parts
    ]
    assert named == []


@pytest.mark.django_db(transaction=True)
def test_a_score_announces_its_own_parts_for_the_others_and_the_whole_game_at_the_end():
    game, _ana, _bo = online_game()
    heard = []

    def listen(sender, *, change, game, mover, **kwargs):
        heard.append((*redrawn(change, game), mover))

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
