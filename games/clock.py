"""The turn timer's rules: the times a table may choose and when a game's turn runs out.

A timed game stores when its turn in play started and, beside it, when it runs out
(``Game.turn_deadline``: the start plus ``Game.turn_seconds``), written by the transaction that
changes the turn. Everything is decided from those stored times, never by a page's clock, so a
player whose page is closed times out too and a restarted server goes on where it was
(``games.timeouts`` plays the overdue turns).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Game

# What a host may choose for a live table (seconds a turn); None: no timer (the default).
TURN_SECONDS = (30, 60, 120)
# At your own pace: a day a turn, and nobody counts as away.
OWN_PACE_SECONDS = 24 * 60 * 60
# The turns a seat may let run out in a row: at the last it has left the game (a forfeit).
TIMEOUTS_TO_LEAVE = 3
# Ranked and diamond matches always play with a turn clock, whatever was asked: otherwise a player
# who keeps the page open and never moves holds the game, the pot and the other player's place
# in the ranked queue for ever (issue 29). A minute, the middle of what a table may choose: three
# rolls and a considered choice take well under it (a live turn takes 10-30 s), a slow phone or a
# moment's distraction does not cost a turn, and a player who stalls has lost within about three
# minutes (TIMEOUTS_TO_LEAVE turns of theirs run out, played meanwhile as the beginner computer).
COMPETITIVE_TURN_SECONDS = 60


def deadline_from(game: Game, started: datetime, seat=None) -> datetime | None:
    """When a turn of this game started at ``started`` runs out (None: no timer); a berserk
    ``seat`` (a tournament's, ``games.berserk``) has half the time."""
    if not game.turn_seconds:
        return None
    length = turn_length(game.turn_seconds)
    return started + (length / 2 if seat is not None and seat.berserk else length)


def turn_length(turn_seconds: int) -> timedelta:
    """How long a turn of this timer lasts (``settings.TURN_TIMER_SPEED`` speeds it up)."""
    return timedelta(seconds=turn_seconds / settings.TURN_TIMER_SPEED)


def overdue(game: Game, now: datetime | None = None) -> bool:
    """Whether the game's turn in play has run out (re-checked under the row lock)."""
    deadline = game.turn_deadline
    if deadline is None or game.status != Game.Status.PLAYING:
        return False
    return deadline <= (now or timezone.now())


def seconds_left(game: Game, now: datetime | None = None) -> int | None:
    """Whole seconds left of the turn in play, rounded up as a countdown reads (None: no timer)."""
    if game.turn_deadline is None or game.status != Game.Status.PLAYING:
        return None
    left = (game.turn_deadline - (now or timezone.now())).total_seconds()
    return max(0, int(-(-left // 1)))


def first_turn(turn_seconds: int | None) -> dict:
    """The new game's fields for its timer: the first turn starts now ({} without a timer)."""
    if not turn_seconds:
        return {}
    now = timezone.now()
    return {"turn_started_at": now, "turn_deadline": now + turn_length(turn_seconds)}


def start_turn(game: Game, *, finished: bool, seat=None) -> None:
    """A new turn is in play (or none, ``finished``): its clock starts now (timed games);
    ``seat``: the seat whose turn it is (a berserk one has half the time)."""
    if not game.turn_seconds:
        return
    now = timezone.now()
    game.turn_started_at = None if finished else now
    game.turn_deadline = None if finished else deadline_from(game, now, seat)


def count_timeout(seat, *, timed_out: bool) -> bool:
    """A seat's turn was scored: one more timeout in a row if the server played it, else none.

    True if the count changed (the seat's row is to be written).
    """
    count = seat.timeouts + 1 if timed_out else 0
    changed = count != seat.timeouts
    seat.timeouts = count
    return changed


def parse_turn_seconds(text: str | None) -> int | None:
    """A host's choice of timer as posted ("", "off", "30", "60", "120"); ValueError otherwise."""
    text = (text or "").strip()
    if text in ("", "off"):
        return None
    if not text.isascii() or not text.isdigit() or int(text) not in TURN_SECONDS:
        raise ValueError(text)
    return int(text)


def parse_pace(text: str | None) -> str:
    """A host's choice of pace as posted ("" or "live", "own"); ValueError otherwise."""
    text = (text or "").strip() or Game.Pace.LIVE
    if text not in Game.Pace.values:
        raise ValueError(text)
    return text


def timer_of(pace: str, turn_seconds: int | None, *, competitive: bool = False) -> int | None:
    """The seconds a turn of a game at this pace: a day at your own pace, else the host's timer;
    a ``competitive`` game (ranked, or for diamonds) always has one (COMPETITIVE_TURN_SECONDS)."""
    if pace == Game.Pace.OWN:
        return OWN_PACE_SECONDS
    if competitive and not turn_seconds:
        return COMPETITIVE_TURN_SECONDS
    return turn_seconds
