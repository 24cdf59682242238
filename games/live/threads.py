"""Where moves sent over sockets are applied: on the event loop's own thread (``run_here``), or
on threads kept for the life of the process (``on_mover_thread``), by ``settings.MOVE_THREADS``."""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

from games.live.sending import kept

# Where moves sent over sockets are applied (``settings.MOVE_THREADS``). By default on the event
# loop's own thread (``run_here``). A move is a few reads and writes with the GIL held for most
# of its time, so a thread of its own only added hand-overs of the work and of the GIL: on SQLite
# a roll on the other screen went from p50 4.8-5.1 to 3.6-4.2 ms; on the stack (PostgreSQL on
# the same machine) from 10.2-10.9 to 8.7-9.2 ms, and the 64-player p50 from 18-24 to 13-14 ms
# (docs/benchmarks.md). The loop waits meanwhile, also when the database does (another writer,
# a WAL checkpoint, a round trip).
MOVES_ON_LOOP = not settings.MOVE_THREADS
# Otherwise on threads kept for the life of the process: one page's move need not wait for
# another game's database round trips (moves of one game queue on its row lock).
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


def run_here[T](
    func: Callable[..., T], *args, **kwargs
) -> tuple[T, list[Iterator[tuple[str, dict]]]]:
    """Run synchronous database code on this event loop's thread; also return what it sent.

    Django refuses to use the database from a thread running an event loop, as every other task
    of the loop waits meanwhile. For a move that is wanted (``MOVES_ON_LOOP``), so the
    loop is hidden from the guard for the call (``asyncio._set_running_loop`` is exported for
    event loop implementations). The call must not wait on the loop, so what it would send
    through the channel layer is kept instead and returned, for the caller to await: every send
    of a move goes through ``broadcast`` or ``game_changed``, which keep it. (An ``async_to_sync``
    in the call would not find this loop, and would run its coroutine on a new one.)
    """
    loop = asyncio.get_running_loop()
    sends: list[Iterator[tuple[str, dict]]] = []
    kept.sends = sends
    asyncio._set_running_loop(None)
    try:
        return func(*args, **kwargs), sends
    finally:
        try:
            # Before the loop is back: Django keeps other connections for code on a loop.
            drop_unusable_connections()
        finally:
            asyncio._set_running_loop(loop)
            kept.sends = None


_moving: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock]
_moving = weakref.WeakKeyDictionary()


def moving(loop: asyncio.AbstractEventLoop) -> asyncio.Lock:
    """The turn that moves on this loop's thread take, from the move to its answer.

    While a move's redraws go out, the loop's other tasks run for a few turns; without this,
    another page's move could start in them, and the answer would wait for its whole work (at
    64 players the p99 of scores doubled).
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


class on_mover_thread(SyncToAsync):  # noqa: N801 (used like sync_to_async)
    """Run a function on a mover thread (when not ``MOVES_ON_LOOP``), which keeps its database
    connection between moves: one of the process's pool on PostgreSQL. Unlike
    ``database_sync_to_async`` this does not close the connection after each call; it drops one
    that failed or was left in a transaction, for the next move to open anew.
    """

    def __init__(self, func) -> None:
        super().__init__(func, thread_sensitive=False, executor=_movers)

    def thread_handler(self, loop, *args, **kwargs):
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            drop_unusable_connections()
