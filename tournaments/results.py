"""What a tournament's games count, and its pot: results recorded as each game finishes, fees
given back, prizes paid at the end.

Results. ``write_results`` runs inside the transaction of the action that finishes a game (its
row locked: ``clock.record`` receives ``games.events.game_finishing``), and writes what the game
counted for each entry (``TournamentGame``: result, score, an arena's points, a duplicate round's
points lost), once: only rows not finished yet are written, and the finished game refuses every
later action. It changes no pairing: after the commit the clock moves the tournament on, and
its pages are told once (``clock.record``).

Prizes. The pot (every entry fee, ``lobby.diamonds`` pot "tournament:<id>") goes to the podium
as the tournament finishes, in that transaction, under its row lock: with three or more players
who finished (not left, not the computer) 50/30/20 %, with two 60/40, with one all of it; tied
places share what their places are worth (an odd diamond to the first of them in the standings);
whatever rounding leaves goes to the winner, so the pot ends at 0. With nobody to pay, the fees
go back. A prize is paid once: the tournament is finished in the same transaction, and the ledger
allows one prize a player and pot (``one_prize_per_pot``).
"""

from __future__ import annotations

from django.utils import timezone

from engine.flow import GameState
from games.models import Game
from history.summaries import analysis_of
from lobby import diamonds
from lobby.models import DiamondEntry, Player
from tournaments.formats import arena
from tournaments.models import Entry, Tournament, TournamentGame

SPLITS = {1: (100,), 2: (60, 40), 3: (50, 30, 20)}  # percent of the pot by place


def pot_name(tournament: Tournament | str) -> str:
    """The name of a tournament's pot in the diamond ledger."""
    return f"tournament:{getattr(tournament, 'pk', tournament)}"


def write_results(game: Game, state: GameState) -> str | None:
    """Write a finished tournament game's results; the tournament's id (None: not one's)."""
    rows = list(
        TournamentGame.objects.filter(game=game, finished_at__isnull=True).select_related("entry")
    )
    if not rows:
        return None
    # The game's lock, then the tournament's: every path takes them in this order.
    tournament = Tournament.objects.select_for_update().get(pk=rows[0].tournament_id)
    results, now = state.results(), timezone.now()
    for row in rows:
        row.score = state.cards[row.seat].total
        row.finished_at = now
        if tournament.format == Tournament.Format.DUPLICATE:
            analysis = analysis_of(game, row.seat)
            row.points_lost = round(analysis.total_loss, 2) if analysis else None
        else:
            row.result = results[row.seat]
        if tournament.format == Tournament.Format.ARENA:
            row.points = _arena_points(row)
        row.save(update_fields=["score", "finished_at", "points_lost", "result", "points"])
        entry = row.entry
        entry.points += row.points
        if entry.status == Entry.Status.ACTIVE and tournament.format == Tournament.Format.ARENA:
            entry.waiting_since = now
        entry.save(update_fields=["points", "waiting_since"])
    return tournament.pk


def _arena_points(row: TournamentGame) -> int:
    """What this arena game counts, with the entry's streak before it (``formats.arena``)."""
    before = (
        TournamentGame.objects.filter(entry=row.entry_id, finished_at__isnull=False)
        .exclude(pk=row.pk)
        .order_by("finished_at", "id")
    )
    history = [arena.ArenaGame(r.result, r.berserk) for r in before if r.result is not None]
    history.append(arena.ArenaGame(row.result, row.berserk))
    return arena.game_points(history)[-1]


def closed_pots(names: list[str]) -> set[str]:
    """Of these pot names, those of tournaments that are over (``lobby.diamonds.CLOSED_POTS``:
    the audit checks they are empty)."""
    ids = [name.removeprefix("tournament:") for name in names if name.startswith("tournament:")]
    over = Tournament.objects.filter(
        pk__in=ids, status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
    ).values_list("pk", flat=True)
    return {pot_name(pk) for pk in over}


def refund_fees(tournament: Tournament, players: list[Player] | None = None) -> int:
    """Give back the fees of the pot not given back yet (of ``players``, or everyone's); how
    many diamonds. In the caller's transaction."""
    fees = DiamondEntry.objects.filter(
        pot=pot_name(tournament), reason=DiamondEntry.Reason.ENTRY, refund__isnull=True
    ).select_related("player")
    if players is not None:
        fees = fees.filter(player__in=players)
    given = 0
    for fee in sorted(fees, key=lambda fee: fee.player_id):  # rows locked in one order
        diamonds.refund(fee)
        given -= fee.amount
    return given


def prizes(places: list[tuple[int, int]], pot: int) -> dict[int, int]:
    """Each winner's prize: ``places`` are (rank, player pk) of those who may win, best first.

    >>> prizes([(1, 10), (2, 11), (3, 12), (4, 13)], 100)
    {10: 50, 11: 30, 12: 20}
    >>> prizes([(1, 10), (1, 11), (3, 12)], 101)
    {10: 41, 11: 40, 12: 20}
    >>> prizes([(1, 10), (2, 11)], 7)
    {10: 5, 11: 2}
    """
    if not places or pot <= 0:
        return {}
    split = SPLITS[min(len(places), 3)]
    worth = [pot * percent // 100 for percent in split]
    worth[0] += pot - sum(worth)  # what rounding left goes to the winner
    paid: dict[int, int] = {}
    index = 0
    while index < len(places) and index < len(worth):
        rank = places[index][0]
        tied = [pk for r, pk in places if r == rank]
        share = sum(worth[index : index + len(tied)])
        each, odd = divmod(share, len(tied))
        for number, pk in enumerate(tied):
            paid[pk] = each + (1 if number < odd else 0)
        index += len(tied)
    return {pk: amount for pk, amount in paid.items() if amount}


def pay_prizes(tournament: Tournament) -> dict[int, int]:
    """Pay the pot to the podium (see the module's doc), in the caller's transaction, with the
    tournament's row locked and about to be marked finished. The prizes by player pk."""
    from tournaments.standings import standings

    held = diamonds.named_pot(pot_name(tournament))
    if held <= 0:
        return {}
    entries = {entry.pk: entry for entry in tournament.entries.all()}
    places = [
        (row.rank, entries[row.entry_id].player_id)
        for row in standings(tournament)
        if not row.computer and not row.left and row.games
    ]
    paid = prizes(places, held)
    if not paid:
        refund_fees(tournament)
        return {}
    for pk in sorted(paid):
        diamonds.move(
            Player.objects.get(pk=pk), paid[pk], DiamondEntry.Reason.PRIZE, pot=pot_name(tournament)
        )
    return paid


def prizes_paid(tournament: Tournament) -> dict[int, int]:
    """The prizes the tournament paid, by entry id (for its podium; empty before its end)."""
    paid = dict(
        DiamondEntry.objects.filter(
            pot=pot_name(tournament), reason=DiamondEntry.Reason.PRIZE
        ).values_list("player_id", "amount")
    )
    entries = tournament.entries.filter(player_id__in=list(paid)).values_list("pk", "player_id")
    return {pk: paid[player_id] for pk, player_id in entries}
