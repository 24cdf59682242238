"""What happened, announced once it is committed: services say it, the live layer listens.

Data flows one way: a view calls a service, the service changes the game and announces what
happened here (a ``Change``); the live layer (connected in ``GamesConfig.ready``) asks the pages
(``games.presenters.parts``) what that redraws, renders it and pushes it to the open pages.
Nothing below the views imports the live layer, and nothing here names a part of a page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.dispatch import Signal


@dataclass(frozen=True)
class Change:
    """What happened to a game, as its open pages need to know it (by default: anything may have).

    ``action``: the mover's action ("roll", "hold", "score"), ``box`` the box it scored;
    ``followed``: other seats (the computer) played after it; ``finished``: the game is over;
    ``returned``: the mover's seat had been away and is back; ``rematch``: only the rematch
    offer changed, not the log.
    """

    action: str = ""
    box: str = ""
    followed: bool = False
    finished: bool = False
    returned: bool = False
    rematch: bool = False


ANYTHING = Change()  # anything may have changed: every page redraws the whole game


# A game changed. Arguments: game_id, change (a Change), game (as just committed, or None),
# mover, tab.
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
    change: Change = ANYTHING,
    *,
    game=None,
    mover: str | None = None,
    tab: str | None = None,
) -> None:
    """Once the transaction commits, tell every page open on this game what changed."""
    transaction.on_commit(
        lambda: game_changed.send(
            sender=None,
            game_id=game_id,
            change=change,
            game=game,
            mover=mover,
            tab=tab,
        )
    )


def announce(group: str, message: dict) -> None:
    """Once the transaction commits, send ``message`` to the open pages of ``group``."""
    transaction.on_commit(lambda: group_message.send(sender=None, group=group, message=message))
