"""Which pages are open: one row per open page's socket, from which presence is derived
(``games.presence``); the model is registered through ``games.models``."""

from __future__ import annotations

from datetime import datetime

from django.db import models


class OpenPageQuerySet(models.QuerySet):
    """Queries on open pages' rows."""

    def fresh(self, now: datetime) -> OpenPageQuerySet:
        """The rows of pages open at ``now`` (their heartbeat renewed them in time)."""
        return self.filter(until__gt=now)

    def lapsed(self, now: datetime) -> OpenPageQuerySet:
        """The rows whose heartbeat stopped (their server died)."""
        return self.filter(until__lte=now)

    def renew(self, channel: str, process: str, visitor: str, game_id: str | None, until) -> None:
        """Count this page as open until then (again, after a heartbeat, even if forgotten)."""
        if not self.filter(channel=channel).update(until=until):
            self.create(
                channel=channel, process=process, visitor=visitor, game_id=game_id, until=until
            )


class OpenPage(models.Model):
    """One open page's socket (a game page, or a lobby or table page when ``game`` is empty).

    Presence is derived from these rows: a visitor is here while a page of theirs has a fresh
    ``until`` (its socket's heartbeat renews it). A server that crashed leaves its rows behind;
    the same server forgets them when it starts again, and they lapse without their heartbeat
    (``games.presence``).
    """

    channel = models.CharField(max_length=128, unique=True)  # the consumer's channel name
    process = models.CharField(max_length=128, db_index=True)  # the socket server holding it
    visitor = models.CharField(max_length=64, db_index=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE)
    until = models.DateTimeField()

    objects = OpenPageQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["game", "until"], name="open_pages_by_game")]

    def __str__(self) -> str:
        return f"page of {self.visitor} on {self.game_id or 'the lobby'}"
