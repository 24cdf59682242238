"""The latest actions of a game's log as the message line needs them, read once and kept.

``Action.objects.recent(game, seat)`` (games.models) is the way in; this module holds the query
and the process-wide cache behind it, beside the models so that the presenters ask a manager
and never write SQL.

Why a cache: every move redraws the message line for every seat of the game, and each redraw
would read the log again. The log only grows, so what was read stays true; a move's redraws
take it up with the move's own actions (``game.just_logged``) instead of reading the log again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, NamedTuple

from django.db import connections, router

if TYPE_CHECKING:  # the models import this module
    from django.db.models import Model

RECENT_KEPT = 40
# The latest actions up to the position the game object shows (a redraw made after a commit may
# meet a later move), from the player's own latest action on: what came before is not news to
# them. Written out because the ORM takes longer to build this query (about 1.5 ms) than the
# database takes to answer it, and it runs for every redraw of a game.
RECENT_ACTIONS = f"""
    SELECT seat, kind, payload FROM {{table}} WHERE game_id = %s AND seq <= %s AND seq >= COALESCE(
        (SELECT MAX(seq) FROM {{table}} WHERE game_id = %s AND seq <= %s AND seat = %s), 0)
    ORDER BY seq DESC LIMIT {RECENT_KEPT}
"""


class LoggedAction(NamedTuple):
    """What the message line needs of a logged action (it takes this or an Action)."""

    seat: int
    kind: str
    payload: dict


# The latest actions read for each (game, seat position; -1 for watchers), with the length of the
# log they were read at, for the games this process redrew last. The log only grows, so they stay
# true: a move's redraws take them up when they end just before the move's own actions (the
# game's earlier moves were applied here), and read anew otherwise: at the first move of a turn
# (the mover's own answer does not keep its entry up to date) or after another process's moves.
# The payloads are shared with the moves' Action objects: nothing may change them.
kept_actions: OrderedDict[tuple[str, int], tuple[int, list[LoggedAction]]] = OrderedDict()
RECENT_GAMES_KEPT = 1024  # (game, seat) entries
_lock = threading.Lock()


def recent_actions(model: type[Model], game, position: int) -> list[LoggedAction]:
    """Up to the 40 latest actions of ``game``, oldest first, from seat ``position``'s latest on.

    ``position`` is -1 for a watcher. What was read is kept (``kept_actions``), and a move's
    redraws take it up with the move's own actions instead of reading again.
    """
    key = (game.pk, position)
    kept = kept_actions.get(key)
    fresh = game.just_logged
    if kept is not None and kept[0] == game.log_length:
        return kept[1]
    if (  # kept from the log as it was just before this game's move
        kept is not None
        and fresh
        and kept[0] == fresh[0].seq - 1
        and fresh[-1].seq == game.log_length
    ):
        actions = [*kept[1], *(LoggedAction(a.seat, a.kind, a.payload) for a in fresh)]
        mine = [i for i, action in enumerate(actions) if action.seat == position]
        actions = actions[mine[-1] if mine else 0 :][-RECENT_KEPT:]
    else:
        actions = read_recent_actions(model, game, position)
    with _lock:  # moves of other games may be redrawn on other threads
        kept = kept_actions.get(key)
        if kept is None or kept[0] < game.log_length:  # a later move's may be there already
            kept_actions[key] = (game.log_length, actions)
            kept_actions.move_to_end(key)
            while len(kept_actions) > RECENT_GAMES_KEPT:
                kept_actions.popitem(last=False)
    return actions


def read_recent_actions(model: type[Model], game, position: int) -> list[LoggedAction]:
    """The same actions read from the database, nothing kept.

    Read with a plain cursor: building model instances (``Action.objects.raw``) took three times
    as long as the query itself.
    """
    sql = RECENT_ACTIONS.format(table=model._meta.db_table)
    params = [game.pk, game.log_length, game.pk, game.log_length, position]
    connection = connections[router.db_for_read(model)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    payload = model._meta.get_field("payload")
    return [
        LoggedAction(seat, kind, payload.from_db_value(data, None, connection))
        for seat, kind, data in reversed(rows)
    ]
