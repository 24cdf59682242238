"""What happened to a tournament, announced once it is committed (as ``games.events`` does for
a game): the services and the clock say it, the live layer listens and pushes the redraws.

``tournament_changed`` is sent with ``tournament_id`` after the transaction that changed the
tournament commits (who entered, a pairing, a game's result, a round, the end); never inside
it, so a page redrawn on it reads what was committed. Nothing here names a part of a page.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

# A tournament changed. Arguments: tournament_id.
tournament_changed = Signal()


def announce_tournament(tournament_id: str) -> None:
    """Once the transaction commits, tell the tournament's open pages that it changed."""
    transaction.on_commit(lambda: tournament_changed.send(sender=None, tournament_id=tournament_id))


def tournament_group(tournament_id: str) -> str:
    """The channel layer group of a tournament's open pages."""
    return f"tournament-{tournament_id}"
