"""Make racing transactions take turns on a key, on SQLite and on PostgreSQL alike."""

from __future__ import annotations

from django.db import connection


def serialize_on(*key: object) -> None:
    """Inside a transaction: wait until no other transaction holds the same key, then hold it.

    Row locks (``select_for_update``) cover rows that exist; this covers checks about rows that
    do not exist yet ("is this name taken?", "is there a rematch table?"). On PostgreSQL it is
    a transaction-level advisory lock, released at commit or rollback. SQLite's transactions
    here are IMMEDIATE, so writers already run one at a time and there is nothing to do.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [":".join(map(str, key))])
