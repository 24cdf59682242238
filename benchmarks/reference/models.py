"""What the reference action touches: a row per benchmark client to lock, a log to append to."""

from __future__ import annotations

from django.db import models


class Counter(models.Model):
    """One row per benchmark client, locked by each of its actions (as a game row is)."""

    slot = models.PositiveIntegerField(primary_key=True)

    def __str__(self) -> str:
        return f"counter {self.slot}"


class Entry(models.Model):
    """One row appended by each reference action (as a move appends to the game's log)."""

    counter = models.ForeignKey(Counter, on_delete=models.CASCADE, related_name="entries")
    payload = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"entry {self.pk} of counter {self.counter_id}"
