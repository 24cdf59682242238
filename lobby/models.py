"""Who is online, challenges between them, and private tables joined by link or code."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import models
from django.db.models import Case, Q, When
from django.utils import timezone

from core.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from engine import rating as ratings
from engine.rulesets import YAHTZEE, RuleSet, rule_set
from games.models import Game
from games.names import MAX_KEY_LENGTH, case_key, look_alike_key

# A player counts as online while a page of theirs keeps this fresh (see lobby.consumers).
ONLINE_WINDOW = timedelta(seconds=60)
CHALLENGE_LIFETIME = timedelta(minutes=2)
# How long the challenger's panel says that a challenge was declined.
DECLINE_SHOWN = timedelta(minutes=1)
# A private table whose game has not started by then is gone: a link left in a chat stops
# working, and a guessed code finds only tables of today. A started table stays (its page leads
# to the game).
TABLE_LIFETIME = timedelta(days=1)
# No 0/O, 1/I/L: a code read aloud or typed on a phone should not be ambiguous.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_TABLE_SEATS = 6


def new_table_code() -> str:
    """A short code for a private table."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class PlaysVariant(models.Model):
    """What a game made later will be played under: a rule set's key
    (``engine.rulesets.RULE_SETS``), read as ``rules`` (a challenge's, a table's, a
    tournament's, a day's)."""

    rules_key = models.CharField(max_length=24, default=YAHTZEE.key)

    class Meta:
        abstract = True

    @property
    def rules(self) -> RuleSet:
        """The rule set its games are made with."""
        return rule_set(self.rules_key)


class PlayerQuerySet(models.QuerySet):
    """Queries on players."""

    def online(self) -> PlayerQuerySet:
        """Players with a page open now, by name."""
        return self.filter(online_until__gt=timezone.now()).order_by("name_key")

    def established(self) -> PlayerQuerySet:
        """Players whose rating is established now (not provisional), best first."""
        return self.filter(established_until__gt=timezone.now()).order_by(
            "-rating_value", "name_key"
        )

    def provisional(self) -> PlayerQuerySet:
        """Players rated in ranked matches whose rating is provisional now, best first."""
        return (
            self.filter(rated_at__isnull=False)
            .exclude(established_until__gt=timezone.now())
            .order_by("-rating_value", "name_key")
        )

    def named(self, typed: str) -> PlayerQuerySet:
        """The players called ``typed``: in any capitals, or a look-alike of it, the one in the
        same capitals first (two may match: "Allce" and "Alice" are both allowed, and "ALICE"
        folds to the one and looks like the other)."""
        fold = case_key(typed)
        return self.filter(Q(name_fold=fold) | Q(name_key=look_alike_key(typed))).order_by(
            Case(When(name=typed, then=0), When(name_fold=fold, then=1), default=2)
        )

    def named_like(self, typed: str) -> PlayerQuerySet:
        """Players whose name holds ``typed``, in any capitals or as a look-alike, by name."""
        return self.filter(
            Q(name_fold__contains=case_key(typed)) | Q(name_key__contains=look_alike_key(typed))
        ).order_by("name_key")


