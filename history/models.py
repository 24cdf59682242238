"""What each finished game came to, per seat: the cache behind My games, the stats and the boards.

A ``Summary`` is worked out from the game's action log (``history.summaries``), never kept by hand:
written in the transaction of the action that finishes the game, its decisions valued by the
perfect player when a page first shows it, and worked out again from the log whenever it is
missing (games from before summaries). A finished game never changes, so a summary of it stays
exact.
"""

from __future__ import annotations

from django.db import models

from games.models import Game, Seat


class SummaryQuerySet(models.QuerySet):
    """Queries on summaries."""

    def of_visitor(self, visitor: str) -> SummaryQuerySet:
        """The summaries of this browser's (or profile's) seats, newest game first."""
        if not visitor:  # computer seats have no visitor: "" must not match them
            return self.none()
        return self.filter(visitor=visitor).order_by("-finished_at", "-id")

    def analysed(self) -> SummaryQuerySet:
        """Those whose decisions were valued by the perfect player."""
        return self.filter(decisions__isnull=False)

    def listed(self) -> SummaryQuerySet:
        """One summary per game: a pass-the-phone game has one for each of its seats."""
        earlier = Summary.objects.filter(
            game=models.OuterRef("game"),
            visitor=models.OuterRef("visitor"),
            id__lt=models.OuterRef("id"),
        )
        return self.exclude(models.Exists(earlier))


class Summary(models.Model):
    """One person's seat in a finished game: score, bonus, Yahtzees, result, points lost."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="summary")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="summaries")
    visitor = models.CharField(max_length=64)
    mode = models.CharField(max_length=16, choices=Game.Mode.choices)
    # The game's rule set (``Game.rules_key``): the stats count like with like, a game at a time.
    rules_key = models.CharField(max_length=24, default="official")
    ranked = models.BooleanField(default=False)
    stake = models.PositiveIntegerField(default=0)
    daily = models.BooleanField(default=False)  # an attempt at a daily challenge
    finished_at = models.DateTimeField()
    total = models.PositiveIntegerField()
    upper_bonus = models.BooleanField()
    yahtzees = models.PositiveSmallIntegerField()  # Yahtzees scored: the 50 and each bonus
    result = models.FloatField()  # 1 won, 0.5 tied for first, 0 lost (a solo game: 1)
    forfeited = models.BooleanField(default=False)
    # Every box filled: the stats count only these (a game ended early, when a player left or
    # was left out, leaves cards half full, whose totals say nothing of how one plays).
    complete = models.BooleanField(default=True)
    # Valued by the perfect player (None until a page shows it, or while its table is not loaded).
    decisions = models.PositiveSmallIntegerField(null=True)
    loss = models.FloatField(null=True)  # expected points lost, over the whole game
    # The mean of the decisions' accuracies (``summaries.accuracy``): kept, because it cannot be
    # worked out from ``loss`` (the mean of a curve is not the curve of the mean).
    accuracy = models.FloatField(null=True)
    # The costliest decisions, for "learn from your mistakes": [{"index": i, "loss": x}, ...]
    costliest = models.JSONField(default=list)

    objects = SummaryQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["visitor", "-finished_at"], name="summaries_of_a_visitor"),
            # What ``summaries.fill_missing`` looks for on every view: the games not shown yet.
            models.Index(
                fields=["visitor"],
                condition=models.Q(decisions__isnull=True),
                name="summaries_not_valued",
            ),
        ]

    def __str__(self) -> str:
        return f"summary of {self.seat}"

    @property
    def average_loss(self) -> float | None:
        """Expected points lost per decision (None: not analysed)."""
        if not self.decisions:
            return None if self.decisions is None else 0.0
        return self.loss / self.decisions


class StatsCache(models.Model):
    """A browser's (or profile's) stats of one game (``rules_key``) as last worked out, with how
    many of its summaries (and of those, valued ones) there were just before
    (``history.stats``).

    Summaries are only ever added, or valued once: while both counts are still the same, no
    summary of the visitor has changed since, and the stats kept are exact.
    """

    visitor = models.CharField(max_length=64)
    rules_key = models.CharField(max_length=24, default="official")
    summaries = models.PositiveIntegerField()
    valued = models.PositiveIntegerField()
    stats = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["visitor", "rules_key"], name="stats_of_a_game")
        ]

    def __str__(self) -> str:
        return f"stats of {self.visitor}"
