"""The sweep of overdue turns in a socket server: a player whose page is closed times out while
the others watch. One task per process and event loop, started by the first game page's socket;
every ``settings.TURN_SWEEP_SECONDS`` it plays the turns that ran out (``games.timeouts.sweep``:
one indexed query, each game under its row lock, so processes sweeping at once play a turn once)
and their redraws go out as a move's do. ``manage.py timeouts`` does the same from cron.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from games import timeouts

logger = logging.getLogger(__name__)

_sweeps: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}


def keep_sweeping() -> None:
    """Start this event loop's sweep of overdue turns, unless it is running."""
    loop = asyncio.get_running_loop()
    task = _sweeps.get(loop)
    if task is None or task.done():
        for old in [other for other in _sweeps if other.is_closed()]:
            del _sweeps[old]  # the loops of tests that ended
        _sweeps[loop] = loop.create_task(_sweep_forever(), name="turn-timer-sweep")


async def _sweep_forever() -> None:
    sweeps = [timeouts.sweep, *timeouts.SWEPT_WITH]  # the apps above add theirs (tournaments)
    while True:
        await asyncio.sleep(settings.TURN_SWEEP_SECONDS)
        for sweep in sweeps:
            try:
                await database_sync_to_async(sweep)()
            except Exception:  # the database was away: what is due is stored, try again later
                logger.exception("The sweep %s failed", getattr(sweep, "__qualname__", sweep))
