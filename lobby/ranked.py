"""Ranked matches: the matchmaking queue, its pairing, and the rating of a ranked game's end.

Pairing. Two waiting players are paired when their ratings differ by no more than the wider of
their two windows. A window is ``START_WINDOW`` (±100) on joining and widens by ``WIDEN_BY``
(50) for every ``WIDEN_EVERY`` (10 s) its player has waited, without end: a queue of two always
pairs in the end, after about a minute for a gap of 400 (Glicko-2 rates an uneven pairing by the
expected result, so a far opponent costs the stronger player little when they win). The wider
window, not the narrower: the one who has waited long has said they will take a wider range, and
a newcomer who fits it plays at once rather than making both wait. Of the pairs that fit, the
player who waited longest is paired first, with the closest rating.

Pairing runs when someone joins, and on a waiting player's lobby page every ``PAIR_SECONDS``
(its socket asks, ``lobby.consumers``): so a queue whose players are out of each other's windows
pairs once the windows are wide enough, with nobody clicking, whichever process holds the
pages. Every pairing holds one lock (``serialize_on("ranked-queue")``), as do joining and
leaving, so of two pairings at once on two processes the second finds the entries gone: one
game, never two. A pair is started only if both its entries were still there to delete (a
challenge accepted or a table started meanwhile takes its players out of the queue, under the
same lock: ``start_unranked``).

Who is not paired: a player whose lobby pages are all closed (not online) waits, and after
``ONLINE_WINDOW`` offline leaves the queue; a player in another live game leaves it; two
players already rated against each other ``FARMING_LIMIT`` times in ``FARMING_PERIOD`` are not
paired together (rating farming: the queue page says so, and both wait for someone else), nor two
with a block either way (``lobby.apart``).

Rating. A ranked game that ends before each player has scored a box (a player who never came,
left out at 0-0 in round 1) is not rated, as Lichess rates no game before both players have moved:
nothing was played to rate. A resignation is rated whenever it comes: otherwise resigning at once
would undo any pairing a player disliked, at no cost. Against a provisional opponent a rating
moves at most 20 points (``engine.rating``). ``rate_game`` receives
``games.events.game_finishing`` inside the transaction of the action that finishes the game, and
rates a ranked game there: both players' rows locked, one ``RatingChange`` each (unique per
player and game), both profiles saved. A retry or a double submit of the last score is refused
by the game (finished, or a stale step) before anything is sent; a replay of the log
(``Game.replayed_state``) sends nothing; and a game with rows already is never rated again.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from core.locks import serialize_on
from core.refusals import StaleAction
from engine import rating as ratings
from engine.flow import GameState, _
from engine.rulesets import YAHTZEE, RuleSet
from games.models import Game, Seat
from games.services import start_online_game
from lobby import apart, notify
from lobby.access import Forbidden, check_rate, player_of
from lobby.models import ONLINE_WINDOW, QUEUE_LOCK, Player, QueueEntry, RatingChange

START_WINDOW = 100.0
WIDEN_BY = 50.0
WIDEN_EVERY = timedelta(seconds=10)
# How often a waiting player's lobby page asks for a pairing (lobby.consumers).
PAIR_SECONDS = 5
PAIRED_KEY = "ranked:paired"  # in the cache while a page's pairing is recent
FARMING_LIMIT = 3
FARMING_PERIOD = timedelta(hours=24)
# An online game counts as live (its player cannot queue) while it moved this recently; a ranked
# game counts until it is over, as its player can always end it (resign, or leave out an absent
# opponent). A game at your own pace never counts: its turns wait a day, not for a live player.
LIVE_GAME = timedelta(minutes=10)


def window(joined_at: datetime, now: datetime) -> float:
    """How far apart in rating a player who joined then may be paired now.

    >>> from datetime import UTC, datetime
    >>> start = datetime(2026, 1, 1, tzinfo=UTC)
    >>> [window(start, start + timedelta(seconds=s)) for s in (0, 9, 10, 35)]
    [100.0, 100.0, 150.0, 250.0]
    """
    steps = max(0, int((now - joined_at) / WIDEN_EVERY))
    return START_WINDOW + WIDEN_BY * steps


def rated_together(a: Player, b: Player, now: datetime) -> int:
    """How many games rated these two players against each other in the last FARMING_PERIOD."""
    return RatingChange.objects.filter(
        player=a, created_at__gt=now - FARMING_PERIOD, game__rating_changes__player=b
    ).count()


def met_too_often(player: Player, now: datetime) -> list[Player]:
    """The players waiting in the queue now whom this one will not be paired with: rated against
    each other FARMING_LIMIT times in the last FARMING_PERIOD. The queue page names them, or the
    two wait side by side for minutes with no word of why (nobody with a block is named)."""
    others = QueueEntry.objects.exclude(player=player).select_related("player")
    hidden = apart.kept_apart(player.pk)
    return [
        entry.player
        for entry in others
        if entry.player_id not in hidden
        and _online(entry.player, now)
        and rated_together(player, entry.player, now) >= FARMING_LIMIT
    ]


def live_game(player: Player, now: datetime | None = None) -> Game | None:
    """The player's ranked game in progress, else a live online game of theirs (not at their own
    pace) that moved in the last LIVE_GAME, in which they are still playing (not left out)."""
    seats = _live_seats([player.visitor], now or timezone.now())
    return min(seats, key=lambda seat: not seat.game.ranked).game if seats else None


def _live_seats(visitors: list[str], now: datetime) -> list[Seat]:
    """These visitors' seats, not left out, in live games (see ``live_game``): one query."""
    seats = Seat.objects.filter(
        Q(game__ranked=True) | Q(game__updated_at__gt=now - LIVE_GAME, game__pace=Game.Pace.LIVE),
        visitor__in=visitors,
        game__status=Game.Status.PLAYING,
        game__mode=Game.Mode.ONLINE,
    ).select_related("game")
    return [seat for seat in seats if seat.position not in seat.game.forfeited]


