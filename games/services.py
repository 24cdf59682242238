"""The one place that applies an action to a stored game: lock, check, apply, snapshot, log."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import advice, clock, dice, events
from games.flow import _
from games.models import Action, Game, Seat, insert_rows, update_columns
from games.rules import NUM_DICE, IllegalMove
from games.strategy import bots


class ActionRefused(Exception):
    """An action that cannot be applied; ``status`` is the HTTP status it deserves."""

    status = 400

    def __init__(self, template: str, **params: str) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class NotFound(ActionRefused):
    """There is no such game."""

    status = 404


class NotYourGame(ActionRefused):
    """The visitor has no seat in the game."""

    status = 403


class StaleAction(ActionRefused):
    """The page that sent the action showed an older position than the stored one."""

    status = 409


class ComputerNotReady(ActionRefused):
    """The computer's turn needs the strategy table, which is not loaded (missing or damaged)."""

    status = 503


COMPUTER_NOT_READY = _("The computer is still getting ready: try again in a minute.")
NOT_YOURS = _("This game is not yours: you can watch it but not play in it.")
# A form from a page too old to act on, or from another site (its CSRF token does not match).
EXPIRED = _("This page is too old to act on. Reload it and try again: nothing was changed.")


def translate_refusal(refusal: Exception) -> str:
    """The refusal's message in the active language."""
    template = getattr(refusal, "template", None)
    if template is None:
        return str(refusal)
    params = {key: gettext(value) for key, value in refusal.params.items()}
    return gettext(template) % params if params else gettext(template)


def roll_dice(count: int) -> list[int]:
    """``count`` dice rolled with the operating system's cryptographic RNG (games with no seed)."""
    return [secrets.randbelow(6) + 1 for _ in range(count)]


# Rolls n dice: tests and benchmarks pass scripted ones to ``perform``; games roll from their seed.
Roll = Callable[[int], list[int]]


def start_solo_game(visitor: str, *, multiple_yahtzees: bool = True, name: str = "") -> Game:
    """Create a solo game with one seat for this browser."""
    return start_game(visitor, [name], mode=Game.Mode.SOLO, multiple_yahtzees=multiple_yahtzees)


def start_game(
    visitor: str,
    players: list[str],
    *,
    mode: str,
    bots: dict[int, str] | None = None,
    multiple_yahtzees: bool = True,
    seed: str | None = None,
    reveal_after: datetime | None = None,
) -> Game:
    """Create a game whose seats, in order, have these names; ``bots`` maps seats to strengths.

    Every human seat belongs to this browser (solo, against the computer, pass-the-phone).
    ``seed`` and ``reveal_after``: the daily challenge's seed, everyone's that day, shown once the
    day is over (a new secret seed by default, shown when the game is over).
    """
    bots = bots or {}
    seats = [
        {"name": name[:24], "visitor": "" if i in bots else visitor, "bot": bots.get(i, "")}
        for i, name in enumerate(players)
    ]
    return _create_game(mode, seats, multiple_yahtzees, seed, reveal_after=reveal_after)


def start_online_game(
    players: list,
    *,
    ranked: bool = False,
    stake: int = 0,
    turn_seconds: int | None = None,
    pace: str = Game.Pace.LIVE,
) -> Game:
    """An online game for these players (lobby Players), in order; multiple Yahtzees always on.

    ``ranked``: a ranked match, whose end rates both players (``events.game_finishing``).
    ``stake``: a diamond match, each player's stake (the lobby holds the pot, ``lobby.diamonds``).
    ``turn_seconds``: the turn timer (``games.clock``), off by default; ``pace``: "own" for a
    turn-based game (a day a turn, nobody away).
    """
    seats = [{"name": p.name, "visitor": p.visitor} for p in players]
    turn_seconds = clock.timer_of(pace, turn_seconds)
    options = {"ranked": ranked, "stake": stake, "turn_seconds": turn_seconds, "pace": pace}
    return _create_game(Game.Mode.ONLINE, seats, multiple_yahtzees=True, **options)


def _create_game(
    mode: str, seats: list[dict], multiple_yahtzees: bool, seed: str | None = None, **options
) -> Game:
    """The game and its seats, committed to a secret seed (``seed``: the daily challenge's).

    ``turn_seconds`` in ``options``: a turn timer, whose first turn starts now.
    """
    seed = seed or dice.new_seed()
    options |= {"seed": seed, "seed_hash": dice.commitment(seed)}
    options |= clock.first_turn(options.get("turn_seconds"))
    with transaction.atomic():
        game = Game.objects.create(mode=mode, multiple_yahtzees=multiple_yahtzees, **options)
        Seat.objects.bulk_create(
            Seat(game=game, position=position, **fields) for position, fields in enumerate(seats)
        )
        if seats[0].get("bot"):
            # The computer sits first: it opens the game now, or nobody ever would.
            log = _Log(Game.objects.prefetch_related("seats").get(pk=game.pk))
            _play_computer_turns(log, None)
            log.save()
            game = log.game
    return game


