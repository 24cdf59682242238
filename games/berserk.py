"""Berserk: a tournament's player gives up, before their first roll, the coach (hints and odds)
and half their turn timer, for one more point for a win (``tournaments`` counts it).

Stored on the seat (``Seat.berserk``): the clock halves that seat's turns (``games.clock``) and
the coach stays off (``games.presenters.coach.coach_allowed``). Decided under the game's row lock,
so a berserk and a first roll racing cannot both land the wrong way round.
"""

from __future__ import annotations

from core.refusals import StaleAction
from engine.rules import IllegalMove
from engine.words import _
from games import clock, services
from games.models import Game
from games.rawsql import update_columns


def has_rolled(game: Game, seat) -> bool:
    """Whether the seat has made its first roll: a turn of its played (a box scored), or its
    first turn's roll under way. Berserk is open only before it."""
    turns_played = any(score is not None for score in seat.scores)
    return turns_played or (game.current_seat == seat.position and game.rolls > 0)


def go_berserk(game_id: str, visitor: str | None) -> Game:
    """The visitor's seat goes berserk (inside the caller's transaction or its own)."""
    from django.db import transaction

    with transaction.atomic():
        game, seat = services._locked_game(game_id, visitor)
        if game.status == Game.Status.FINISHED:
            raise StaleAction(_("The game is over."))
        if seat.berserk:
            raise StaleAction(_("You have gone berserk already."))
        if has_rolled(game, seat):
            raise IllegalMove(_("Berserk is chosen before your first roll."))
        seat.berserk = True
        update_columns(seat, ("berserk",))
        if game.current_seat == seat.position and game.turn_started_at is not None:
            game.turn_deadline = clock.deadline_from(game, game.turn_started_at, seat)
            update_columns(game, ("turn_deadline",))
        services.notify_game(game.id, game=game, mover=visitor)
    return game
