"""The daily challenge: one solo game a day on the same dice for everyone (``daily.services``)."""

from __future__ import annotations

from django.db import models

from games.models import Game
from lobby.models import PlaysVariant


class Challenge(PlaysVariant):
    """One day's challenge: its secret seed, everyone's dice that day (``engine.dice``), and its
    game (``rules``, ``daily.services.game_of_the_day``).

    Both are fixed the first time someone opens the day's challenge, so the day's boards never
    change their rules; the seed is shown once the day (UTC) is over, on each attempt's dice check.
    """

    day = models.DateField(unique=True)
    seed = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"daily challenge of {self.day}"


class Attempt(models.Model):
    """A browser's (a profile's) one attempt at a day's challenge: its game."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="attempts")
    visitor = models.CharField(max_length=64)
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="daily_attempt")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["challenge", "visitor"], name="one_attempt_a_day")
        ]
        indexes = [models.Index(fields=["visitor", "challenge"], name="attempts_of_a_visitor")]

    def __str__(self) -> str:
        return f"{self.visitor}'s attempt at {self.challenge}"