def add_player_seed(game_id: str, visitor: str | None, text: str) -> Game:
    """Mix a player's own text into the game's dice key, before the first roll (``games.dice``).

    Once per game, by a player in it. The seed was fixed (and its SHA-256 shown) before the text
    was asked for, so the server could not have chosen it to suit the text.
    """
    text = " ".join(text.split())
    if not text:
        raise IllegalMove(_("Type some text to mix into the dice, or leave it."))
    if len(text) > dice.PLAYER_SEED_LENGTH or not text.isprintable():
        raise IllegalMove(_("Use at most 64 letters, digits or signs."))
    with transaction.atomic():
        game, seat = _locked_game(game_id, visitor)
        if not game.seed:
            raise IllegalMove(_("This game is from before fair dice: it has no seed to add to."))
        if game.reveal_after is not None:
            raise IllegalMove(_("The daily challenge's dice are the same for everyone."))
        if game.player_seed:
            raise StaleAction(_("Text was already added to this game's dice."))
        if game.log_length:
            raise StaleAction(_("The dice have been rolled: text can only be added before that."))
        game.player_seed = text
        update_columns(game, ("player_seed",))
    return game


def _locked_game(game_id: str, visitor: str | None) -> tuple[Game, Seat]:
    """The game, its row locked for this transaction, and the visitor's seat in it."""
    game = Game.objects.locked(game_id)
    if game is None:
        raise NotFound(_("There is no such game."))
    seat = game.seat_of(visitor)
    if seat is None:
        raise NotYourGame(NOT_YOURS)
    return game, seat


def away_deadline(game: Game, seat: Seat) -> datetime | None:
    """When the grace period of an absent seat runs out (None while its page is open)."""
    now = timezone.now()
    if seat.present_until is not None and seat.present_until > now:
        return None
    away_since = seat.present_until or game.created_at
    return away_since + timedelta(seconds=settings.AWAY_GRACE_SECONDS)


def leave_out(game_id: str, visitor: str | None, absent: int, *, end: bool = False) -> Game:
    """Go on without an absent seat (a forfeit), or end the game, once its grace period is over."""
    with transaction.atomic():
        game, seat = _locked_game(game_id, visitor)
        if game.mode != Game.Mode.ONLINE:
            raise NotYourGame(NOT_YOURS)
        seats = game.ordered_seats()
        if not isinstance(absent, int) or not 0 <= absent < len(seats) or absent == seat.position:
            raise IllegalMove(_("There is no such player to leave out."))
        if game.pace == Game.Pace.OWN:  # nobody is away: the game waits for each turn
            raise StaleAction(_("At your own pace nobody is left out: the game waits."))
        deadline = away_deadline(game, seats[absent])
        if deadline is None or deadline > timezone.now():
            raise StaleAction(_("That player is still in the game, or may come back: wait."))
        log = _Log(game)
        log.record(seat.position, "end" if end else "forfeit", {"seat": absent})
        log.save()
        notify_game(game.id, game=game, mover=visitor)
    return game


# What a move changes on the page, so that only those fragments are redrawn and pushed.
CHANGED_PARTS = {
    "roll": ("dice", "coach", "card", "status", "messages"),
    "hold": ("dice", "coach", "messages"),
}
# The pages that cannot play now (the other seats, watchers) show no box previews and no coach:
# until a box is scored, only their dice and message line change.
ONLOOKERS_SEE = {"roll": ("dice", "messages"), "hold": ("dice", "messages")}


def changed_parts(kind: str, *, onlooker: bool = False) -> tuple[str, ...]:
    """The page fragments a move of this kind changes (the whole game area by default).

    ``onlooker``: on a page that cannot play now.
    """
    if onlooker and kind in ONLOOKERS_SEE:
        return ONLOOKERS_SEE[kind]
    return CHANGED_PARTS.get(kind, ("game",))


