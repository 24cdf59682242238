"""Where moves sent over sockets are applied, by ``settings.MOVE_THREADS``: their database work
on threads kept for the life of the process (``on_mover_thread``, the default), or everything on
the event loop's own thread (``run_here``, ``MOVE_THREADS=0``). Either way the redraws and the
answer are rendered and sent on the loop (``games.live.moves.answer_move``).

On the loop's thread, every other socket of the process waits while a move waits for the
database: its round trips, its game's row lock, another SQLite writer. At twice the usual load
(128 players in 64 games) the stack then served 109-121 of the 128 moves/s asked with the
socket processes using under a core (issue #15). As Channels documents it
(``database_sync_to_async``), the database work goes to a few threads instead, and one game's
wait never holds up another game's sockets (tests/live/test_consumers.py checks it); a move's
rendering stays on the loop, where it would hold the GIL anyway, so a move hands over to another
thread and back once.
"""

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

# ``MOVE_THREADS=0``: on the loop's thread. A move is a few reads and writes with the GIL held for
# most of its time; at low load a whole move on a thread of its own only added hand-overs of the
# work and of the GIL (a roll on the other screen, p50: SQLite 3.6-4.2 ms on the loop against
# 4.8-5.1 on a thread, the stack 8.7-9.2 against 10.2-10.9; docs/benchmarks.md).
MOVES_ON_LOOP = not settings.MOVE_THREADS
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


def run_here[T](
    func: Callable[..., T], *args, **kwargs
) -> tuple[T, list[Iterator[tuple[str, dict]]]]:
    """Run synchronous database code on this event loop's thread; also return what it sent.

    Django refuses to use the database from a thread running an event loop, as every other task
    of the loop waits meanwhile. For a move's rendering (and its whole work, ``MOVES_ON_LOOP``)
    that is wanted: it would hold the GIL anyway, and on a thread it took two hand-overs more
    (the figures above). So the loop is hidden from the guard for the call: the private
    ``asyncio._set_running_loop``, exported for event loop implementations (asyncio has no
    public way); tests/live/test_consumers.py fails if it stops hiding the loop or stops restoring
    it.
    The call must not wait on the loop, so what it would send
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


def keeping_sends[T](
    func: Callable[..., T], *args, **kwargs
) -> tuple[T, list[Iterator[tuple[str, dict]]]]:
    """Run synchronous database code on this thread (a mover thread), keeping what it would
    send instead, as ``run_here`` does: the redraws are rendered and sent on the loop."""
    sends: list[Iterator[tuple[str, dict]]] = []
    kept.sends = sends
    try:
        return func(*args, **kwargs), sends
    finally:
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
    """Run a function on a mover thread (unless ``MOVES_ON_LOOP``), which keeps its database
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
