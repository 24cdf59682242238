"""Making, joining and leaving tournaments: each a service of one transaction, its refusals said
in the player's words (``core.refusals``, answered by the pages in one place).

Every change to a tournament's entries locks the tournament's row first (``select_for_update``;
on SQLite the site's transactions are IMMEDIATE, so writers take turns anyway): of two joins
racing for the last place one wins, the other is told it is full. Entry fees move through the
diamond ledger (``lobby.diamonds``) in the same transaction, into the tournament's pot
(``pot_name``); leaving before the start gives the fee back, once (the ledger's ``refund_of`` is
unique). What happens once it has started (pairing, rounds, results, prizes) is
``tournaments.clock``'s.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.refusals import ActionRefused, NotFound, StaleAction
from engine.rulesets import YAHTZEE, RuleSet
from engine.strategy.bots import BOTS
from engine.words import _
from games.berserk import go_berserk as seat_berserk
from games.models import Game
from games.services import resign
from groups.models import Membership
from lobby import diamonds
from lobby.access import Forbidden, player_of
from lobby.diamonds import NotEnough
from lobby.models import DiamondEntry, Player
from tournaments import events
from tournaments.clock import advance
from tournaments.models import MAX_NAME_LENGTH, TURN_SECONDS, Entry, Tournament
from tournaments.results import pot_name, refund_fees
from tournaments.variants import check_computer, check_variant

__all__ = [
    "ActionRefused", "Forbidden", "NotEnough", "NotFound", "StaleAction", "TournamentOptions",
    "create", "join", "leave", "pause", "come_back", "go_berserk", "add_computer", "start_now",
]  # fmt: skip

MINUTES = (10, 240)  # an arena's length, from-to
ROUNDS = (1, 15)  # a Swiss's or a duplicate's rounds, from-to
CAPACITY = (2, 200)  # entries at most, from-to
BEST_OF = (1, 3)  # a Swiss round's match
MAX_FEE = 10_000
MAX_AHEAD = timedelta(days=30)  # how far ahead a start may be set
# "Start now": the first pairing waits this long for friends to open the link and join.
JOIN_WINDOW = timedelta(minutes=2)
# A start time given to the minute, in this minute, is "now", not "in the past".
PAST_SLACK = timedelta(minutes=1)


@dataclass(frozen=True)
class TournamentOptions:
    """What a maker chooses. ``starts_at`` None: now (after ``JOIN_WINDOW``); ``minutes`` for an
    arena, ``rounds`` for a Swiss or duplicate; ``computer`` a strength of
    ``engine.strategy.bots.BOTS`` that fills seats ("": none); ``group_id``: for a group's
    members only (None: anyone with the link); ``rules``: the game every game of it is played
    in."""

    name: str
    format: str
    starts_at: datetime | None = None
    minutes: int | None = None
    rounds: int | None = None
    turn_seconds: int = 60
    rated: bool = False
    entry_fee: int = 0
    group_id: str | None = None
    listed: bool = False
    berserk: bool = False
    computer: str = ""
    best_of: int = 1
    capacity: int = 64
    rules: RuleSet = YAHTZEE


def scaled(minutes: int) -> timedelta:
    """An arena's length, sped up as turns are (``settings.TURN_TIMER_SPEED``, tests)."""
    return timedelta(minutes=minutes) / settings.TURN_TIMER_SPEED


def _named(visitor: str | None) -> Player:
    player = player_of(visitor)
    if player is None:
        raise Forbidden(_("Choose a name first."))
    return player


