"""What happened, announced once it is committed: services say it, the live layer listens.

Data flows one way: a view calls a service, the service changes the game and announces the change
here; ``games.consumers`` (connected in ``GamesConfig.ready``) renders the redraws and pushes
them to the open pages. Nothing below the views imports the live layer.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.dispatch import Signal

# A game's pages should redraw these parts. Arguments: game_id, parts, onlookers (the parts of
# everyone else's pages than the mover's, or without a mover of the pages that cannot play now;
# None: the same), game (as just committed, or None), mover, tab.
game_changed = Signal()
# A message for the open pages of a group (the lobby, a table, a player's pages).
group_message = Signal()
# A game is finishing: sent INSIDE the transaction of the action that finishes it (a last score,
# the last seats left out or an early end), with the game row locked, so that what a receiver
# writes (``lobby.ranked`` rates a ranked match) commits or rolls back with that action, once.
# Arguments: game (its new snapshot stored, not yet committed), state (the finished GameState).
game_finishing = Signal()


def announce_game(
    game_id: str,
    parts: Iterable[str] = ("game",),
    *,
    onlookers: Iterable[str] | None = None,
    game=None,
    mover: str | None = None,
    tab: str | None = None,
) -> None:
    """Once the transaction commits, tell every page open on this game to redraw ``parts``."""
    transaction.on_commit(
        lambda: game_changed.send(
            sender=None,
            game_id=game_id,
            parts=tuple(parts),
            onlookers=None if onlookers is None else tuple(onlookers),
            game=game,
            mover=mover,
            tab=tab,
        )
    )


def announce(group: str, message: dict) -> None:
    """Once the transaction commits, send ``message`` to the open pages of ``group``."""
    transaction.on_commit(lambda: group_message.send(sender=None, group=group, message=message))