def _named(visitor: str | None) -> Player:
    player = player_of(visitor)
    if player is None:
        raise Forbidden(_("Choose a name first."))
    return player


def join(visitor: str | None, *, address: str | None = None) -> Game | None:
    """Put this player in the queue; the game that starts if they are paired at once."""
    player = _named(visitor)
    check_rate(player.visitor, "queue", address)
    with transaction.atomic():
        serialize_on(QUEUE_LOCK)
        if QueueEntry.objects.filter(player=player).exists():
            raise StaleAction(_("You are already looking for an opponent."))
        if live_game(player):
            raise Forbidden(_("You are in a game: finish it first."))
        QueueEntry.objects.create(player=player)
        # Those already waiting whom this player has met too often today: their pages say why.
        kept = [other.visitor for other in met_too_often(player, timezone.now())]
    notify.players_changed(player.visitor, *kept)  # the player's other tabs show the wait
    started = pair_waiting()
    return next((game for game in started if game.seat_of(player.visitor)), None)


def leave(visitor: str | None, *, address: str | None = None) -> None:
    """Take this player out of the queue."""
    player = _named(visitor)
    check_rate(player.visitor, "queue", address)
    with transaction.atomic():
        serialize_on(QUEUE_LOCK)
        deleted, _rows = QueueEntry.objects.filter(player=player).delete()
        if not deleted:
            raise StaleAction(_("You are not in the queue."))
    notify.players_changed(player.visitor)


def start_unranked(
    players: list[Player],
    *,
    stake: int = 0,
    turn_seconds: int | None = None,
    pace: str = "live",
    rules: RuleSet = YAHTZEE,
) -> Game:
    """An unranked online game for these players under ``rules``, who leave the ranked queue if
    they were in it (under the queue's lock, which its pairing holds: they are not paired into a
    second game)."""
    serialize_on(QUEUE_LOCK)
    QueueEntry.objects.filter(player__in=players).delete()
    return start_online_game(
        players, stake=stake, turn_seconds=turn_seconds, pace=pace, rules=rules
    )


def waiting(visitor: str | None) -> bool:
    """Whether this browser's player is in the queue (one indexed read)."""
    return bool(visitor) and QueueEntry.objects.filter(player__visitor=visitor).exists()


def pair_if_waiting(visitor: str | None) -> list[Game]:
    """A waiting player's page asks: pair the queue if this player is in it, and no other page
    (on any process: the cache is shared) has paired it in the last PAIR_SECONDS.

    Every waiting page asks, so that the queue goes on pairing whichever pages close; but one
    pairing in each PAIR_SECONDS is enough, where each page's own would cost the database as
    many pairings as there are pages waiting.
    """
    recent = max(0, int(PAIR_SECONDS) - 1)  # seconds; 0 (ticks under a second): every time
    if not waiting(visitor) or not cache.add(PAIRED_KEY, True, recent):
        return []
    return pair_waiting()


