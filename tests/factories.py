"""Helpers that build games in a given position through the real service."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games import services
from games.models import Game

VISITOR = "visitor-one"


def scripted_roller(rolls: Iterable[Sequence[int]]):
    """A ``roll`` for services.perform that hands out the given dice, one roll at a time."""
    queue = [list(r) for r in rolls]

    def roll(count: int) -> list[int]:
        dice = queue.pop(0)
        assert len(dice) == count, f"script rolls {len(dice)} dice where the game rolls {count}"
        return dice

    return roll


def act(game: Game, kind: str, visitor: str = VISITOR, dice: Sequence[int] = (), **params) -> Game:
    """Apply one action through the service; ``dice`` are the faces a roll produces."""
    game.refresh_from_db()
    roller = scripted_roller([dice]) if kind == "roll" else services.roll_dice
    return services.perform(game.id, visitor, kind, params, game.step, roll=roller)


def make_game(
    turns: Iterable[tuple[Sequence[int], str]] = (),
    *,
    visitor: str = VISITOR,
    multiple_yahtzees: bool = True,
) -> Game:
    """A solo game after the given turns, each rolled once as ``(dice, box)`` and scored."""
    game = services.start_solo_game(visitor, multiple_yahtzees=multiple_yahtzees)
    for dice, box in turns:
        act(game, "roll", visitor, dice)
        act(game, "score", visitor, box=box)
    game.refresh_from_db()
    return game


def fill_all_but(open_boxes: Iterable[str], *, yahtzee: int = 50, **kwargs) -> Game:
    """A game in which every box but ``open_boxes`` is filled (the Yahtzee box with 50 or 0)."""
    from games.rules import CATEGORIES

    keep_open = set(open_boxes)
    turns = []
    for box in CATEGORIES:
        if box in keep_open:
            continue
        if box == "yahtzee":
            turns.append(((2, 2, 2, 2, 2) if yahtzee else (1, 2, 3, 5, 6), box))
        else:
            turns.append(((1, 2, 3, 5, 6), box))
    return make_game(turns, **kwargs)
