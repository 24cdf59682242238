"""Where moves sent over sockets are applied and answered, by ``settings.MOVE_THREADS``: on
threads kept for the life of the process (``off_loop``, the default), or with ``MOVE_THREADS=0``
on the one thread that runs the process's other synchronous work (asgiref's thread-sensitive
thread, which Channels' ``database_sync_to_async`` uses). Never on the event loop's own thread:
Django refuses the database there, and its documented way is to run such code through
``sync_to_async`` on a thread (docs: "Asynchronous support", async safety); the event loop only
sends what the threads render (``games.live.moves.answer_move``).

On the loop's thread, every other socket of the process waits while a move waits for the
database: its round trips, its game's row lock, another SQLite writer. At twice the usual load
(128 players in 64 games) the stack then served 109-121 of the 128 moves/s asked with the
socket processes using under a core (issue #15). So the database work goes to a few threads,
and one game's wait never holds up another game's sockets (tests/live/test_consumers.py checks it).
Until issue 30 a move's rendering ran on the loop, hidden from Django's guard by a private
asyncio call; what rendering it on the move's thread costs: docs/benchmarks.md (issue 30).
"""

from __future__ import annotations

import asyncio
import functools
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections

from games.live.sending import kept

# ``MOVE_THREADS=0``: moves on the process's one thread for synchronous work, as every other
# ``database_sync_to_async`` call of its consumers: a move waits behind their work and they
# behind it, but nothing is handed between threads of its own.
MOVES_SHARE_THREAD = not settings.MOVE_THREADS
# Otherwise the database work of moves runs on this many threads; moves of one game queue on its
# row lock, moves of other games go on.
MOVE_THREADS = max(1, settings.MOVE_THREADS)
_movers = ThreadPoolExecutor(MOVE_THREADS, thread_name_prefix="game-moves")


def drop_unusable_connections() -> None:
    """Close this thread's database connections that failed or were left in a transaction, for
    the next move to open anew; keep the others (opening SQLite costs more than a move)."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and (
            connection.errors_occurred or not connection.get_autocommit()
        ):
            connection.close()


def keeping_sends[T](
    func: Callable[..., T], *args, **kwargs
) -> tuple[T, list[Iterator[tuple[str, dict]]]]:
    """Run synchronous database code on this thread (a move's), keeping what it would send
    through the channel layer instead, for the event loop to send: a move's redraws go out one
    by one, each rendered when the one before it has gone (``games.live.moves``)."""
    sends: list[Iterator[tuple[str, dict]]] = []
    kept.sends = sends
    try:
        return func(*args, **kwargs), sends
    finally:
        kept.sends = None


def off_loop[T](func: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """``func`` made awaitable, run where moves run (see above) with asgiref's ``sync_to_async``.

    Unlike ``database_sync_to_async`` this does not close the thread's database connection after
    each call, which keeps it between moves (one of the process's pool on PostgreSQL); it drops
    one that failed or was left in a transaction, for the next move to open anew.
    """

    @functools.wraps(func)
    def keeping_connection_usable(*args, **kwargs) -> T:
        try:
            return func(*args, **kwargs)
        finally:
            drop_unusable_connections()

    if MOVES_SHARE_THREAD:
        return sync_to_async(keeping_connection_usable, thread_sensitive=True)
    return sync_to_async(keeping_connection_usable, thread_sensitive=False, executor=_movers)


_moving: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock]
_moving = weakref.WeakKeyDictionary()


def moving(loop: asyncio.AbstractEventLoop) -> asyncio.Lock:
    """The turn that moves of this loop's sockets take while their redraws and answer are
    rendered and sent (with ``MOVES_SHARE_THREAD``, from the move itself).

    While a move's redraws go out, the loop's other tasks run for a few turns; without this,
    another page's move could be rendered in them, and the answer would wait for its whole work
    (at 64 players the p99 of scores doubled).
    """
    lock = _moving.get(loop)
    if lock is None:
        lock = _moving[loop] = asyncio.Lock()
    return lock


def release_mover_connections() -> None:
    """Close the mover threads' database connections (tests, before dropping their database)."""
    everyone = threading.Barrier(MOVE_THREADS)

    def release() -> None:
        everyone.wait(timeout=10)  # so that each of the threads takes one of these
        connections.close_all()

    for done in [_movers.submit(release) for _ in range(MOVE_THREADS)]:
        done.result()
