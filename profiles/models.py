"""The browsers signed in to a profile, and the one-time codes that sign in another one."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.db import models
from django.utils import timezone

from lobby.models import CODE_ALPHABET, Player

# A code is read off one screen and typed on another, or its QR code scanned: ten minutes is
# long enough for that and short enough that a code left on a screen soon does nothing.
CODE_LIFETIME = timedelta(minutes=10)
# 31 ** 10 (about 2 ** 50) codes: with the rate limits (lobby.access.RATE_LIMITS) and the
# lifetime, guessing a live one is out of reach.
CODE_LENGTH = 10


def code_digest(code: str) -> str:
    """What is stored of a code: its SHA-256, so that a copy of the database signs nobody in."""
    return hashlib.sha256(code.encode()).hexdigest()


def normalized(typed: str) -> str:
    """A code as typed (any case, spaces or dashes between its groups) in its stored form."""
    return "".join(ch for ch in typed.upper()[:40] if ch in CODE_ALPHABET)


class DeviceCodeQuerySet(models.QuerySet):
    """Queries on device codes."""

    def usable(self) -> DeviceCodeQuerySet:
        """Codes neither used nor expired."""
        return self.filter(used_at=None, expires_at__gt=timezone.now())


class DeviceCode(models.Model):
    """A one-time code that signs another browser in to ``player``; only its digest is kept."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="device_codes")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    objects = DeviceCodeQuerySet.as_manager()

    def __str__(self) -> str:
        return f"code for {self.player} until {self.expires_at:%H:%M}"


class Browser(models.Model):
    """A browser signed in to a profile: its session, so that it can be signed out from another."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="browsers")
    session_key = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=64, blank=True)  # "Firefox on Android", from its User-Agent
    signed_in_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-signed_in_at", "-id"]

    def __str__(self) -> str:
        return f"{self.label or 'a browser'} of {self.player}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: the two keep apart both ways (``profiles.blocking``)."""

    blocker = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="blocks_received")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_oneself"
            ),
        ]
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.blocker} blocked {self.blocked}"


class Favourite(models.Model):
    """``player`` made ``of`` a favourite: first in their lobby's list, with when last seen."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="favourites")
    of = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="favoured_by")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "of"], name="favourite_once"),
            models.CheckConstraint(
                condition=~models.Q(player=models.F("of")), name="favourite_not_oneself"
            ),
        ]
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.player} favours {self.of}"
