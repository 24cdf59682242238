"""Going online, challenges, private tables and rematches: checks, changes and notifications.

Who may act and how often (the player, the rate limits) is in ``lobby.access``.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import clock
from games.flow import _
from games.forms import clean_name
from games.locks import serialize_on
from games.models import Game
from games.names import look_alike_key
from games.services import ActionRefused, NotFound, StaleAction, start_online_game
from lobby import apart, diamonds, notify

# Who may act and how often live in lobby.access; the callers from before the split (the
# lobby's views, history, profiles' pages, the tests) import these from here, as before.
from lobby.access import Forbidden, check_rate, require_player
from lobby.access import TooMany as TooMany
from lobby.access import player_of as player_of
from lobby.models import (
    MAX_TABLE_SEATS,
    ONLINE_WINDOW,
    QUEUE_LOCK,
    Challenge,
    Player,
    QueueEntry,
    Table,
    TableSeat,
    expires_from_now,
)


class Gone(StaleAction):
    """The table's lifetime ran out before its game started."""

    status = 410


NO_TABLE = _("There is no table with that code.")
# What a block (``lobby.apart``) refuses, saying no more: not who blocked whom, nor whether the
# other player is online or at the table.
CANNOT_CHALLENGE = _("You cannot challenge this player.")
CANNOT_JOIN = _("You cannot join this table.")
CANNOT_REMATCH = _("You cannot play a rematch with these players.")


def go_online(visitor: str, raw_name: str, *, address: str | None = None) -> Player:
    """Choose (or change) this browser's display name, making its lasting profile the first time.

    Names are unique among all profiles, online or not, where a look-alike of a name in use
    (``games.names``) counts as the same name.
    """
    check_rate(visitor, "name", address)
    from django.core.exceptions import ValidationError

    try:
        name = clean_name(raw_name)
    except ValidationError as error:
        raise ActionRefused(str(error.messages[0])) from None
    key = look_alike_key(name)
    with transaction.atomic():
        serialize_on("name", key)
        taken = Player.objects.filter(name_key=key).exclude(visitor=visitor).first()
        if taken and taken.name.casefold() == name.casefold():
            raise ActionRefused(_("Someone is already called that: choose another name."))
        if taken:
            raise ActionRefused(_("Someone has a name that looks the same: choose another name."))
        player, created = Player.objects.update_or_create(
            visitor=visitor,
            defaults={
                "name": name,
                "name_key": key,
                "online_until": timezone.now() + ONLINE_WINDOW,
            },
        )
        if created:
            diamonds.welcome(player)
    notify.lobby_changed()
    return player


def challenge(
    visitor: str | None,
    opponent_id: int,
    *,
    stake: int = 0,
    pace: str = "",
    address: str | None = None,
) -> Challenge:
    """Ask an online player for a game; with a ``stake``, a diamond match (always live).

    ``pace``: "live" (the default) or "own" (a day a turn, nobody away), as posted.
    """
    player = require_player(visitor)
    check_rate(player.visitor, "challenge", address)
    opponent = Player.objects.online().filter(pk=opponent_id).first()
    if opponent is None:
        raise NotFound(_("That player is not online any more."))
    if opponent == player:
        raise ActionRefused(_("You cannot challenge yourself."))
    try:
        chosen = clock.parse_pace(pace)
    except ValueError:
        raise ActionRefused(_("Choose a pace: live or at your own pace.")) from None
    if stake and chosen != Game.Pace.LIVE:
        # A stake is won or lost in one sitting: a diamond match, like a ranked one, is live.
        raise ActionRefused(_("A match for diamonds is played live: choose Live or no stake."))
    diamonds.check_stake(stake, player, opponent)
    with transaction.atomic():
        serialize_on("pair", *sorted([player.pk, opponent.pk]))  # a block takes it too
        if opponent.pk in apart.kept_apart(player.pk):
            raise Forbidden(CANNOT_CHALLENGE)
        pending = Challenge.objects.filter(
            challenger=player, challenged=opponent, status=Challenge.Status.PENDING,
            expires_at__gt=timezone.now(),
        )  # fmt: skip
        if pending.exists():
            raise StaleAction(_("You have already challenged that player."))
        made = Challenge.objects.create(
            challenger=player,
            challenged=opponent,
            stake=stake,
            pace=chosen,
            expires_at=expires_from_now(),
        )
    notify.players_changed(player.visitor, opponent.visitor)
    return made


