"""SQLite whose writing transactions take turns in this process on a lock, not by polling, and
whose write-ahead log is copied back into the database by a thread of its own.

SQLite has one writer at a time. A transaction that finds the write lock taken is made to wait
by SQLite's busy handler, which sleeps and retries: 1, 2, 5, 10, 15, 20, 25 ms and on. With a
few threads of one server process writing at once (the mover threads, the request thread),
those sleeps piled up into tails of 100-200 ms under load. Here the threads of a process queue
on a lock that hands over the moment the writer commits; the busy timeout still covers other
processes (a management command, a second server on the same file).

In WAL mode a commit appends to the log, and the commit that takes the log past 1,000 pages
copies them into the database file and flushes it to disk (a checkpoint) before it returns: on
this project's machines 20-60 ms, with every socket of the server's event loop waiting. So each
process that opens a database file also checkpoints it every ``CHECKPOINT_SECONDS`` on a thread
of its own (``Checkpointer``), without waiting for readers or writers (PASSIVE). The log is then
rewound from its start most of the time and seldom reaches the 1,000 pages; when it does, the
commit's own checkpoint finds little left to copy.

Why both stay (measured 2026-12-01 on the shared 2-core machine, load 4-10, alternating runs):
``benchmarks/bench_sqlite_writers.py`` (5 threads writing move-shaped transactions at once): p95
2.1-2.3 ms with the lock against 7.9-9.0 ms with SQLite's busy handler, 25-26 transactions over
20 ms against 37-49 of 3,000. ``benchmarks/bench_sqlite_commits.py --rounds 4`` (one writer):
p99.9 of a commit 8-14 ms with the checkpointer thread against 21-26 ms without it in the three
pairs run below load 9 (6-7 against 16-19 ms on a quiet machine, docs/benchmarks.md). The lock
overrides private methods of Django's SQLite backend (``_start_transaction_under_autocommit``,
``_commit``, ``_rollback``, ``_close``): tests/services/test_sqlite_writers.py checks that writers
take turns on it and that every way a transaction ends gives it back.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time

from django.db import OperationalError
from django.db.backends.sqlite3 import base

logger = logging.getLogger(__name__)

CHECKPOINT_SECONDS = 0.5


class Checkpointer:
    """Checkpoints one database file every ``CHECKPOINT_SECONDS`` on a daemon thread."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.done = 0  # checkpoints run so far
        self.last: tuple[int, int, int] | None = None  # (busy, log pages, pages copied)
        self._ran = threading.Event()  # set after each checkpoint: see ``wait``
        thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        thread.start()

    def _run(self) -> None:
        connection = None
        failing = False  # logged once until a checkpoint works again
        while True:
            time.sleep(CHECKPOINT_SECONDS * (10 if failing else 1))
            try:
                if connection is None:
                    connection = sqlite3.connect(
                        self.path, isolation_level=None, check_same_thread=False,
                        uri=self.path.startswith("file:"),
                    )  # fmt: skip
                row = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            except sqlite3.Error:
                if not failing:
                    logger.exception("Could not checkpoint %s (will keep trying)", self.path)
                failing = True
                if connection is not None:
                    connection.close()
                    connection = None
                continue
            failing = False
            self.last, self.done = tuple(row), self.done + 1
            self._ran.set()

    def wait(self, timeout: float) -> bool:
        """Wait for the next checkpoint (tests); False if none ran within ``timeout``."""
        self._ran.clear()
        return self._ran.wait(timeout)


_checkpointers: dict[tuple[int, str], Checkpointer] = {}
_checkpointers_lock = threading.Lock()


def checkpointer(path: str) -> Checkpointer:
    """This process's checkpointer of the database file ``path``, started on first use."""
    key = (os.getpid(), path)  # a forked process starts its own
    with _checkpointers_lock:
        if key not in _checkpointers:
            _checkpointers[key] = Checkpointer(path)
        return _checkpointers[key]


# Transactions that take SQLite's write lock when they begin (the site's is IMMEDIATE).
WRITING_MODES = ("IMMEDIATE", "EXCLUSIVE")
_writers: dict[str, threading.Lock] = {}
_writers_lock = threading.Lock()


def writer_lock(name: str) -> threading.Lock:
    """The lock that this process's writers to the database file ``name`` take turns on."""
    with _writers_lock:
        return _writers.setdefault(name, threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    holds_writer_lock = False

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        if not self.is_in_memory_db():
            (mode,) = connection.execute("PRAGMA journal_mode").fetchone()
            if mode == "wal":
                checkpointer(str(self.settings_dict["NAME"]))
        return connection

    def _writer_lock(self) -> threading.Lock:
        return writer_lock(str(self.settings_dict["NAME"]))

    def _start_transaction_under_autocommit(self):
        if self.transaction_mode not in WRITING_MODES:
            return super()._start_transaction_under_autocommit()  # may only read: no turn taken
        timeout = self.settings_dict["OPTIONS"].get("timeout", 5)
        if not self._writer_lock().acquire(timeout=timeout):
            raise OperationalError("database is locked (another thread kept writing)")
        self.holds_writer_lock = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writer_lock()
            raise

    def _release_writer_lock(self) -> None:
        if self.holds_writer_lock:
            self.holds_writer_lock = False
            self._writer_lock().release()

    def _commit(self):
        try:
            return super()._commit()
        finally:
            # A COMMIT that failed leaves the transaction open: the rollback that follows (or
            # closing the connection) gives the lock back.
            if self.connection is None or not self.connection.in_transaction:
                self._release_writer_lock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._release_writer_lock()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._release_writer_lock()
