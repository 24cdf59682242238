"""Helpers that build games in a given position through the real service."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from types import SimpleNamespace
from unittest import mock

from engine.rulesets import YAHTZEE, RuleSet
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
    rules: RuleSet = YAHTZEE,
) -> Game:
    """A solo game after the given turns, each rolled once as ``(dice, box)`` and scored."""
    game = services.start_solo_game(visitor, rules=rules)
    for dice, box in turns:
        act(game, "roll", visitor, dice)
        act(game, "score", visitor, box=box)
    game.refresh_from_db()
    return game


def fill_all_but(open_boxes: Iterable[str], *, yahtzee: int = 50, **kwargs) -> Game:
    """A game in which every box but ``open_boxes`` is filled (the Yahtzee box with 50 or 0)."""
    from engine.rules import CATEGORIES

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


def play_out(game: Game) -> Game:
    """Play a game to its end: each person's turn rolls, holds the first die, rolls again and
    scores its first open box (the computer plays its own turns); the dice come from the seed."""
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        state = game.state()
        visitor = game.ordered_seats()[state.current].visitor
        services.perform(game.id, visitor, "roll", {"held": list(state.turn.held)}, game.step)
        game.refresh_from_db()
        services.perform(game.id, visitor, "hold", {"die": 0, "held": True}, game.step)
        game.refresh_from_db()
        held = list(game.state().turn.held)
        services.perform(game.id, visitor, "roll", {"held": held}, game.step)
        game.refresh_from_db()
        box = game.state().cards[game.current_seat].open_boxes[0]
        services.perform(game.id, visitor, "score", {"box": box}, game.step)


def finished_table(visitor: str = VISITOR) -> Game:
    """A finished pass-the-phone game of three seats: Ana and Bo (this browser), the computer."""
    game = services.start_game(
        visitor, ["Ana", "Bo", ""], mode=Game.Mode.LOCAL, bots={2: "beginner"}
    )
    return play_out(game)


BO, AL = "visitor-bo", "visitor-al"  # the seats of a timed game


def timed_game(seconds: int = 60, *, third: bool = False) -> Game:
    """A two-player online game with a turn timer; Bo plays first (then Al, then Cy: ``third``)."""
    players = [SimpleNamespace(name="Bo", visitor=BO), SimpleNamespace(name="Al", visitor=AL)]
    if third:
        players.append(SimpleNamespace(name="Cy", visitor="visitor-cy"))
    return services.start_online_game(players, turn_seconds=seconds)


def at(game: Game, seconds: float):
    """Patch the clock to ``seconds`` after the turn in play started."""
    game.refresh_from_db()
    return mock.patch(
        "django.utils.timezone.now", return_value=game.turn_started_at + timedelta(seconds=seconds)
    )
