"""Private tables and rematches: making, finding and joining a table by its code, starting its
game, and a finished online game's rematch."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from core.locks import serialize_on
from core.refusals import ActionRefused, NotFound, StaleAction
from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _
from games import clock, presence
from games.models import Game
from lobby import apart, hooks, notify
from lobby.access import Forbidden, check_rate, require_player
from lobby.forms import check_between_people
from lobby.models import MAX_TABLE_SEATS, Player, Table, TableSeat
from lobby.ranked import start_unranked


class Gone(StaleAction):
    """The table's lifetime ran out before its game started."""

    status = 410


NO_TABLE = _("There is no table with that code.")
# What a block (``lobby.apart``) refuses, saying no more: not who blocked whom, nor whether the
# other player is online or at the table.
CANNOT_JOIN = _("You cannot join this table.")
CANNOT_REMATCH = _("You cannot play a rematch with these players.")
DECLINED = _("%(name)s declined the rematch.")
NO_OFFER = _("There is no rematch offer to decline.")
BAD_TIMER = _(
    "Choose what the table offers: live with no timer or 30, 60 or 120 seconds a turn, or at "
    "your own pace."
)


def create_table(
    visitor: str | None, *, address: str | None = None, rules: RuleSet = YAHTZEE
) -> Table:
    """A private table hosted by this player, who is its first seat; its game is played under
    ``rules``."""
    player = require_player(visitor)
    check_rate(player.visitor, "join", address)
    check_between_people(rules)
    # Tables that expired go as new ones are made: no timer to run, and they never pile up.
    Table.objects.expired().delete()
    for _attempt in range(5):
        try:
            with transaction.atomic():
                table = Table.objects.create(host=player, rules_key=rules.key)
                TableSeat.objects.create(table=table, player=player)
                return table
        except IntegrityError:  # a code already in use: draw another
            continue
    raise ActionRefused(_("Could not make a table: try again."))


def look_up_table(visitor: str | None, code: str, *, address: str | None = None) -> Table:
    """The table with this code, for its page; refused when there is none or it expired."""
    return _find_table(Table.objects, visitor, code, address)


def _find_table(tables: QuerySet, visitor: str | None, code: str, address: str | None) -> Table:
    """The live table with this code among ``tables``. A code that finds none counts toward the
    look-up limits, and past them every look-up is refused, found or not: otherwise the answers
    would go on telling a guesser which codes are in use."""
    check_rate(visitor, "lookup", address, count=False)
    table = tables.filter(code=code.strip().upper()).first()
    if table is None or table.expired:
        check_rate(visitor, "lookup", address)
    if table is None:
        raise NotFound(NO_TABLE)
    if table.expired:
        raise Gone(_("This table has expired: open a new one."))
    return table


def join_table(visitor: str | None, code: str, *, address: str | None = None) -> Table:
    """Take a seat at a table by its code."""
    player = require_player(visitor)
    check_rate(player.visitor, "join", address)
    with transaction.atomic():
        table = _find_table(Table.objects.select_for_update(), player.visitor, code, address)
        if table.seats.filter(player=player).exists():
            return table
        if table.rematch_of_id and not table.rematch_of.seats.filter(visitor=visitor).exists():
            raise Forbidden(_("Only the players of the last game can join its rematch."))
        if table.declined_by_id:
            raise StaleAction(DECLINED, name=table.declined_by.name)
        if table.started:
            raise StaleAction(_("That table has already started its game."))
        # A table is its host's: nobody with a block either way with the host or anyone seated.
        seated = set(table.seats.values_list("player_id", flat=True)) | {table.host_id}
        if apart.any_apart(player.pk, seated):
            raise Forbidden(CANNOT_JOIN)
        not_admitted = hooks.TABLE_ADMITS(table, player)  # a group's table: its members only
        if not_admitted:
            raise Forbidden(not_admitted)
        if table.seats.count() >= MAX_TABLE_SEATS:
            raise StaleAction(_("That table is full."))
        TableSeat.objects.create(table=table, player=player)
    notify.table_changed(table.code)
    if table.rematch_of_id:
        _start_rematch_when_all_in(table)
    return table


