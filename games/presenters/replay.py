"""The replay of a finished game: its positions, the board at one of them and the coach's view.

A position is a decision point of the log: each roll and each score (and a forfeit or an end),
with the holds before it folded in, so position ``n`` shows the board just before that action
and says what was done there; the last position is the game as it ended. The board is drawn by
the game page's own presenter (``game_context(at=...)``) and partials.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from engine.analysis import by_player, decide, is_decision
from engine.flow import GameState, replay
from games import advice, winchance
from games.models import Game
from games.presenters.analysis import GRADE_NAMES, grade_of
from games.presenters.coach import move_words
from games.presenters.page import game_context
from games.presenters.players import is_own, seat_name

Logged = tuple[int, str, Mapping[str, Any]]  # an action of the log: seat, kind, payload


@dataclass(frozen=True)
class Positions:
    """Where each position of a replay is in the log: ``starts[n]`` actions come before it."""

    starts: tuple[int, ...]

    @classmethod
    def of(cls, actions: Sequence[Logged]) -> Positions:
        """The positions of a game's log (its ``(seat, kind, payload)`` in order)."""
        points = tuple(i for i, (_, kind, _) in enumerate(actions) if kind != "hold")
        return cls(points + (len(actions),))

    @property
    def last(self) -> int:
        """The number of the last position (the game as it ended)."""
        return len(self.starts) - 1


def replay_context(game: Game, visitor: str | None, actions: Sequence[Logged], at: int) -> dict:
    """The replay page at position ``at`` (0 to the last): board, what was done, coach's view."""
    positions = Positions.of(actions)
    start = positions.starts[at]
    state = replay(list(actions[:start]), len(game.ordered_seats()), rules=game.rules)
    context = game_context(game, visitor, shown=state)
    seats = game.ordered_seats()
    viewer = context["seat"]
    moved = None
    if start < len(actions):
        action = actions[start]
        actor = seats[action[0]]
        own = list(by_player(actions[: start + 1]))[-1][1]
        moved = {
            "name": seat_name(actor, solo=False, own=is_own(actor, viewer)),
            "words": _action_words(action, state),
            "coach": _coach_view(game, state, action) if not actor.bot and own else None,
            "computer": bool(actor.bot),
            # The server played this move for a seat whose time ran out: it is not graded.
            "played_for": not own,
        }
    return context | {
        "at": at,
        "last": positions.last,
        "previous": max(at - 1, 0),
        "next": min(at + 1, positions.last),
        "moved": moved,
        "shows_dice": bool(state.turn.dice) and not state.finished,
    }


def _action_words(action: Logged, state: GameState) -> str:
    """What was done at a position, in words: a keep and roll, a first roll, a box, leaving."""
    seat, kind, payload = action
    if kind == "roll":
        if not state.turn.dice:
            return gettext("First roll")
        return move_words(("keep", state.turn.kept), state.cards[seat], state.turn.dice)
    if kind == "score":
        return move_words(("score", payload["box"]), state.cards[seat], state.turn.dice)
    if kind == "end":
        return gettext("Ends the game")
    if kind == "timeout":
        return gettext("Ran out of time: the server plays the rest of the turn")
    if kind == "resign" and not payload.get("timed_out"):
        return gettext("Resigns")
    if kind == "resign" or payload.get("seat") == seat:  # its third timeout in a row
        return gettext("Leaves the game: three turns in a row ran out of time")
    return gettext("Goes on without a player who left")


def _coach_view(game: Game, state: GameState, action: Logged) -> dict | None:
    """The decision at a person's roll or score, valued as on the analysis page (None if none)."""
    seat, kind, payload = action
    if not is_decision(state, seat, kind):
        return None
    if not advice.offered(game.rules):  # no coach for this game: the moves alone
        return None
    advisor = advice.advisor(game.rules)
    if advisor is None:
        return {"ready": False}
    model = winchance.model(game.rules, wait=True) if len(state.cards) == 2 else None
    decision = decide(state, seat, kind, payload, advisor, model=model)
    grade, lost = grade_of(decision), decision.chance_lost
    return {
        "ready": True,
        "decision": decision,
        "played": move_words(decision.move, decision.card, decision.dice),
        "best": move_words(decision.best, decision.card, decision.dice),
        "grade": grade,
        "grade_name": gettext(GRADE_NAMES[grade]),
        # Best for points, and (in a game of two) as good to win to the tenth shown.
        "was_best": decision.loss < 1e-9 and (lost or 0) < 0.0005,
        "chance_lost": None if lost is None else 100 * lost,
    }