def pair_waiting(now: datetime | None = None) -> list[Game]:
    """Pair whoever in the queue can be paired now; the games started (see the module's notes)."""
    started: list[tuple[Game, Player, Player]] = []
    with transaction.atomic():
        serialize_on(QUEUE_LOCK)
        now = now or timezone.now()
        ready, gone = still_waiting(QueueEntry.objects.all(), now)
        kept_apart = apart.apart_pairs(e.player_id for e in ready)  # blocks: never paired
        while len(ready) > 1:
            first = ready[0]
            fits = [
                e
                for e in ready[1:]
                if frozenset((first.player_id, e.player_id)) not in kept_apart
                and _fit(first, e, now)
            ]
            if not fits:
                ready.pop(0)
                continue
            second = min(fits, key=lambda e: abs(e.player.rating_value - first.player.rating_value))
            ready = [e for e in ready if e not in (first, second)]
            QueueEntry.objects.filter(pk__in=[first.pk, second.pk]).delete()
            pair = [first.player, second.player]
            if secrets.randbelow(2):  # who plays first: a coin's toss
                pair.reverse()
            started.append((start_online_game(pair, ranked=True), *pair))
        for game, a, b in started:
            notify.navigate([a.visitor, b.visitor], game)
        if gone:
            notify.players_changed(*gone)
    return [game for game, _a, _b in started]


def still_waiting(entries: QuerySet, now: datetime) -> tuple[list, list[str]]:
    """Of a queue's waiting entries (ranked, or Play now's), those whose player is online now,
    in the queue's order; the entries of players gone for good (offline for ``ONLINE_WINDOW``) or
    busy in a live game are deleted, and their visitors returned second. Under QUEUE_LOCK."""
    waiting = list(entries.select_related("player"))
    busy = {seat.visitor for seat in _live_seats([e.player.visitor for e in waiting], now)}
    gone = [e for e in waiting if _offline_for_good(e.player, now) or e.player.visitor in busy]
    entries.filter(pk__in=[e.pk for e in gone]).delete()
    ready = [e for e in waiting if e not in gone and _online(e.player, now)]
    return ready, [e.player.visitor for e in gone]


def _online(player: Player, now: datetime) -> bool:
    return player.online_until is not None and player.online_until > now


def _offline_for_good(player: Player, now: datetime) -> bool:
    return player.online_until is None or player.online_until <= now - ONLINE_WINDOW


def _fit(a: QueueEntry, b: QueueEntry, now: datetime) -> bool:
    """Whether these two waiting players may be paired now."""
    gap = abs(a.player.rating_value - b.player.rating_value)
    if gap > max(window(a.joined_at, now), window(b.joined_at, now)):
        return False
    return rated_together(a.player, b.player, now) < FARMING_LIMIT


def rate_game(sender, game: Game, state: GameState, **kwargs) -> None:
    """Rate a ranked game as it finishes, in the finishing action's transaction, once."""
    if not game.ranked or game.mode != Game.Mode.ONLINE:
        return
    seats = game.ordered_seats()
    resigned = any(action.kind == "resign" for action in game.just_logged)
    if len(seats) != 2 or not (state.everyone_played or resigned):
        return
    if RatingChange.objects.filter(game=game).exists():
        return
    visitors = [seat.visitor for seat in seats]
    # Locked in one order (by id) whichever seat each sits in: two games ending at once with
    # the same players swapped must not wait for each other.
    locked = Player.objects.select_for_update().filter(visitor__in=visitors).order_by("pk")
    players = {player.visitor: player for player in locked}
    if len(players) != 2:  # a profile gone: nobody to rate
        return
    a, b = (players[visitor] for visitor in visitors)
    now = timezone.now()
    if rated_together(a, b, now) >= FARMING_LIMIT:
        return
    score = state.results()[0]  # a seat left out lost, equal totals drew
    before = (a.rating, b.rating)
    after = ratings.after_game(*before, score, now)
    RatingChange.objects.bulk_create(
        RatingChange(
            player=player,
            game=game,
            value_before=old.value,
            value_after=new.value,
            deviation_after=new.deviation,
            score=points,
            created_at=now,
        )
        for player, old, new, points in zip((a, b), before, after, (score, 1 - score), strict=True)
    )
    for player, new in zip((a, b), after, strict=True):
        player.rating = new
        player.save(update_fields=Player.RATING_FIELDS)


def panel(me: Player, now: datetime) -> dict:
    """The ranked queue as this player stands in it: since when they wait, their ranked game,
    and who waits with them but will not be paired with them today (``met_too_often``)."""
    entry = QueueEntry.objects.filter(player=me).first()
    game = None if entry else live_game(me, now)
    return {
        "since": entry.joined_at if entry else None,
        "game_id": game.id if game is not None and game.ranked else None,
        "met_too_often": [other.name for other in met_too_often(me, now)] if entry else [],
        "farming_limit": FARMING_LIMIT,
    }
