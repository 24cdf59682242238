"""Playing turns that ran out: lazily when a game is read or acted on, and in a sweep.

Idempotent: each game is locked and its deadline checked again inside the lock, so a page view,
a socket, the live layer's sweep and ``manage.py timeouts`` may all try the same game at once and
the turn is played once. Nothing is kept in memory: the deadline is the database's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from games import clock
from games.models import Game
from games.services import Roll, play_timed_out_turn

logger = logging.getLogger(__name__)

# What else each socket server's sweep runs after the overdue turns (``games.live.turns``): the
# apps above fill it in their ``AppConfig.ready`` (tournaments move on: ``tournaments.clock``).
SWEPT_WITH: list[Callable[[], object]] = []


def enforce(game_id: str, roll: Roll | None = None) -> bool:
    """Play the game's turn if it has run out (checked again under its row lock): True if so."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if game is None or not clock.overdue(game):
            return False
        play_timed_out_turn(game, roll)
    return True


def enforce_if_due(game_id: str) -> bool:
    """``enforce``, after a look without a lock (a page opening on a game whose turn is running)."""
    if not Game.objects.overdue(timezone.now()).filter(pk=game_id).exists():
        return False
    return enforce(game_id)


def sweep() -> int:
    """Play every overdue turn there is now (one indexed query finds them); how many were.

    A game that fails is logged and left for the next sweep: it must not hold up the others.
    """
    played = 0
    for game_id in list(Game.objects.overdue(timezone.now()).values_list("id", flat=True)):
        try:
            played += enforce(game_id)
        except Exception:
            logger.exception("Could not play the overdue turn of game %s", game_id)
    return played
