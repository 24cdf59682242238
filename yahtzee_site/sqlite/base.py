"""SQLite whose writing transactions take turns in this process on a lock, not by polling.

SQLite has one writer at a time. A transaction that finds the write lock taken is made to wait
by SQLite's busy handler, which sleeps and retries: 1, 2, 5, 10, 15, 20, 25 ms and on. With a
few threads of one server process writing at once (the mover threads, the request thread),
those sleeps piled up into tails of 100-200 ms under load. Here the threads of a process queue
on a lock that hands over the moment the writer commits; the busy timeout still covers other
processes (a management command, a second server on the same file).
"""

from __future__ import annotations

import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

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
