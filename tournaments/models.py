"""Tournaments: arena, Swiss and duplicate; who entered; each game a player played in one.

The state lives here, in the database, never in one process's memory: any server process may
pair, start a round or pay the prizes, each under the tournament's row lock.
"""

from __future__ import annotations

import secrets

from django.db import models

from games.models import Game
from groups.models import Group
from lobby.models import Player, PlaysVariant

MAX_NAME_LENGTH = 60
TURN_SECONDS = (30, 60, 120)


def new_tournament_id() -> str:
    """An id for a tournament's address: its link is how friends find it."""
    return secrets.token_urlsafe(6)


class Tournament(PlaysVariant):
    """One tournament: its options (the game its games are played in: ``rules``), and where it
    stands."""

    class Format(models.TextChoices):
        ARENA = "arena", "Arena"
        SWISS = "swiss", "Swiss"
        DUPLICATE = "duplicate", "Duplicate"

    class Status(models.TextChoices):
        UPCOMING = "upcoming", "Upcoming"
        RUNNING = "running", "Under way"
        FINISHED = "finished", "Finished"
        # Nobody to play against at its start (a tournament of one): fees refunded.
        CANCELLED = "cancelled", "Cancelled"

    id = models.CharField(
        primary_key=True, max_length=12, default=new_tournament_id, editable=False
    )
    name = models.CharField(max_length=MAX_NAME_LENGTH)
    format = models.CharField(max_length=12, choices=Format.choices)
    maker = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournaments_made")
    # For a group's members only; None: anyone with the link.
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    listed = models.BooleanField(default=False)  # shown in the public list
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.UPCOMING)
    created_at = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)  # an arena's end; set when it starts
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)  # an arena's duration
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)  # Swiss and duplicate
    best_of = models.PositiveSmallIntegerField(default=1)  # a Swiss round's match: 1 or 3 games
    round = models.PositiveSmallIntegerField(default=0)  # the round under way (0: none yet)
    turn_seconds = models.PositiveSmallIntegerField(default=60)  # one of TURN_SECONDS
    rated = models.BooleanField(default=False)
    entry_fee = models.PositiveIntegerField(default=0)  # diamonds; the pot goes to the podium
    berserk = models.BooleanField(default=False)  # an arena's players may go berserk
    computer = models.CharField(max_length=16, blank=True)  # a bot's id fills seats; "": none
    capacity = models.PositiveSmallIntegerField(default=64)  # entries at most
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player in a tournament."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Playing"
        PAUSED = "paused", "Paused"
        LEFT = "left", "Left"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    # None for the computer entered by the maker (``bot`` its strength): marked, never rated,
    # never a prize.
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    bot = models.CharField(max_length=16, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    joined_at = models.DateTimeField(auto_now_add=True)
    # An arena's player waiting to be paired since then; None while playing, paused or gone.
    waiting_since = models.DateTimeField(null=True, blank=True)
    points = models.IntegerField(default=0)  # the standing's points, kept as games end
    fee = models.PositiveIntegerField(default=0)  # the entry fee it paid (refunded if it leaves)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.tournament_id}"


class Round(models.Model):
    """A Swiss or duplicate round; a duplicate round's seed deals everyone the same dice."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class TournamentGame(models.Model):
    """One entry's game in a tournament, and what it counted: two rows for a game between two
    players, one for a game against the computer or a duplicate round's solo game."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="games")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="tournament_games")
    seat = models.PositiveSmallIntegerField(default=0)  # the entry's seat in the game
    round = models.PositiveSmallIntegerField(null=True, blank=True)  # None in an arena
    opponent = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    against_computer = models.BooleanField(default=False)
    berserk = models.BooleanField(default=False)
    result = models.FloatField(null=True, blank=True)  # 1 won, 0.5 drew, 0 lost; None: playing
    score = models.PositiveIntegerField(null=True, blank=True)
    points_lost = models.FloatField(null=True, blank=True)  # against the perfect player
    points = models.IntegerField(default=0)  # what it counted in the standing
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "game"], name="one_row_per_entry_and_game")
        ]
        indexes = [models.Index(fields=["tournament", "finished_at"])]

    def __str__(self) -> str:
        return f"{self.entry_id} in game {self.game_id}"
