"""The one place that applies an action to a stored game: lock, check, apply, snapshot, log."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.refusals import NOT_YOURS, NotFound, NotYourGame, StaleAction
from engine import dice
from engine.rules import IllegalMove
from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _
from games import clock, events, presence
from games.logbook import Log, Roll, play_computer_turns, play_turn
from games.logbook import roll_dice as roll_dice  # re-exported: tests roll with it
from games.models import Game, Seat
from games.rawsql import update_columns


def start_solo_game(visitor: str, *, rules: RuleSet = YAHTZEE, name: str = "") -> Game:
    """Create a solo game with one seat for this browser."""
    return start_game(visitor, [name], mode=Game.Mode.SOLO, rules=rules)


def start_game(
    visitor: str,
    players: list[str],
    *,
    mode: str,
    bots: dict[int, str] | None = None,
    rules: RuleSet = YAHTZEE,
    seed: str | None = None,
    reveal_after: datetime | None = None,
    turn_seconds: int | None = None,
) -> Game:
    """Create a game whose seats, in order, have these names; ``bots`` maps seats to strengths.

    Every human seat belongs to this browser (solo, against the computer, pass-the-phone).
    ``seed`` and ``reveal_after``: the daily challenge's (or a duplicate tournament round's)
    seed, everyone's, shown once the day (the round) is over (a new secret seed by default,
    shown when the game is over). ``turn_seconds``: a turn timer (a tournament's).
    """
    bots = bots or {}
    seats = [
        {"name": name[:24], "visitor": "" if i in bots else visitor, "bot": bots.get(i, "")}
        for i, name in enumerate(players)
    ]
    return _create_game(
        mode, seats, rules, seed, reveal_after=reveal_after, turn_seconds=turn_seconds
    )


def start_online_game(
    players: list,
    *,
    ranked: bool = False,
    stake: int = 0,
    turn_seconds: int | None = None,
    pace: str = Game.Pace.LIVE,
    computer: str = "",
    rules: RuleSet = YAHTZEE,
) -> Game:
    """An online game for these players (lobby Players), in order, under ``rules`` (Yahtzee by
    default; the callers offer no rule set with multiple Yahtzees off).

    ``ranked``: a ranked match, whose end rates both players (``events.game_finishing``).
    ``stake``: a diamond match, each player's stake (the lobby holds the pot, ``lobby.diamonds``).
    ``turn_seconds``: the turn timer (``games.clock``), off by default but always on in a ranked
    or diamond match; ``pace``: "own" for a turn-based game (a day a turn, nobody away).
    ``computer``: a strength of ``engine.strategy.bots``; the computer sits last (a tournament's
    game against the computer: watched as any online game is, the coach off).
    """
    seats = [{"name": p.name, "visitor": p.visitor} for p in players]
    if computer:
        seats.append({"name": "", "visitor": "", "bot": computer})
    turn_seconds = clock.timer_of(pace, turn_seconds, competitive=ranked or bool(stake))
    options = {"ranked": ranked, "stake": stake, "turn_seconds": turn_seconds, "pace": pace}
    return _create_game(Game.Mode.ONLINE, seats, rules, **options)


def _create_game(
    mode: str, seats: list[dict], rules: RuleSet, seed: str | None = None, **options
) -> Game:
    """The game and its seats, committed to a secret seed (``seed``: the daily challenge's).

    ``turn_seconds`` in ``options``: a turn timer, whose first turn starts now.
    """
    seed = seed or dice.new_seed()
    options |= {"seed": seed, "seed_hash": dice.commitment(seed)}
    options |= clock.first_turn(options.get("turn_seconds"))
    with transaction.atomic():
        game = Game.objects.create(mode=mode, rules=rules, held=[False] * rules.dice, **options)
        scores = [None] * rules.turns
        Seat.objects.bulk_create(
            Seat(game=game, position=position, scores=scores, **fields)
            for position, fields in enumerate(seats)
        )
        if seats[0].get("bot"):
            # The computer sits first: it opens the game now, or nobody ever would.
            log = Log(Game.objects.prefetch_related("seats").get(pk=game.pk))
            play_computer_turns(log, None)
            log.save()
            game = log.game
    return game


def add_player_seed(game_id: str, visitor: str | None, text: str) -> Game:
    """Mix a player's own text into the game's dice key, before the first roll (``engine.dice``).

    Once per seat, by each player in the game. The seed was fixed (and its SHA-256 shown) before
    the texts were asked for, so the server could not have chosen it to suit them.
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
        seats = game.ordered_seats()
        # (A game from before every seat could add its own holds its one text in the game's.)
        if seat.seed_text or (game.player_seed and not any(s.seed_text for s in seats)):
            raise StaleAction(_("Text was already added to this game's dice."))
        if game.log_length:
            raise StaleAction(_("The dice have been rolled: text can only be added before that."))
        seat.seed_text = text
        seat.save(update_fields=["seed_text"])
        game.player_seed = dice.players_text(other.seed_text for other in seats)
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
        if seats[absent].bot:  # the computer is never away
            raise IllegalMove(_("There is no such player to leave out."))
        deadline = away_deadline(game, seats[absent])
        if deadline is None or deadline > timezone.now():
            raise StaleAction(_("That player is still in the game, or may come back: wait."))
        log = Log(game)
        log.record(seat.position, "end" if end else "forfeit", {"seat": absent})
        log.save()
        notify_game(game.id, game=game, mover=visitor)
    return game


def resign(game_id: str, visitor: str | None, position: int | None) -> Game:
    """The visitor's seat (``position``, as their page showed it) gives up an online game.

    Logged as a "resign" by the seat (``GameState.resign``): it loses; with one player left the
    game ends, and its end is rated (ranked) and paid (the pot to the winner) by the receivers of
    ``events.game_finishing``, in this transaction, once (a finished game refuses every action).
    """
    with transaction.atomic():
        game, _seat = _locked_game(game_id, visitor)
        check_resign(game, visitor, position)
        log = Log(game)
        log.record(position, "resign", {})
        log.save()
        notify_game(game.id, game=game, mover=visitor)
    return game


def check_resign(game: Game, visitor: str | None, position: int | None) -> None:
    """Refuse (raise) a resignation of this seat by this visitor that cannot be made now."""
    if game.seat_of(visitor) is None:
        raise NotYourGame(NOT_YOURS)
    if game.mode != Game.Mode.ONLINE:
        raise IllegalMove(_("Only an online game can be resigned."))
    if not isinstance(position, int):
        raise IllegalMove(_("Say which seat resigns: yours."))
    if position not in [seat.position for seat in game.ordered_seats() if seat.visitor == visitor]:
        raise NotYourGame(_("You can resign only your own seat."))
    if game.status == Game.Status.FINISHED:
        raise StaleAction(_("The game is over."))
    if position in game.forfeited:
        raise StaleAction(_("You have already left this game."))


def notify_game(
    game_id: str,
    change: events.Change = events.ANYTHING,
    *,
    game: Game | None = None,
    mover: str | None = None,
    tab: str | None = None,
) -> None:
    """Tell every page open on this game (seats and watchers) what changed, after commit.

    The ``change`` says what happened (by default: anything may have); the pages decide what it
    redraws (``games.presenters.parts``). Given the ``game`` a move was applied to, the live
    layer renders the redraws right after the commit, once per seat with an open page and once
    for the watchers: before the mover's own answer, and not in each socket.
    """
    events.announce_game(game_id, change, game=game, mover=mover, tab=tab)


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
    game's step the page showed. The dice come from the game's seed (``engine.dice``); ``roll``,
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
        elif step != game.step and seat.timeouts and game.current_seat != seat.position:
            # The sweep (or another page) played this seat's turn that ran out first.
            raise StaleAction(TIMED_OUT)
        elif step != game.step:
            raise StaleAction(_("The game had moved on since this page was shown: here it is now."))
        elif game.reveal_after is not None and game.reveal_after <= timezone.now():
            # A daily challenge's day is over and its seed is public: no move after that.
            raise IllegalMove(
                _("This daily challenge's day is over: its attempts can no longer be played.")
            )
        else:
            log = Log(game)
            log.record(seat.position, kind, log.payload(kind, params, roll))
            play_computer_turns(log, roll)
            log.save()
            change = events.Change(
                action=kind,
                box=str(params.get("box", "")) if kind == "score" else "",
                followed=len(log.actions) > 1,  # the computer's turns followed
                finished=log.state.finished,
                # A move by any path is presence: a seat that was away is back.
                returned=presence.moved(game, seat),
            )
            notify_game(game.id, change, game=game, mover=visitor, tab=tab)
    if timed_out:  # committed: the timed-out turn stays played
        raise StaleAction(TIMED_OUT)
    return game


TIMED_OUT = _("The time for this turn ran out and it was played for the player: here is the game.")


# How the server plays a timed-out turn: as the beginner computer would (it needs no table).
TIMEOUT_STRENGTH = "beginner"


def play_timed_out_turn(game: Game, roll: Roll | None = None) -> None:
    """Play the rest of the locked game's overdue turn as the beginner computer would, logged
    after a "timeout"; at the seat's third in a row it resigns (it has left). Notifies."""
    log = Log(game)
    position = log.state.current
    log.record(position, "timeout", {})
    log.timing_out = position
    play_turn(log, position, TIMEOUT_STRENGTH, roll, random.Random(secrets.randbits(64)))
    if log.seats[position].timeouts >= clock.TIMEOUTS_TO_LEAVE and not log.state.finished:
        # Three in a row count as giving up: the seat loses and the others play on, or, with one
        # player left, the game is over (a "forfeit" left that player to finish alone, and if
        # they went too, nobody won). Marked, as the message line and the replay say it apart.
        log.record(position, "resign", {"timed_out": True})
    play_computer_turns(log, roll)
    log.save()
    notify_game(game.id, game=game)