def notify_game(
    game_id: str,
    parts: tuple[str, ...] = ("game",),
    *,
    onlookers: tuple[str, ...] | None = None,
    game: Game | None = None,
    mover: str | None = None,
    tab: str | None = None,
) -> None:
    """Tell every page open on this game (seats and watchers) that it changed, after commit.

    ``parts`` are the fragments to redraw, ``onlookers`` those of pages that cannot play (by
    default the same). Given the ``game`` a move was applied to, the live layer renders the
    redraws right after the commit, once per seat with an open page and once for the watchers:
    before the mover's own answer, and not in each socket.
    """
    events.announce_game(game_id, parts, onlookers=onlookers, game=game, mover=mover, tab=tab)


def perform(
    game_id: str,
    visitor: str | None,
    kind: str,
    params: Mapping[str, Any],
    step: int | None,
    *,
    roll: Roll | None = None,
    tab: str | None = None,
) -> Game:
    """Apply one action by ``visitor`` to the game, at most once, and log it.

    ``tab`` names the page that asked (its answer shows the move, so its socket need not).

    ``params`` are what the page asked for: ``{"held": [5 bools]}`` for a roll (the holds the page
    showed), ``{"die": i, "held": bool}`` for a hold, ``{"box": name}`` for a score. ``step`` is the
    game's step the page showed. The dice come from the game's seed (``games.dice``); ``roll``,
    given, rolls n dice instead (tests pass scripted ones). Raises
    ActionRefused or IllegalMove, changing nothing, when the action cannot be applied. When the
    turn passes to the computer, it plays its turns here too, each move logged like a person's.
    """
    with transaction.atomic():
        game, seat = _locked_game(game_id, visitor)
        if game.status == Game.Status.FINISHED:
            raise IllegalMove(_("The game is over."))
        timed_out = clock.overdue(game)
        if timed_out:  # the turn ran out before this move came: play it first, refuse the move
            play_timed_out_turn(game, roll)
        elif step != game.step:
            raise StaleAction(_("The game had moved on since this page was shown: here it is now."))
        elif game.reveal_after is not None and game.reveal_after <= timezone.now():
            # A daily challenge's day is over and its seed is public: no move after that.
            raise IllegalMove(
                _("This daily challenge's day is over: its attempts can no longer be played.")
            )
        else:
            log = _Log(game)
            log.record(seat.position, kind, log.payload(kind, params, roll))
            _play_computer_turns(log, roll)
            log.save()
            if len(log.actions) == 1:
                parts, onlookers = changed_parts(kind), changed_parts(kind, onlooker=True)
            else:  # the computer's turns followed: redraw everything
                parts = onlookers = ("game",)
            notify_game(game.id, parts, onlookers=onlookers, game=game, mover=visitor, tab=tab)
    if timed_out:  # committed: the timed-out turn stays played
        raise StaleAction(TIMED_OUT)
    return game


TIMED_OUT = _("The time for this turn ran out and it was played for the player: here is the game.")


# How the server plays a timed-out turn: as the beginner computer would (it needs no table).
TIMEOUT_STRENGTH = "beginner"


def play_timed_out_turn(game: Game, roll: Roll | None = None) -> None:
    """Play the rest of the locked game's overdue turn as the beginner computer would, logged
    after a "timeout"; the seat's third in a row is its forfeit (it has left). Notifies."""
    log = _Log(game)
    position = log.state.current
    log.record(position, "timeout", {})
    log.timing_out = position
    play_turn(log, position, TIMEOUT_STRENGTH, roll, random.Random(secrets.randbits(64)))
    if log.seats[position].timeouts >= clock.TIMEOUTS_TO_LEAVE and not log.state.finished:
        log.record(position, "forfeit", {"seat": position})  # three in a row count as leaving
    _play_computer_turns(log, roll)
    log.save()
    notify_game(game.id, game=game)


