"""What is stored: games, their seats and cards, and the append-only log of every action.

The game and seat rows hold a snapshot of the state for fast reads; the action log is the record.
Replaying the log through ``engine.flow`` must always give the snapshot (tests check it).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Sequence
from datetime import datetime

from django.db import connections, models
from django.utils import timezone

from core.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from engine.flow import GameState, Turn, replay
from engine.rules import Scorecard
from engine.rulesets import RULE_SETS, YAHTZEE, RuleSet, rule_set

# Registered with the games app from here, where Django looks for its models.
from games.openpages import OpenPage as OpenPage
from games.rawsql import Columns
from games.recent import LoggedAction, read_recent_actions, recent_actions


def new_game_id() -> str:
    """An unguessable id for a game's URL."""
    return secrets.token_urlsafe(9)


def empty_scores() -> list[None]:
    """The scores of an empty Yahtzee card, as stored (``games.services`` gives a game of another
    rule set's seats its own number of boxes)."""
    return [None] * YAHTZEE.turns


def no_holds() -> list[bool]:
    """Five released dice, as stored (``games.services`` makes a game of another rule set with its
    own number of dice)."""
    return [False] * YAHTZEE.dice


class GameQuerySet(models.QuerySet):
    """Queries on games."""

    def of_visitor(self, visitor: str) -> GameQuerySet:
        """Games in which this browser has a seat, newest first (none without a visitor id)."""
        if not visitor:  # computer seats have no visitor: "" must not match them
            return self.none()
        return self.filter(seats__visitor=visitor).distinct().order_by("-updated_at")

    def awaiting(self, visitor: str) -> GameQuerySet:
        """Online games in play whose turn is this browser's seat's, newest first."""
        if not visitor:
            return self.none()
        return self.filter(
            mode=Game.Mode.ONLINE,
            status=Game.Status.PLAYING,
            seats__visitor=visitor,
            seats__position=models.F("current_seat"),  # the same seat: one filter, one join
        ).order_by("-updated_at")

    def in_progress(self) -> GameQuerySet:
        """Games not finished yet."""
        return self.filter(status=Game.Status.PLAYING)

    def overdue(self, now: datetime) -> GameQuerySet:
        """Games whose turn ran out by ``now`` (the turn timer; index ``overdue_turns``)."""
        return self.filter(turn_deadline__lte=now, status=Game.Status.PLAYING)

    def watched_until(self, until: datetime) -> int:
        """Mark these games as having a watcher's page open until then (their moves' redraws
        then include the watchers' one)."""
        return self.update(watched_until=until)

    def locked(self, game_id: str) -> Game | None:
        """The game with its seats, its row locked until the transaction ends (None if none).

        Every move starts here, so it is one query, written out (see ``games.rawsql``): the ORM
        takes longer to build it and its objects than SQLite takes to answer it, and on
        PostgreSQL each query is a round trip. Only the game's row is locked.
        """
        database = connections[self.db]
        if not database.in_atomic_block:
            raise RuntimeError("Game.objects.locked() locks until the transaction ends: open one")
        games, seats = Columns.of(Game, database.alias), Columns.of(Seat, database.alias)
        sql = _locked_sql(database.alias)
        with database.cursor() as cursor:
            cursor.execute(sql, [game_id])
            rows = cursor.fetchall()
        if not rows:
            return None
        split = len(games.names)
        game = games.instance(rows[0][:split], database)
        game.loaded_seats = [seats.instance(row[split:], database) for row in rows]
        for seat in game.loaded_seats:
            seat.game = game
        return game