def start_table(
    visitor: str | None, code: str, *, address: str | None = None, timer: str = "", pace: str = ""
) -> Game:
    """The host starts the game for everyone seated (2 to 6).

    ``timer``: the turn timer the host chose, as posted ("" or "off", "30", "60", "120");
    ``pace``: "live" (the default) or "own" (a day a turn, nobody away: the timer is ignored).
    """
    player = require_player(visitor)
    with transaction.atomic():
        tables = Table.objects.select_for_update().filter(rematch_of=None)  # rematches start alone
        table = _find_table(tables, player.visitor, code, address)
        if table.host != player:
            raise Forbidden(_("Only the host can start the game."))
        if table.started:
            raise StaleAction(_("That table has already started its game."))
        players = [seat.player for seat in table.seats.select_related("player")]
        if len(players) < 2:
            raise ActionRefused(_("Wait for at least one more player."))
        try:
            turn_seconds = clock.parse_turn_seconds(timer)
            chosen = clock.parse_pace(pace)
        except ValueError:
            raise ActionRefused(BAD_TIMER) from None
        table.game = start_unranked(
            players, turn_seconds=turn_seconds, pace=chosen, rules=table.rules
        )
        table.save(update_fields=["game"])
    notify.table_changed(table.code)
    notify.navigate([p.visitor for p in players], table.game, table=table.code)
    return table.game


def _check_players(visitor: str | None, game: Game) -> Player:
    """This browser's player, one of a finished online game's."""
    player = require_player(visitor)
    if game.mode != Game.Mode.ONLINE or game.seat_of(visitor) is None:
        raise Forbidden(_("This game is not yours: you can watch it but not play in it."))
    if game.status != Game.Status.FINISHED:
        raise StaleAction(_("The game is not over yet."))
    return player


def rematch(visitor: str | None, game: Game) -> Table:
    """Offer (or accept) a rematch of a finished online game; it starts once everyone accepts.

    Refused once one of the invited declined it, and while another player is gone (no page of
    theirs open on the game: ``games.presence.gone_from``), as they could not answer, or would
    find a game started without them.
    """
    player = _check_players(visitor, game)
    others = [seat.visitor for seat in game.ordered_seats() if seat.visitor != visitor]
    if apart.any_apart(
        player.pk, Player.objects.filter(visitor__in=others).values_list("pk", flat=True)
    ):
        raise Forbidden(CANNOT_REMATCH)
    asked = (
        TableSeat.objects.filter(table__rematch_of=game)
        .exclude(table__in=Table.objects.expired())  # as the page reads it (rematch_offer)
        .values_list("player__visitor", "joined_at")
    )
    gone = presence.gone_from(game, visitor, dict(asked))
    if gone:
        raise StaleAction(
            _("No rematch: %(names)s left the game."), names=", ".join(s.name for s in gone)
        )
    with transaction.atomic():
        serialize_on("rematch", game.pk)  # two first clicks at once make one table, not two
        table = Table.objects.select_for_update().filter(rematch_of=game).first()
        if table is not None and table.expired:  # an offer a day old: this one starts afresh
            table.delete()
            table = None
        if table is None:
            table = Table.objects.create(host=player, rematch_of=game, rules_key=game.rules_key)
        if table.declined_by_id:
            raise StaleAction(DECLINED, name=table.declined_by.name)
    presence.asked_here(game.pk, visitor)
    join_table(visitor, table.code)
    notify.game_changed(game.id)
    return table


def decline_rematch(visitor: str | None, game: Game) -> Table:
    """Decline the rematch another player offered: it is over, and its offerer's page says so."""
    player = _check_players(visitor, game)
    with transaction.atomic():
        serialize_on("rematch", game.pk)
        table = Table.objects.select_for_update().filter(rematch_of=game).first()
        if table is None or table.expired:
            raise StaleAction(NO_OFFER)
        if table.started:
            raise StaleAction(_("The rematch has already started."))
        if table.declined_by_id:
            raise StaleAction(DECLINED, name=table.declined_by.name)
        if table.seats.filter(player=player).exists():
            raise StaleAction(_("You have accepted this rematch: there is nothing to decline."))
        table.declined_by = player
        table.save(update_fields=["declined_by"])
    notify.game_changed(game.id)
    return table


def _start_rematch_when_all_in(table: Table) -> None:
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        wanted = {s.visitor for s in table.rematch_of.ordered_seats() if s.visitor}
        seated = list(table.seats.select_related("player"))
        if table.started or {s.player.visitor for s in seated} != wanted:
            return
        # A rematch keeps the timer and the variant of the game it follows, but not the clock a
        # ranked or diamond match always has (games.clock.COMPETITIVE_TURN_SECONDS): a rematch
        # is neither.
        last = table.rematch_of
        timer = None if last.ranked or last.stake else last.turn_seconds
        table.game = start_unranked(
            [s.player for s in seated], turn_seconds=timer, pace=last.pace, rules=last.rules
        )
        table.save(update_fields=["game"])
    notify.navigate(sorted(wanted), table.game, rematch_of=table.rematch_of_id)
    notify.game_changed(table.rematch_of_id)