def _whole(value, low: int, high: int, message: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ActionRefused(message, low=str(low), high=str(high))
    return value


def check_options(options: TournamentOptions, maker: Player, now: datetime) -> dict:
    """The tournament's fields from a maker's options; ActionRefused with the reason otherwise."""
    name = " ".join((options.name or "").split())
    if not name or len(name) > MAX_NAME_LENGTH or not name.isprintable():
        raise ActionRefused(_("Give the tournament a name of at most 60 letters."))
    if options.format not in Tournament.Format.values:
        raise ActionRefused(_("Choose arena, Swiss or duplicate."))
    fields = {"name": name, "format": options.format, "maker": maker}
    if options.format == Tournament.Format.ARENA:
        fields["minutes"] = _whole(
            options.minutes, *MINUTES, _("An arena lasts %(low)s to %(high)s minutes.")
        )
    else:
        fields["rounds"] = _whole(options.rounds, *ROUNDS, _("Choose %(low)s to %(high)s rounds."))
    if options.turn_seconds not in TURN_SECONDS:
        raise ActionRefused(_("Choose a turn timer of 30, 60 or 120 seconds."))
    fee = options.entry_fee
    if isinstance(fee, bool) or not isinstance(fee, int) or not 0 <= fee <= MAX_FEE:
        raise ActionRefused(_("An entry fee is a whole number of diamonds, 0 to 10000."))
    capacity = _whole(
        options.capacity, *CAPACITY, _("A tournament takes %(low)s to %(high)s players.")
    )
    if options.best_of not in BEST_OF or (
        options.best_of != 1 and options.format != Tournament.Format.SWISS
    ):
        raise ActionRefused(_("A Swiss round's match is best of one or of three games."))
    if options.computer and options.computer not in BOTS:
        raise ActionRefused(_("Choose one of the computer's strengths offered."))
    check_variant(options.rules, options.format, rated=bool(options.rated))
    check_computer(options.computer, options.rules)
    if options.berserk and options.format != Tournament.Format.ARENA:
        raise ActionRefused(_("Berserk is an arena's option."))
    starts_at = options.starts_at or now + JOIN_WINDOW
    if timezone.is_naive(starts_at):
        raise ActionRefused(_("Give the start time with its time zone."))
    if starts_at < now - PAST_SLACK:
        raise ActionRefused(_("That start time is in the past: choose a later one."))
    if starts_at > now + MAX_AHEAD:
        raise ActionRefused(_("A tournament starts within 30 days."))
    group = None
    if options.group_id:
        membership = (
            Membership.objects.select_related("group")
            .filter(group_id=options.group_id, player=maker)
            .first()
        )
        if membership is None:
            raise Forbidden(_("You can make a tournament only for a group you are in."))
        group = membership.group
    return fields | {
        "starts_at": max(starts_at, now),
        "turn_seconds": options.turn_seconds,
        "rated": bool(options.rated),
        "entry_fee": fee,
        "group": group,
        "listed": bool(options.listed),
        "berserk": bool(options.berserk),
        "computer": options.computer,
        "best_of": options.best_of,
        "capacity": capacity,
        "rules_key": options.rules.key,
    }


def create(visitor: str | None, options: TournamentOptions) -> Tournament:
    """A new tournament made by this browser's profile (who does not join it by making it)."""
    maker = _named(visitor)
    fields = check_options(options, maker, timezone.now())
    with transaction.atomic():
        tournament = Tournament.objects.create(**fields)
        events.announce_tournament(tournament.pk)
    return tournament


def locked(tournament_id: str) -> Tournament:
    """The tournament, its row locked until the transaction ends; NotFound if there is none."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("There is no such tournament."))
    return tournament


def is_over(tournament: Tournament) -> bool:
    """Finished or cancelled."""
    return tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def check_open(tournament: Tournament, player: Player) -> None:
    """Refuse (raise) a player this tournament cannot take now: see ``join``."""
    time_up = tournament.ends_at is not None and tournament.ends_at <= timezone.now()
    if is_over(tournament) or time_up:  # an arena whose last games are being played out
        raise StaleAction(_("This tournament is over."))
    if (
        tournament.format == Tournament.Format.SWISS
        and tournament.status == Tournament.Status.RUNNING
        and tournament.round * 2 > (tournament.rounds or 0)
    ):
        raise StaleAction(_("Half the rounds have started: this Swiss takes nobody new."))
    if (
        tournament.group_id
        and not Membership.objects.filter(group_id=tournament.group_id, player=player).exists()
    ):
        raise Forbidden(_("This tournament is for its group's members only."))
    taken = tournament.entries.exclude(status=Entry.Status.LEFT).count()
    if taken >= tournament.capacity:
        raise StaleAction(_("This tournament is full."))


def join(tournament_id: str, visitor: str | None) -> Entry:
    """Enter this browser's profile, paying the entry fee into the pot; refused (with why) if
    it is in already, if the tournament is full, over, a Swiss past half its rounds, a group's
    of which they are not a member, or the fee is above their balance. Joining again after
    leaving is joining (a fee refunded is paid again)."""
    player = _named(visitor)
    with transaction.atomic():
        tournament = locked(tournament_id)
        entry = tournament.entries.filter(player=player).first()
        if entry is not None and entry.status != Entry.Status.LEFT:
            raise StaleAction(_("You are in this tournament already."))
        check_open(tournament, player)
        if entry is None:
            entry = Entry(tournament=tournament, player=player)
        entry.status = Entry.Status.ACTIVE
        entry.waiting_since = timezone.now() if _running_arena(tournament) else None
        if tournament.entry_fee and not entry.fee:
            held = diamonds.balance(player)
            if held < tournament.entry_fee:
                raise NotEnough(
                    _("You have %(balance)s diamonds: not enough for the entry fee of %(fee)s."),
                    balance=str(held),
                    fee=str(tournament.entry_fee),
                )
            diamonds.move(
                player, -tournament.entry_fee, DiamondEntry.Reason.ENTRY, pot=pot_name(tournament)
            )
            entry.fee = tournament.entry_fee
        entry.save()
        events.announce_tournament(tournament.pk)
    return entry


def _running_arena(tournament: Tournament) -> bool:
    return (
        tournament.format == Tournament.Format.ARENA
        and tournament.status == Tournament.Status.RUNNING
    )


def own_entry(tournament: Tournament, visitor: str | None) -> Entry:
    """This browser's entry in the (locked) tournament; refused if it has none."""
    player = _named(visitor)
    entry = tournament.entries.filter(player=player).first()
    if entry is None or entry.status == Entry.Status.LEFT:
        raise StaleAction(_("You are not in this tournament."))
    return entry


def current_game(entry: Entry):
    """The entry's tournament game being played, if any (a ``TournamentGame``)."""
    return (
        entry.games.filter(finished_at__isnull=True, game__status=Game.Status.PLAYING)
        .select_related("game")
        .first()
    )


def leave(tournament_id: str, visitor: str | None) -> Entry:
    """Leave the tournament. Before its start the fee is given back; under way, a game being
    played is resigned (lost, the opponent wins and the tournament goes on), the fee stays in
    the pot, and the player is out of the pairings and the prizes."""
    player = _named(visitor)
    with transaction.atomic():
        playing = Tournament.objects.filter(pk=tournament_id).first()
        entry = playing and playing.entries.filter(player=player).first()
        ongoing = entry and current_game(entry)
        # The game's lock first, then the tournament's, as a game's end takes them. A duplicate
        # round's solo game is not resigned: its turns time out (three in a row end it).
        if ongoing is not None and ongoing.game.mode == Game.Mode.ONLINE:
            seat = ongoing.game.seat_of(player.visitor)
            with suppress(StaleAction):  # it ended meanwhile: its result stands
                resign(ongoing.game_id, player.visitor, seat.position if seat else None)
        tournament = locked(tournament_id)
        entry = own_entry(tournament, visitor)
        entry.status = Entry.Status.LEFT
        entry.waiting_since = None
        if tournament.status == Tournament.Status.UPCOMING and entry.fee:
            refund_fees(tournament, players=[player])
            entry.fee = 0
        entry.save(update_fields=["status", "waiting_since", "fee"])
        events.announce_tournament(tournament.pk)
    return entry


def pause(tournament_id: str, visitor: str | None) -> Entry:
    """An arena's player stops being paired (their game being played goes on and counts)."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.format != Tournament.Format.ARENA:
            raise ActionRefused(_("Only an arena can be paused: leave it instead."))
        if is_over(tournament):
            raise StaleAction(_("This tournament is over."))
        entry = own_entry(tournament, visitor)
        if entry.status == Entry.Status.PAUSED:
            raise StaleAction(_("You have paused already."))
        entry.status, entry.waiting_since = Entry.Status.PAUSED, None
        entry.save(update_fields=["status", "waiting_since"])
        events.announce_tournament(tournament.pk)
    return entry


def come_back(tournament_id: str, visitor: str | None) -> Entry:
    """A paused arena player waits to be paired again."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        if is_over(tournament):
            raise StaleAction(_("This tournament is over."))
        entry = own_entry(tournament, visitor)
        if entry.status != Entry.Status.PAUSED:
            raise StaleAction(_("You are not paused."))
        entry.status = Entry.Status.ACTIVE
        busy = current_game(entry) is not None
        entry.waiting_since = None if busy or not _running_arena(tournament) else timezone.now()
        entry.save(update_fields=["status", "waiting_since"])
        events.announce_tournament(tournament.pk)
    return entry


def go_berserk(tournament_id: str, visitor: str | None) -> Game:
    """Berserk in the player's arena game, before its first roll: no hints or odds, half the
    turn timer, one more point for a win."""
    with transaction.atomic():
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise NotFound(_("There is no such tournament."))
        if not tournament.berserk:
            raise ActionRefused(_("This arena has no berserk."))
        entry = tournament.entries.filter(player=_named(visitor)).first()
        ongoing = entry and current_game(entry)
        if ongoing is None:
            raise StaleAction(_("You have no game under way to go berserk in."))
        game = seat_berserk(ongoing.game_id, visitor)  # the game's row lock, then the row's
        ongoing.berserk = True
        ongoing.save(update_fields=["berserk"])
        events.announce_tournament(tournament.pk)
    return game


def add_computer(tournament_id: str, visitor: str | None, strength: str) -> Entry:
    """The maker enters the computer (of a strength of ``BOTS``) as a player: marked, never
    rated, never a prize."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.maker.visitor != visitor:
            raise Forbidden(_("Only the tournament's maker can add the computer."))
        if strength not in BOTS:
            raise ActionRefused(_("Choose one of the computer's strengths offered."))
        check_computer(strength, tournament.rules)
        if is_over(tournament):
            raise StaleAction(_("This tournament is over."))
        if tournament.entries.exclude(status=Entry.Status.LEFT).count() >= tournament.capacity:
            raise StaleAction(_("This tournament is full."))
        entry = Entry.objects.create(
            tournament=tournament,
            bot=strength,
            waiting_since=timezone.now() if _running_arena(tournament) else None,
        )
        events.announce_tournament(tournament.pk)
    return entry


def start_now(tournament_id: str, visitor: str | None) -> Tournament:
    """The maker starts an upcoming tournament now, without waiting for its time."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.maker.visitor != visitor:
            raise Forbidden(_("Only the tournament's maker can start it."))
        if tournament.status != Tournament.Status.UPCOMING:
            raise StaleAction(_("This tournament has started already."))
        tournament.starts_at = timezone.now()
        tournament.save(update_fields=["starts_at"])
    advance(tournament_id)
    tournament.refresh_from_db()
    return tournament