class Game(models.Model):
    """One game: its options and the snapshot of the turn in play."""

    class Mode(models.TextChoices):
        SOLO = "solo", "Solo"
        COMPUTER = "computer", "Against the computer"
        LOCAL = "local", "Pass the phone"
        ONLINE = "online", "Online"

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Pace(models.TextChoices):
        LIVE = "live", "Live"
        OWN = "own", "At your own pace"

    id = models.CharField(primary_key=True, max_length=16, default=new_game_id, editable=False)
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.SOLO)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    # Its rule set's key (``engine.rulesets.RULE_SETS``): read and written through ``rules``.
    rules_key = models.CharField(max_length=24, default=YAHTZEE.key)
    # A ranked match (online, two players): its end rates both players, once (lobby.ranked).
    ranked = models.BooleanField(default=False)
    # A diamond match: what each player staked (0: none). The pot is held by lobby.diamonds.
    stake = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Snapshot of the turn in play.
    current_seat = models.PositiveSmallIntegerField(default=0)
    dice = models.JSONField(default=list)
    held = models.JSONField(default=no_holds)
    rolls = models.PositiveSmallIntegerField(default=0)
    # Counts rolls and scores (not holds): a page posts the step it showed, so a roll or a score
    # from a stale page or a double click is refused instead of applied twice.
    step = models.PositiveIntegerField(default=0)
    log_length = models.PositiveIntegerField(default=0)
    forfeited = models.JSONField(default=list)
    ended = models.BooleanField(default=False)
    # Until when a watcher's page is open (kept fresh by its socket): a move renders the watchers'
    # redraw only then. In the row that every move locks and reads, so no move has to ask.
    watched_until = models.DateTimeField(null=True, blank=True)
    # Provably fair dice (``engine.dice``): the secret seed every roll comes from, its SHA-256 shown
    # from the start, and the text the players added before the first roll (each seat's own,
    # ``Seat.seed_text``, one a line in seat order: ``dice.players_text``). Blank in games from
    # before (their dice are as stored, with nothing to verify).
    seed = models.CharField(max_length=64, blank=True)
    seed_hash = models.CharField(max_length=64, blank=True)
    player_seed = models.CharField(max_length=400, blank=True)  # 6 texts of 64, 5 line breaks
    # When the seed may be shown: once the game is over (None), or later (the daily challenge's
    # seed is everyone's that day, so it is shown when the day is over).
    reveal_after = models.DateTimeField(null=True, blank=True)
    # A solo, computer or pass-the-phone game whose player shared its replay (online games are
    # open to anyone who has the link, as their watchers are).
    shared = models.BooleanField(default=False)
    # The turn timer (``games.timer``): seconds a turn (None: off), the pace, when the turn in
    # play started and so when it runs out (kept as a column for the sweep's indexed query).
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    pace = models.CharField(max_length=8, choices=Pace.choices, default=Pace.LIVE)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["turn_deadline"], name="overdue_turns")]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} game {self.id}"

    # The seats as ``Game.objects.locked`` loaded them, in turn order.
    loaded_seats: list[Seat] | None = None
    # The actions the move applied to this instance appended to the log (``games.logbook.Log``).
    just_logged: Sequence[Action] = ()

    def ordered_seats(self) -> list[Seat]:
        """The seats in turn order (uses a prefetch when there is one)."""
        if self.loaded_seats is not None:
            return self.loaded_seats
        return sorted(self.seats.all(), key=lambda seat: seat.position)

    @property
    def watched(self) -> bool:
        """A watcher's page is open on the game (``watched_until`` not past)."""
        return self.watched_until is not None and self.watched_until > timezone.now()

    @property
    def seed_revealed(self) -> bool:
        """True once the seed may be shown: the game is over, and so is its day if it has one."""
        if not self.seed or self.status != self.Status.FINISHED:
            return False
        return self.reveal_after is None or self.reveal_after <= timezone.now()

    @property
    def daily_running(self) -> bool:
        """A daily challenge's attempt whose day is not over: everyone still plays its dice, so
        its replay and analysis (the perfect player's view of today's positions) wait, its
        player's too."""
        return self.reveal_after is not None and self.reveal_after > timezone.now()

    def open_to(self, visitor: str | None) -> bool:
        """Whether this browser may see the game at all: its page, socket, printable card and, once
        it is over, its replay, analysis and dice check. Online games are open to anyone with the
        link (as to their watchers); the others to the browser that played them, or to anyone once
        it shared them; a daily challenge's attempt to its player, and to everyone once the day is
        over (its board links them), not before."""
        own = bool(visitor) and any(seat.visitor == visitor for seat in self.ordered_seats())
        if self.reveal_after is not None:  # a daily challenge's dice are everyone's that day
            return own or self.reveal_after <= timezone.now()
        return own or self.mode == self.Mode.ONLINE or self.shared

    @property
    def seed_texts(self) -> list[tuple[str, str]]:
        """The texts mixed into the dice, each with the name of the seat that added it (no name
        for a game from before every seat could add its own, whose one text is the game's)."""
        texts = [(seat.name, seat.seed_text) for seat in self.ordered_seats() if seat.seed_text]
        return texts or ([("", self.player_seed)] if self.player_seed else [])

    def seat_of(self, visitor: str | None) -> Seat | None:
        """The seat this browser plays now: the current seat if it is theirs, else their first."""
        if not visitor:
            return None
        seats = [s for s in self.ordered_seats() if s.visitor == visitor]
        current = next((s for s in seats if s.position == self.current_seat), None)
        return current or (seats[0] if seats else None)

    @property
    def rules(self) -> RuleSet:
        """The game's rule set, by its stored key."""
        return rule_set(self.rules_key)

    @rules.setter
    def rules(self, rules: RuleSet) -> None:
        """Store ``rules`` (``Game(rules=...)`` too); ValueError for one the site does not know."""
        if RULE_SETS.get(rules.key) != rules:
            raise ValueError(f"a game cannot store the rule set {rules.key!r}")
        self.rules_key = rules.key

    def state(self) -> GameState:
        """The stored snapshot as a rules-level GameState."""
        seats = self.ordered_seats()
        cards = tuple(seat.card() for seat in seats)
        saved = tuple(seat.saved_rolls for seat in seats) if self.rules.saved_rolls else ()
        turn = Turn(
            dice=tuple(self.dice),
            held=tuple(self.held),
            rolls=self.rolls,
            saved=saved[self.current_seat] if saved else 0,
        )
        return GameState(
            cards=cards,
            current=self.current_seat,
            turn=turn,
            forfeited=frozenset(self.forfeited),
            ended=self.ended,
            saved=saved,
        )

    def store(self, state: GameState) -> list[Seat]:
        """Copy a GameState into this row and its seats; return the seats for the caller to save."""
        self.current_seat = state.current
        self.dice = list(state.turn.dice)
        self.held = list(state.turn.held)
        self.rolls = state.turn.rolls
        self.forfeited = sorted(state.forfeited)
        self.ended = state.ended
        self.status = self.Status.FINISHED if state.finished else self.Status.PLAYING
        seats = self.ordered_seats()
        for position, (seat, card) in enumerate(zip(seats, state.cards, strict=True)):
            seat.scores = list(card.scores)
            seat.yahtzee_bonus = card.yahtzee_bonus
            seat.saved_rolls = state.saved[position] if state.saved else 0
        return seats

    def replayed_state(self) -> GameState:
        """The state reached by replaying the action log from the start."""
        actions = [(a.seat, a.kind, a.payload) for a in self.actions.order_by("seq")]
        seats = self.seats.count()
        return replay(actions, seats, rules=self.rules)


