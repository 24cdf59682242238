"""SQL written out for the hot path, built once per process: the two writes of every move
(``update_columns``, ``insert_rows``) and the columns the read of a locked game selects
(``Columns``, for ``Game.objects.locked``)."""

from __future__ import annotations

import functools
from typing import NamedTuple

from django.db import connection, connections, models

# The two writes of every move, with their SQL built once per process: Django builds it anew for
# each save, which takes longer than the database takes to run it. The values go through each
# field's own conversion (``pre_save`` for auto_now, ``get_db_prep_save`` for JSON and dates),
# exactly as a save would send them.


@functools.cache
def _update_sql(model: type[models.Model], names: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(model._meta.get_field(name).column)} = %s" for name in names)
    key = quote(model._meta.pk.column)
    return f"UPDATE {quote(model._meta.db_table)} SET {columns} WHERE {key} = %s"


@functools.cache
def _insert_sql(model: type[models.Model]) -> tuple[str, list[models.Field]]:
    quote = connection.ops.quote_name
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(quote(f.column) for f in fields)
    values = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({values})", fields


def update_columns(instance: models.Model, names: tuple[str, ...]) -> None:
    """Write these fields of a saved row, as ``save(update_fields=names)`` does."""
    fields = [instance._meta.get_field(name) for name in names]
    params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(type(instance), names), [*params, instance.pk])


def insert_rows(instances: list[models.Model]) -> None:
    """Insert new rows of one model, as ``bulk_create`` does (their ids are not read back)."""
    if not instances:
        return
    sql, fields = _insert_sql(type(instances[0]))
    rows = [
        [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields] for obj in instances
    ]
    with connection.cursor() as cursor:
        if len(rows) == 1:  # a person's move: psycopg's executemany sets up a pipeline for it
            cursor.execute(sql, rows[0])
        else:
            cursor.executemany(sql, rows)


class Columns(NamedTuple):
    """A model's columns as SELECT lists them, and how the ORM turns their values into fields."""

    model: type[models.Model]
    sql: str  # "table"."column", ... for every concrete field
    table: str  # the quoted table name
    names: tuple[str, ...]  # the fields' attribute names, in the same order
    converters: list  # (index, column, functions) for each column that has converters

    @staticmethod
    @functools.cache
    def of(model: type[models.Model], alias: str) -> Columns:
        """The columns of a model as read on this connection (worked out once per process)."""
        database = connections[alias]
        quote = database.ops.quote_name
        table = quote(model._meta.db_table)
        fields = model._meta.concrete_fields
        converters = []
        for index, field in enumerate(fields):
            column = field.get_col(model._meta.db_table)
            found = database.ops.get_db_converters(column) + field.get_db_converters(database)
            if found:
                converters.append((index, column, found))
        sql = ", ".join(f"{table}.{quote(f.column)}" for f in fields)
        return Columns(model, sql, table, tuple(f.attname for f in fields), converters)

    def instance(self, row, database):
        """The model instance of a row read from these columns, as the ORM builds it."""
        values = list(row)
        for index, column, functions in self.converters:
            value = values[index]
            for convert in functions:
                value = convert(value, column, database)
            values[index] = value
        return self.model.from_db(database.alias, self.names, values)
