"""The one place that applies an action to a stored game: lock, check, apply, snapshot, log."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction

from games.flow import Turn, _
from games.models import Action, Game, Seat
from games.rules import NUM_DICE, IllegalMove


class ActionRefused(Exception):
    """An action that cannot be applied; ``status`` is the HTTP status it deserves."""

    status = 400

    def __init__(self, template: str, **params: str) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class NotFound(ActionRefused):
    """There is no such game."""

    status = 404


class NotYourGame(ActionRefused):
    """The visitor has no seat in the game."""

    status = 403


class StaleAction(ActionRefused):
    """The page that sent the action showed an older position than the stored one."""

    status = 409


def roll_dice(count: int) -> list[int]:
    """``count`` dice rolled with the operating system's cryptographic RNG."""
    return [secrets.randbelow(6) + 1 for _ in range(count)]


def start_solo_game(visitor: str, *, multiple_yahtzees: bool = True, name: str = "") -> Game:
    """Create a solo game with one seat for this browser."""
    with transaction.atomic():
        game = Game.objects.create(mode=Game.Mode.SOLO, multiple_yahtzees=multiple_yahtzees)
        Seat.objects.create(game=game, position=0, name=name[:24], visitor=visitor)
    return game


def perform(
    game_id: str,
    visitor: str | None,
    kind: str,
    params: Mapping[str, Any],
    step: int | None,
    *,
    roll: Callable[[int], list[int]] = roll_dice,
) -> Game:
    """Apply one action by ``visitor`` to the game, at most once, and log it.

    ``params`` are what the page asked for: ``{"held": [5 bools]}`` for a roll (the holds the page
    showed), ``{"die": i, "held": bool}`` for a hold, ``{"box": name}`` for a score. ``step`` is the
    game's step the page showed; ``roll`` rolls n dice (tests pass a scripted one). Raises
    ActionRefused or IllegalMove, changing nothing, when the action cannot be applied.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").filter(pk=game_id).first()
        if game is None:
            raise NotFound(_("There is no such game."))
        seat = game.seat_of(visitor)
        if seat is None:
            raise NotYourGame(_("This game is not yours: you can watch it but not play in it."))
        if game.status == Game.Status.FINISHED:
            raise IllegalMove(_("The game is over."))
        if step != game.step:
            raise StaleAction(_("The game had moved on since this page was shown: here it is now."))
        state = game.state()
        payload = _payload(kind, params, state.turn, roll)
        new_state = state.apply(seat.position, kind, payload)
        if kind == "score":
            payload["points"] = new_state.cards[seat.position].score_of(payload["box"])
        seats = game.store(new_state)
        if kind != "hold":
            game.step += 1
        game.log_length += 1
        game.save()
        if kind == "score":
            for changed in seats:
                changed.save(update_fields=["scores", "yahtzee_bonus"])
        Action.objects.create(
            game=game, seq=game.log_length, seat=seat.position, kind=kind, payload=payload
        )
    return game


def _payload(
    kind: str, params: Mapping[str, Any], turn: Turn, roll: Callable[[int], list[int]]
) -> dict[str, Any]:
    """Turn the page's request into a log payload; the server rolls the dice here."""
    if kind == "roll":
        seen = params.get("held")
        if seen is not None and tuple(seen) != turn.held:
            raise StaleAction(_("The held dice changed in another window: here they are now."))
        if not turn.dice:
            return {"dice": roll(NUM_DICE)}
        fresh = iter(roll(turn.held.count(False)))
        return {
            "dice": [d if h else next(fresh) for d, h in zip(turn.dice, turn.held, strict=True)]
        }
    if kind == "hold":
        return {"die": params.get("die"), "held": params.get("held")}
    if kind == "score":
        return {"box": params.get("box")}
    raise IllegalMove(_("Unknown action."))