class Seat(models.Model):
    """A player's place in a game, with the snapshot of their card."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=24, blank=True)
    # The browser that plays this seat (a random id kept in its session); blank for the computer.
    visitor = models.CharField(max_length=64, blank=True, db_index=True)
    # The computer's strength ("optimal", "club", "beginner") when the computer plays this seat.
    bot = models.CharField(max_length=16, blank=True)
    scores = models.JSONField(default=empty_scores)
    yahtzee_bonus = models.PositiveIntegerField(default=0)
    # Rolls this seat's turns left unused, for its later turns (``RuleSet.saved_rolls``), as its
    # next turn starts: the current turn's own are ``Game.rolls`` against three and these.
    saved_rolls = models.PositiveSmallIntegerField(default=0)
    # Online games: until when the player's game page counts as open (kept fresh by its socket).
    present_until = models.DateTimeField(null=True, blank=True)
    connections = models.IntegerField(default=0)  # open game pages of this seat
    timeouts = models.PositiveSmallIntegerField(default=0)  # turns timed out in a row
    # The text this seat mixed into the game's dice before the first roll (``Game.player_seed``).
    seed_text = models.CharField(max_length=64, blank=True)
    # A tournament's berserk seat: no hints or odds, half the turn timer (``games.clock``).
    berserk = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_seat_per_position")
        ]
        indexes = [models.Index(fields=["visitor", "id"], name="seats_of_a_visitor")]

    def __str__(self) -> str:
        return f"seat {self.position} of {self.game_id}"

    def card(self) -> Scorecard:
        """This seat's card as a rules-level Scorecard."""
        return Scorecard(self.game.rules, tuple(self.scores), self.yahtzee_bonus)


class ActionQuerySet(AppendOnlyQuerySet):
    """Logged actions can be added and read, never changed or removed."""

    def recent(self, game: Game, seat: Seat | None) -> list[LoggedAction]:
        """The game's latest actions from ``seat``'s latest on (None: a watcher), oldest first.

        Kept between redraws in this process: see ``games.recent``.
        """
        return recent_actions(self.model, game, seat.position if seat is not None else -1)

    def read_recent(self, game: Game, seat: Seat | None) -> list[LoggedAction]:
        """The same, read from the database whatever is kept."""
        return read_recent_actions(self.model, game, seat.position if seat is not None else -1)


class Action(AppendOnlyModel):
    """One entry of a game's append-only log: who did what, with the dice rolled."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ActionQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq")]
        ordering = ["seq"]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq}: {self.kind} {self.payload}"


@functools.cache
def _locked_sql(alias: str) -> str:
    """The query of ``GameQuerySet.locked``: the game joined to its seats, in turn order."""
    database = connections[alias]
    games, seats = Columns.of(Game, alias), Columns.of(Seat, alias)
    quote = database.ops.quote_name
    game_id, position = (quote(Seat._meta.get_field(name).column) for name in ("game", "position"))
    pk = quote(Game._meta.pk.column)
    lock = ""
    if database.features.has_select_for_update_of:
        lock = f" FOR UPDATE OF {games.table}"
    elif database.features.has_select_for_update:
        lock = " FOR UPDATE"
    return (
        f"SELECT {games.sql}, {seats.sql} FROM {games.table}"
        f" JOIN {seats.table} ON {seats.table}.{game_id} = {games.table}.{pk}"
        f" WHERE {games.table}.{pk} = %s ORDER BY {seats.table}.{position}{lock}"
    )
