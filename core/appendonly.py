"""Tables that are written once: rows can be added and read, never changed or removed (the
action log, the diamond ledger, table talk), with the exception that says so."""

from __future__ import annotations

from django.db import models


class AppendOnly(Exception):
    """Raised on any attempt to change or remove a row of an append-only table."""


class AppendOnlyQuerySet(models.QuerySet):
    """Rows can be added and read, never changed or removed (the action log, the diamond ledger)."""

    def update(self, **kwargs):
        raise AppendOnly(f"{self.model._meta.verbose_name_plural} are append-only")

    def delete(self):
        raise AppendOnly(f"{self.model._meta.verbose_name_plural} are append-only")


class AppendOnlyModel(models.Model):
    """A row that is written once: saving it again or deleting it raises ``AppendOnly``."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnly(f"{self._meta.verbose_name_plural} are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly(f"{self._meta.verbose_name_plural} are append-only")
