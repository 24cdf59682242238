"""What is said at an online game or a private table, and each reader's chat settings."""

from __future__ import annotations

from django.db import models

from core.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from games.models import Game
from lobby.models import Table


class MessageQuerySet(AppendOnlyQuerySet):
    """Messages can be added and read, never changed or removed (as the action log)."""

    def of_place(self, game_id: str | None = None, table_id: int | None = None) -> MessageQuerySet:
        """The messages of one game or one table."""
        if game_id is not None:
            return self.filter(game_id=game_id)
        return self.filter(table_id=table_id)


class Message(AppendOnlyModel):
    """One line of chat: a quick phrase (by key, read in each reader's language) or free text."""

    class Kind(models.TextChoices):
        PHRASE = "phrase", "Phrase"
        TEXT = "text", "Text"

    # Said at a game (kept with it, as its log is) or at a table before its game starts (an
    # expired table takes its talk with it).
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="chat"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="chat"
    )
    sender = models.CharField(max_length=64, db_index=True)  # the sender's visitor id
    name = models.CharField(max_length=24)  # the sender's name when it was said
    kind = models.CharField(max_length=8, choices=Kind.choices)
    phrase = models.CharField(max_length=16, blank=True)
    text = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = MessageQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(game__isnull=False, table__isnull=True)
                | models.Q(game__isnull=True, table__isnull=False),
                name="chat_at_a_game_or_a_table",
            )
        ]
        indexes = [models.Index(fields=["sender", "created_at"], name="chat_of_a_sender")]

    def __str__(self) -> str:
        return f"{self.name}: {self.phrase or self.text}"


class ChatSetting(models.Model):
    """One visitor's chat: off or on, and whom they muted (their messages hidden everywhere)."""

    visitor = models.CharField(max_length=64, unique=True)
    off = models.BooleanField(default=False)
    muted = models.JSONField(default=list)  # visitor ids

    def __str__(self) -> str:
        return f"{self.visitor}: {'off' if self.off else 'on'}, {len(self.muted)} muted"
