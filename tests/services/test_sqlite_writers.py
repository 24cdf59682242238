"""The SQLite backend: a process's writing transactions queue on a lock instead of SQLite's
busy handler (which sleeps 1, 2, 5, 10... ms between tries), and always give the lock back."""

from __future__ import annotations

import os
import threading

import pytest
from django.db import IntegrityError, OperationalError, connections

from backends.sqlite.base import DatabaseWrapper, _checkpointers, writer_lock


@pytest.fixture(autouse=True)
def _own_files(django_db_blocker):
    """These connections open their own database files, not the test database."""
    with django_db_blocker.unblock():
        yield


def wrapper(path, timeout: float = 20) -> DatabaseWrapper:
    """A connection of the project's SQLite backend to its own database file."""
    settings = dict(connections["default"].settings_dict)
    options = {"transaction_mode": "IMMEDIATE", "timeout": timeout}
    connection = DatabaseWrapper(settings | {"NAME": str(path), "OPTIONS": options}, alias="w")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS moves (n INTEGER)")
    return connection


def begin(connection: DatabaseWrapper) -> None:
    """Open a writing transaction as ``transaction.atomic`` does on SQLite."""
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


def end(connection: DatabaseWrapper, *, commit: bool = True) -> None:
    connection.commit() if commit else connection.rollback()
    connection.set_autocommit(True)


def count(connection: DatabaseWrapper) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM moves")
        return cursor.fetchone()[0]


def test_a_second_writer_waits_for_the_first_then_goes_on_at_once(tmp_path):
    first, path = wrapper(tmp_path / "db.sqlite3"), tmp_path / "db.sqlite3"
    begin(first)
    with first.cursor() as cursor:
        cursor.execute("INSERT INTO moves VALUES (1)")
    began, seen = threading.Event(), []

    def second_writer() -> None:
        second = wrapper(path)
        begin(second)  # waits here while the first holds the lock
        began.set()
        seen.append(count(second))
        end(second)
        second.close()

    thread = threading.Thread(target=second_writer)
    thread.start()
    assert not began.wait(0.3), "the second writer began while the first was writing"
    assert writer_lock(str(path)).locked()
    end(first)
    thread.join(10)
    assert began.is_set() and seen == [1]  # it saw the first one's committed row
    assert not writer_lock(str(path)).locked()
    first.close()


@pytest.mark.parametrize("how", ["rollback", "close"])
def test_the_lock_is_given_back_however_the_transaction_ends(tmp_path, how):
    connection = wrapper(tmp_path / "db.sqlite3")
    begin(connection)
    assert connection.holds_writer_lock
    if how == "rollback":
        end(connection, commit=False)
    else:
        connection.close()  # a connection dropped mid-transaction (a mover thread's, on failure)
    assert not connection.holds_writer_lock
    assert not writer_lock(str(tmp_path / "db.sqlite3")).locked()
    connection.close()


def test_a_writer_that_waits_too_long_is_told_the_database_is_locked(tmp_path):
    path = tmp_path / "db.sqlite3"
    first = wrapper(path)
    begin(first)
    failures = []

    def impatient() -> None:
        second = wrapper(path, timeout=0.1)
        try:
            begin(second)
        except OperationalError as error:
            failures.append(str(error))
        assert not second.holds_writer_lock
        second.close()

    thread = threading.Thread(target=impatient)
    thread.start()
    thread.join(10)
    assert failures and "database is locked" in failures[0]
    end(first)
    assert not writer_lock(str(path)).locked()
    first.close()


def test_the_site_uses_it_for_sqlite():
    connection = connections["default"]
    if connection.vendor != "sqlite":
        pytest.skip("the suite runs on PostgreSQL here (DATABASE_URL)")
    assert isinstance(connection, DatabaseWrapper)


def test_a_commit_that_fails_keeps_the_lock_until_the_rollback(tmp_path):
    connection = wrapper(tmp_path / "db.sqlite3")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("CREATE TABLE parents (id INTEGER PRIMARY KEY)")
        cursor.execute(
            "CREATE TABLE children (parent INTEGER REFERENCES parents(id)"
            " DEFERRABLE INITIALLY DEFERRED)"
        )
    begin(connection)
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO children VALUES (42)")  # checked at COMMIT, which fails
    with pytest.raises(IntegrityError):
        connection.commit()
    assert connection.connection.in_transaction  # SQLite kept the transaction open...
    assert connection.holds_writer_lock  # ...so the turn is not over yet
    end(connection, commit=False)
    assert not writer_lock(str(tmp_path / "db.sqlite3")).locked()
    connection.close()


def test_transactions_that_may_only_read_take_no_turn(tmp_path):
    settings = dict(connections["default"].settings_dict)
    options = {"transaction_mode": "DEFERRED", "timeout": 20}
    path = str(tmp_path / "db.sqlite3")
    connection = DatabaseWrapper(settings | {"NAME": path, "OPTIONS": options}, alias="w")
    begin(connection)
    assert not connection.holds_writer_lock and not writer_lock(path).locked()
    end(connection)
    connection.close()


def test_a_file_in_wal_mode_is_checkpointed_by_a_thread_of_the_process(tmp_path):
    """Commits do not copy the log back themselves (20-60 ms with the loop waiting): the
    process's checkpointer does, soon after."""
    connection = wrapper(tmp_path / "db.sqlite3")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode=WAL")
    connection.close()  # the next connection finds the file in WAL mode
    for n in range(20):
        begin(connection)
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO moves VALUES (%s)", [n])
        end(connection)
    found = _checkpointers[(os.getpid(), str(tmp_path / "db.sqlite3"))]  # opening it started it
    # The second checkpoint from now began after the last commit.
    assert found.wait(timeout=5) and found.wait(timeout=5)
    busy, log_pages, copied = found.last
    assert busy == 0 and log_pages > 0 and copied == log_pages  # the log copied back: nothing left
    assert count(connection) == 20
    connection.close()


def test_no_checkpointer_for_a_database_not_in_wal_mode(tmp_path):
    before = set(_checkpointers)
    rollback_journal = wrapper(tmp_path / "plain.sqlite3")
    assert set(_checkpointers) == before
    rollback_journal.close()