class Player(models.Model):
    """A lasting player profile, made on going online under a display name.

    No account and no password: the profile is its visitor id (``core.identity``), kept in the
    session of each browser signed in to it (``profiles``). Names are unique among all profiles.
    """

    visitor = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=24)
    # games.names.look_alike_key(name): look-alikes share it, so names are unique by it.
    name_key = models.CharField(max_length=MAX_KEY_LENGTH, unique=True)
    # games.names.case_key(name): names differing only in capitals share it, so names are unique
    # by it too. A column, not a constraint on Lower(name): SQLite's lower() knows only ASCII.
    # Kept by ``save`` from the name.
    name_fold = models.CharField(max_length=MAX_KEY_LENGTH, unique=True)
    online_until = models.DateTimeField(null=True, blank=True)
    connections = models.IntegerField(default=0)  # open lobby and table pages
    created_at = models.DateTimeField(default=timezone.now)  # member since
    # The Glicko-2 rating of ranked matches (engine.rating.Rating): value, deviation, volatility,
    # and when it last changed (None: never rated).
    rating_value = models.FloatField(default=ratings.START_VALUE)
    rating_deviation = models.FloatField(default=ratings.START_DEVIATION)
    rating_volatility = models.FloatField(default=ratings.START_VOLATILITY)
    rated_at = models.DateTimeField(null=True, blank=True)
    # Until when the rating counts as established (engine.rating.established_until): the
    # leaderboard's filter. Kept by the ``rating`` setter; None while provisional.
    established_until = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the player last signed out their other browsers (profiles.services.sign_out_others).
    others_signed_out_at = models.DateTimeField(null=True, blank=True)
    # The diamonds the player holds: always the sum of their ledger rows (lobby.diamonds).
    diamonds = models.IntegerField(default=0)

    objects = PlayerQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        """Save, the name's case key with the name (a ``bulk_create`` must give it itself)."""
        self.name_fold = case_key(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_fold"}
        super().save(*args, **kwargs)

    @property
    def rating(self) -> ratings.Rating:
        """The player's rating as the rating module reads it."""
        return ratings.Rating(
            self.rating_value, self.rating_deviation, self.rating_volatility, self.rated_at
        )

    @rating.setter
    def rating(self, new: ratings.Rating) -> None:
        self.rating_value, self.rating_deviation = new.value, new.deviation
        self.rating_volatility, self.rated_at = new.volatility, new.updated_at
        self.established_until = ratings.established_until(new)

    RATING_FIELDS = (
        "rating_value", "rating_deviation", "rating_volatility", "rated_at", "established_until",
    )  # fmt: skip
    """What the ``rating`` setter changes: ``save(update_fields=Player.RATING_FIELDS)``."""


class RatingChange(models.Model):
    """One rated game's change to one player's rating: the history the profile's chart draws.

    At most one per player and game: a game is rated once (see ``ranked``).
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="rating_changes")
    value_before = models.FloatField()
    value_after = models.FloatField()
    deviation_after = models.FloatField()
    score = models.FloatField()  # 1 won, 0.5 drew, 0 lost
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="rate_a_game_once")]
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.player} {self.value_before:.0f} -> {self.value_after:.0f}"


class DiamondEntry(AppendOnlyModel):
    """One movement of diamonds into or out of a player's account (lobby.diamonds writes them)."""

    class Reason(models.TextChoices):
        GRANT = "grant", "Welcome grant"
        TOP_UP = "top_up", "Daily top-up"
        STAKE = "stake", "Stake"
        WINNINGS = "winnings", "Winnings"
        SHARE = "share", "Share of a tied pot"
        ENTRY = "entry", "Tournament entry fee"
        PRIZE = "prize", "Tournament prize"
        REFUND = "refund", "Entry fee refunded"

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="diamond_entries")
    amount = models.IntegerField()  # in (+) or out (-) of the player's account
    reason = models.CharField(max_length=16, choices=Reason.choices)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="diamond_entries"
    )
    balance_after = models.IntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    # A pot that is not a game's: "tournament:<id>" holds a tournament's entry fees until its
    # prizes are paid (the apps above name their pots; the lobby imports none of them).
    pot = models.CharField(max_length=40, blank=True, db_index=True)
    # The fee a refund gives back: one refund a fee, at most (unique).
    refund_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="refund"
    )

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        constraints = [
            # A game takes each player's stake once and pays each of them once.
            models.UniqueConstraint(
                fields=["player", "game", "reason"],
                condition=models.Q(game__isnull=False),
                name="one_move_of_a_kind_per_game",
            ),
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(reason="grant"), name="one_welcome_grant"
            ),
            # A pot (a tournament's) pays each player one prize.
            models.UniqueConstraint(
                fields=["player", "pot"],
                condition=models.Q(reason="prize"),
                name="one_prize_per_pot",
            ),
        ]
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.player} {self.amount:+d} ({self.reason})"


class Challenge(PlaysVariant):
    """One player asks another for a game; it expires after CHALLENGE_LIFETIME."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"

    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sent")
    challenged = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="received")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)  # accepted, declined or cancelled
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL)
    stake = models.PositiveIntegerField(default=0)  # diamonds each; 0: a normal game
    # The game's pace once accepted: live, or at your own pace (a day a turn; never with a stake).
    pace = models.CharField(max_length=8, choices=Game.Pace.choices, default=Game.Pace.LIVE)

    def __str__(self) -> str:
        return f"{self.challenger} -> {self.challenged} ({self.status})"


class TableQuerySet(models.QuerySet):
    """Queries on tables."""

    def expired(self) -> TableQuerySet:
        """Tables whose game never started and whose lifetime is over."""
        return self.filter(game__isnull=True, created_at__lte=timezone.now() - TABLE_LIFETIME)


class Table(PlaysVariant):
    """A private table for 2-6 players, joined by its link or code; the host starts the game in
    the variant chosen when it was opened."""

    code = models.CharField(max_length=8, unique=True, default=new_table_code)
    host = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hosted")
    created_at = models.DateTimeField(auto_now_add=True)
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL)
    # Set for a rematch: the finished game whose players are invited; it starts once all accept.
    rematch_of = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    # A rematch one of its invited players declined: it is over, and nobody may join it.
    declined_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = TableQuerySet.as_manager()

    def __str__(self) -> str:
        return self.code

    @property
    def started(self) -> bool:
        """True once the game is under way."""
        return self.game_id is not None

    @property
    def expired(self) -> bool:
        """True once TABLE_LIFETIME is over and the game has not started: nobody may join."""
        return not self.started and self.created_at <= timezone.now() - TABLE_LIFETIME


class TableSeat(models.Model):
    """A player who joined a table, in joining order."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.CASCADE)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="join_a_table_once")
        ]
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}"


def expires_from_now() -> timezone.datetime:
    """When a challenge made now expires."""
    return timezone.now() + CHALLENGE_LIFETIME


# What every change to the ranked queue serializes on (core.locks.serialize_on).
QUEUE_LOCK = "ranked-queue"


class QueueEntry(models.Model):
    """A player waiting for a ranked match (``lobby.ranked``): one entry per player, however
    many of their pages are open."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="queue_entry")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.player} waiting since {self.joined_at:%H:%M:%S}"


class PlayNowEntry(models.Model):
    """A player who pressed Play now (``lobby.playnow``): waiting while ``game`` is empty, then
    the unrated game they were paired into, where their waiting page goes. One per player."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="play_now")
    joined_at = models.DateTimeField(default=timezone.now)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.player} pressed Play now at {self.joined_at:%H:%M:%S}"