class _Log:
    """Moves a locked game on through ``GameState.apply`` and keeps the actions to append."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seats = game.ordered_seats()
        self.state = game.state()
        self.actions: list[Action] = []
        self.turn_of = self._turn()
        self.timing_out: int | None = None  # the seat whose turn the server plays (timed out)
        self.counted: list[Seat] = []  # seats whose count of timeouts in a row changed

    def record(self, seat: int, kind: str, payload: dict[str, Any]) -> None:
        """Apply one move (IllegalMove if it is not allowed) and queue its log entry."""
        state = self.state.apply(seat, kind, payload)
        if kind == "score":
            payload = payload | {"points": state.cards[seat].score_of(payload["box"])}
            if seat == self.timing_out:  # the server's score for a seat whose time ran out
                payload["timed_out"] = True
            if clock.count_timeout(self.seats[seat], timed_out=seat == self.timing_out):
                self.counted.append(self.seats[seat])
        if kind != "hold":
            self.game.step += 1
        self.game.log_length += 1
        self.actions.append(
            Action(game=self.game, seq=self.game.log_length, seat=seat, kind=kind, payload=payload)
        )
        self.state = state

    def payload(self, kind: str, params: Mapping[str, Any], roll: Roll | None) -> dict[str, Any]:
        """The log payload of the current seat's move; the server rolls the dice here."""
        turn = self.state.turn
        if kind != "roll":
            return _payload(kind, params)
        seen = params.get("held")
        if seen is not None and tuple(seen) != turn.held:
            raise StaleAction(_("The held dice changed in another window: here they are now."))
        slots = [i for i in range(NUM_DICE) if not turn.dice or not turn.held[i]]
        if roll is not None:
            fresh = roll(len(slots))
        elif self.game.seed:
            seat = self.state.current
            number = self.state.cards[seat].turns_played + 1
            dice_key = dice.key(self.game.seed, self.game.player_seed)
            fresh = dice.faces(dice_key, seat, number, turn.rolls + 1, slots)
        else:  # a game from before seeds
            fresh = roll_dice(len(slots))
        rolled = list(turn.dice) if turn.dice else [0] * NUM_DICE
        for slot, face in zip(slots, fresh, strict=True):
            rolled[slot] = face
        return {"dice": rolled}

    def _turn(self) -> tuple[int, int]:
        """Which turn is in play: its seat and how many turns that seat has played."""
        return self.state.current, self.state.cards[self.state.current].turns_played

    def save(self) -> None:
        """Write the snapshot and append the log entries (inside the caller's transaction)."""
        cards = [(seat.scores, seat.yahtzee_bonus) for seat in self.seats]
        finishing = self.state.finished and self.game.status != Game.Status.FINISHED
        if self.state.finished or self._turn() != self.turn_of:
            clock.start_turn(self.game, finished=self.state.finished)
        self.game.store(self.state)
        update_columns(self.game, SNAPSHOT_FIELDS)
        for seat, card in zip(self.seats, cards, strict=True):
            if (seat.scores, seat.yahtzee_bonus) != card:  # only a score changes a card
                update_columns(seat, ("scores", "yahtzee_bonus"))
        for seat in self.counted:
            update_columns(seat, ("timeouts",))
        insert_rows(self.actions)
        self.game.just_logged = self.actions
        if finishing:  # once: a finished game's row, locked, refuses every later action
            events.game_finishing.send(sender=Game, game=self.game, state=self.state)


# What a move may change in a game's row (``Game.store``), and when it did.
SNAPSHOT_FIELDS = (
    "current_seat", "dice", "held", "rolls", "forfeited", "ended", "status", "step", "log_length",
    "updated_at", "turn_started_at", "turn_deadline",
)  # fmt: skip


def _play_computer_turns(log: _Log, roll: Roll | None) -> None:
    """While the turn is the computer's, play it move by move, logged like a person's moves."""
    rng = random.Random(secrets.randbits(64))
    while not log.state.finished and log.seats[log.state.current].bot:
        seat = log.seats[log.state.current]
        play_turn(log, seat.position, seat.bot, roll, rng)


def play_turn(log: _Log, position: int, strength: str, roll: Roll | None, rng) -> None:
    """Play the rest of the seat's turn as the computer of this strength, from where it is."""
    advisor = advice.advisor(log.game.multiple_yahtzees)
    if advisor is None and strength in advice.NEEDS_TABLE:
        raise ComputerNotReady(COMPUTER_NOT_READY)  # the whole move waits, nothing is written
    if not log.state.turn.dice:
        log.record(position, "roll", log.payload("roll", {}, roll))
    while True:
        turn = log.state.turn
        card = log.state.cards[position]
        move, choice = bots.choose_move(strength, advisor, card, turn.dice, turn.rolls_left, rng)
        if move == "keep" and len(choice) == len(turn.dice):
            # Keeping all five is the same as scoring now: pick the box without a wasted roll.
            move, choice = bots.choose_move(strength, advisor, card, turn.dice, 0, rng)
        if move == "score":
            log.record(position, "score", {"box": choice})
            return
        wanted = turn.holds_for(choice)
        for die, held in enumerate(wanted):
            if held != turn.held[die]:
                log.record(position, "hold", {"die": die, "held": held})
        log.record(position, "roll", log.payload("roll", {}, roll))


def _payload(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The log payload of a hold or a score, from the page's request."""
    if kind == "hold":
        return {"die": params.get("die"), "held": params.get("held")}
    if kind == "score":
        return {"box": params.get("box")}
    raise IllegalMove(_("Unknown action."))