def answer(visitor: str | None, challenge_id: int, verb: str) -> Challenge:
    """Accept, decline (the challenged player) or cancel (the challenger) a challenge."""
    player = require_player(visitor)
    with transaction.atomic():
        found = Challenge.objects.filter(pk=challenge_id).values_list(
            "challenger_id", "challenged_id"
        )
        if not found:
            raise NotFound(_("There is no such challenge."))
        # Crossed challenges accepted at once would each lock their own row and then the other's
        # (a deadlock on PostgreSQL): the two players' answers take turns instead.
        serialize_on("pair", *sorted(found[0]))
        made = (
            Challenge.objects.select_for_update()
            .select_related("challenger", "challenged")
            .get(pk=challenge_id)
        )
        mine = made.challenger if verb == "cancel" else made.challenged
        if mine != player:
            raise Forbidden(_("That challenge is not yours to answer."))
        if made.status == Challenge.Status.CANCELLED:
            raise StaleAction(_("That challenge was cancelled."))
        if made.status != Challenge.Status.PENDING:
            raise StaleAction(_("That challenge has already been answered."))
        if made.expires_at <= timezone.now():
            raise StaleAction(_("That challenge has expired."))
        if verb == "accept":
            players = [made.challenger, made.challenged]
            if not made.challenger.online_until or made.challenger.online_until <= timezone.now():
                # Started now, their seat would count as away from its first moment, and a
                # stake would be lost to a game they never saw.
                raise StaleAction(_("That player is not online any more."))
            # Both rows locked in one order before the stake is checked (a top-up locks them
            # too): three players accepting each other's challenges at once must not deadlock.
            list(
                Player.objects.select_for_update()
                .filter(pk__in=[p.pk for p in players])
                .order_by("pk")
            )
            diamonds.check_stake(made.stake, made.challenged, made.challenger)
            made.game = _start(players, stake=made.stake, pace=made.pace)
            diamonds.escrow(made.game, players)
            made.status = Challenge.Status.ACCEPTED
            # A crossed challenge (B had also challenged A) must not start a second game.
            Challenge.objects.filter(
                status=Challenge.Status.PENDING,
                challenger__in=[made.challenger, made.challenged],
                challenged__in=[made.challenger, made.challenged],
            ).exclude(pk=made.pk).update(status=Challenge.Status.CANCELLED)
        else:
            made.status = (
                Challenge.Status.CANCELLED if verb == "cancel" else Challenge.Status.DECLINED
            )
        made.answered_at = timezone.now()
        made.save()
    notify.players_changed(made.challenger.visitor, made.challenged.visitor)
    if made.game:
        notify.navigate([made.challenger.visitor, made.challenged.visitor], made.game)
    return made


def _start(
    players: list[Player], *, stake: int = 0, turn_seconds: int | None = None, pace: str = "live"
) -> Game:
    """An unranked online game for these players, who leave the ranked queue if they were in it
    (under the queue's lock, which its pairing holds: they are not paired into a second game)."""
    serialize_on(QUEUE_LOCK)
    QueueEntry.objects.filter(player__in=players).delete()
    return start_online_game(players, stake=stake, turn_seconds=turn_seconds, pace=pace)


BAD_TIMER = _(
    "Choose what the table offers: live with no timer or 30, 60 or 120 seconds a turn, or at "
    "your own pace."
)


def create_table(visitor: str | None, *, address: str | None = None) -> Table:
    """A private table hosted by this player, who is its first seat."""
    player = require_player(visitor)
    check_rate(player.visitor, "join", address)
    # Tables that expired go as new ones are made: no timer to run, and they never pile up.
    Table.objects.expired().delete()
    for _attempt in range(5):
        try:
            with transaction.atomic():
                table = Table.objects.create(host=player)
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
        if table.started:
            raise StaleAction(_("That table has already started its game."))
        # A table is its host's: nobody with a block either way with the host or anyone seated.
        seated = set(table.seats.values_list("player_id", flat=True)) | {table.host_id}
        if apart.any_apart(player.pk, seated):
            raise Forbidden(CANNOT_JOIN)
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
        table.game = _start(players, turn_seconds=turn_seconds, pace=chosen)
        table.save(update_fields=["game"])
    notify.table_changed(table.code)
    notify.navigate([p.visitor for p in players], table.game, table=table.code)
    return table.game


def rematch(visitor: str | None, game: Game) -> Table:
    """Offer (or accept) a rematch of a finished online game; it starts once everyone accepts."""
    player = require_player(visitor)
    if game.mode != Game.Mode.ONLINE or game.seat_of(visitor) is None:
        raise Forbidden(_("This game is not yours: you can watch it but not play in it."))
    if game.status != Game.Status.FINISHED:
        raise StaleAction(_("The game is not over yet."))
    others = [seat.visitor for seat in game.ordered_seats() if seat.visitor != visitor]
    if apart.any_apart(
        player.pk, Player.objects.filter(visitor__in=others).values_list("pk", flat=True)
    ):
        raise Forbidden(CANNOT_REMATCH)
    with transaction.atomic():
        serialize_on("rematch", game.pk)  # two first clicks at once make one table, not two
        table = Table.objects.select_for_update().filter(rematch_of=game).first()
        if table is not None and table.expired:  # an offer a day old: this one starts afresh
            table.delete()
            table = None
        if table is None:
            table = Table.objects.create(host=player, rematch_of=game)
    join_table(visitor, table.code)
    notify.game_changed(game.id)
    return table


def _start_rematch_when_all_in(table: Table) -> None:
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        wanted = {s.visitor for s in table.rematch_of.ordered_seats() if s.visitor}
        seated = list(table.seats.select_related("player"))
        if table.started or {s.player.visitor for s in seated} != wanted:
            return
        # A rematch keeps the timer of the game it follows.
        last = table.rematch_of
        table.game = _start(
            [s.player for s in seated], turn_seconds=last.turn_seconds, pace=last.pace
        )
        table.save(update_fields=["game"])
    notify.navigate(sorted(wanted), table.game, rematch_of=table.rematch_of_id)
    notify.game_changed(table.rematch_of_id)
