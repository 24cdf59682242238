"""Diamonds: a virtual currency, never bought, sold or cashed, that moves only through a ledger.

Every movement is one append-only ``DiamondEntry`` (player, amount, reason, game), written by
``move`` in the same transaction as what caused it, with the player's row locked, so that a
balance (``Player.diamonds``) always equals the sum of its rows. ``manage.py diamonds audit``
checks that, and that all diamonds held or in play add up to all diamonds ever granted.

- A new profile gets WELCOME_GRANT. Once a day a player below FLOOR is topped up to it, when a
  page of theirs asks for the balance (no timer to run). Stakes in the pots of games still being
  played count as the player's: they may come back, so a player whose balance is low only while
  a stake is in play is not topped up (100 staked from 100 gets nothing; 50 with 10 in a pot is
  topped up by 50: 90 held, 10 in play). A stake lost is gone from then on.
- A challenge without a stake moves nothing and writes no row.
- A diamond match is a challenge with a stake from STAKES; it can be made and accepted only with
  enough diamonds. When its game starts, both stakes move into the game's pot (escrow): out of
  the players' accounts, held by the game, so that nobody can stake them twice.
- At the game's end, in the transaction of its final action, the winner takes the pot; a tie
  splits it; a seat that left for good loses (the other wins). The pot of a game is what its
  stakes took out less what it paid back: 0 for every finished game.
- A pot that is not a game's is named (``DiamondEntry.pot``; a tournament's is
  "tournament:<id>", the lobby imports no tournament): entry fees go in (``ENTRY``), a fee comes
  back at most once (``REFUND``, its ``refund_of`` unique), and the podium is paid once
  (``PRIZE``, one a player and pot). Until it is paid out, a named pot's diamonds are in play:
  the audit counts them so, and a player's fees in it count as theirs for the top-up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from core.refusals import ActionRefused
from engine.words import _
from games.models import Game
from lobby.models import DiamondEntry, Player

WELCOME_GRANT = 500
FLOOR = 100
STAKES = (10, 50, 100, 250)
Reason = DiamondEntry.Reason


class NotEnough(ActionRefused):
    """A stake above a balance."""

    status = 409


def move(
    player: Player,
    amount: int,
    reason: str,
    game: Game | None = None,
    *,
    pot: str = "",
    refund_of: DiamondEntry | None = None,
) -> DiamondEntry:
    """Add ``amount`` (negative: take it) to the player's diamonds, with its ledger row.

    Called inside the transaction of what caused it; refuses to leave a balance below zero.
    ``pot`` names a pot that is not a game's (a tournament's, "tournament:<id>"); ``refund_of``
    the fee a refund gives back (once: the column is unique).
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("diamonds move inside the transaction of what moves them")
    balance = (
        Player.objects.select_for_update().values_list("diamonds", flat=True).get(pk=player.pk)
    )
    after = balance + amount
    if after < 0:
        raise NotEnough(
            _("You have %(balance)s diamonds: not enough for a stake of %(stake)s."),
            balance=str(balance),
            stake=str(-amount),
        )
    Player.objects.filter(pk=player.pk).update(diamonds=after)
    player.diamonds = after
    return DiamondEntry.objects.create(
        player=player,
        amount=amount,
        reason=reason,
        game=game,
        balance_after=after,
        pot=pot,
        refund_of=refund_of,
    )


def named_pot(pot: str) -> int:
    """The diamonds a named pot (a tournament's) holds: the fees it took, less what it paid."""
    moved = DiamondEntry.objects.filter(pot=pot).aggregate(total=Sum("amount"))["total"]
    return -(moved or 0)


def refund(fee: DiamondEntry) -> DiamondEntry:
    """Give a fee back to whoever paid it (in the caller's transaction; a second refund of the
    same fee breaks the unique ``refund_of`` and rolls back)."""
    return move(fee.player, -fee.amount, Reason.REFUND, pot=fee.pot, refund_of=fee)


def welcome(player: Player) -> None:
    """The grant of a new profile (once: a constraint allows one grant a player)."""
    with transaction.atomic():
        move(player, WELCOME_GRANT, Reason.GRANT)


def balance(player: Player) -> int:
    """The player's diamonds, after today's top-up if they are below the floor.

    Asked on every lobby redraw: a player below the floor already topped up today costs one read,
    and only the top-up itself locks their row.
    """
    if player.diamonds >= FLOOR or _topped_up_today(player):
        return player.diamonds
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        short = FLOOR - locked.diamonds - in_play(locked)
        if short > 0 and not _topped_up_today(locked):
            move(locked, short, Reason.TOP_UP)
    player.diamonds = locked.diamonds
    return player.diamonds


def in_play(player: Player) -> int:
    """The player's diamonds in the pots of games not finished (staked, not yet won or lost) and
    in named pots still holding diamonds (a tournament's fee, not yet given back or paid out)."""
    moved = (
        DiamondEntry.objects.filter(player=player, game__isnull=False)
        .exclude(game__status=Game.Status.FINISHED)
        .aggregate(total=Sum("amount"))["total"]
    )
    holding = (
        DiamondEntry.objects.exclude(pot="")
        .values("pot")
        .annotate(total=Sum("amount"))
        .filter(total__lt=0)
        .values("pot")
    )
    fees = DiamondEntry.objects.filter(
        player=player, reason=Reason.ENTRY, refund__isnull=True, pot__in=holding
    ).aggregate(total=Sum("amount"))["total"]
    return -(moved or 0) - (fees or 0)


def _topped_up_today(player: Player) -> bool:
    today = timezone.localdate()
    return player.diamond_entries.filter(reason=Reason.TOP_UP, created_at__date=today).exists()


def check_stake(stake: int, player: Player, opponent: Player | None = None) -> None:
    """Refuse a stake that is not one of STAKES, or above the player's or the opponent's balance."""
    if stake == 0:
        return
    if stake not in STAKES:
        raise ActionRefused(_("Choose one of the stakes offered."))
    if balance(player) < stake:
        raise NotEnough(
            _("You have %(balance)s diamonds: not enough for a stake of %(stake)s."),
            balance=str(player.diamonds),
            stake=str(stake),
        )
    if opponent is not None and balance(opponent) < stake:
        raise NotEnough(
            _("Your opponent has not enough diamonds for a stake of %(stake)s."), stake=str(stake)
        )


def escrow(game: Game, players: list[Player]) -> None:
    """Move each player's stake into the game's pot, as the game starts (same transaction);
    a game without a stake moves nothing (no "Stake 0" rows)."""
    if not game.stake:
        return
    for player in sorted(players, key=lambda p: p.pk):  # rows locked in one order everywhere
        move(player, -game.stake, Reason.STAKE, game)


def pot(game: Game) -> int:
    """The diamonds a game holds: its stakes taken, less what it paid out."""
    moved = DiamondEntry.objects.filter(game=game).aggregate(total=Sum("amount"))["total"]
    return -(moved or 0)


def settle(game: Game, outcomes: dict[int, float]) -> None:
    """Pay a finished diamond match's pot: all to the winner, split on a tie.

    ``outcomes`` maps each player's pk to their score (1 won, 0.5 tied, 0 lost). Called in the
    transaction of the game's final action, with the game's row locked; a second call pays
    nothing (the pot is empty, and a constraint allows one payout a player and game).
    """
    held = pot(game)
    if held <= 0:
        return
    best = max(outcomes.values())
    winners = sorted(pk for pk, score in outcomes.items() if score == best)
    reason = Reason.WINNINGS if len(winners) == 1 else Reason.SHARE
    share, left = divmod(held, len(winners))
    for index, pk in enumerate(winners):  # an odd diamond goes to the first seat of the tie
        move(Player.objects.get(pk=pk), share + (1 if index < left else 0), reason, game)


def settle_game(sender, game: Game, state, **kwargs) -> None:
    """Pay a diamond match's pot as it finishes (``games.events.game_finishing``)."""
    if not game.stake:
        return
    results = state.results()
    visitors = {seat.visitor: seat.position for seat in game.ordered_seats()}
    players = Player.objects.filter(visitor__in=visitors).order_by("pk")
    settle(game, {player.pk: results[visitors[player.visitor]] for player in players})


# Which of these named pots are closed (their tournament is over: every fee given back or paid
# out): the apps that name pots answer, in their ``AppConfig.ready``; the audit checks that a
# closed pot is empty.
CLOSED_POTS: list[Callable[[list[str]], set[str]]] = []


@dataclass
class Audit:
    """What ``audit`` found: the totals, and every mismatch as a line."""

    players: int = 0
    granted: int = 0
    held: int = 0
    in_play: int = 0
    problems: list[str] = field(default_factory=list)


def audit() -> Audit:
    """Reconcile every balance with the sum of its ledger rows, every finished game's pot with
    zero, and all diamonds held or in play with all diamonds granted. Reads in one transaction
    (PostgreSQL: one snapshot), so that a game starting meanwhile cannot look like a mismatch."""
    report = Audit()
    with transaction.atomic():
        sums = dict(
            DiamondEntry.objects.values_list("player").annotate(total=Sum("amount")).order_by()
        )
        for pk, name, held in Player.objects.values_list("pk", "name", "diamonds"):
            report.players += 1
            report.held += held
            if sums.get(pk, 0) != held:
                report.problems.append(
                    f"player {pk} ({name}): balance {held}, ledger {sums.get(pk, 0)}"
                )
            if held < 0:
                report.problems.append(f"player {pk} ({name}): a negative balance, {held}")
        pots = (
            DiamondEntry.objects.filter(game__isnull=False)
            .values_list("game", "game__status")
            .annotate(total=Sum("amount"))
            .order_by()
        )
        for game, status, total in pots:
            if status == Game.Status.FINISHED and total != 0:
                report.problems.append(f"game {game}: finished with {-total} left in its pot")
            if total > 0:
                report.problems.append(f"game {game}: paid out {total} more than it took")
            if status != Game.Status.FINISHED:
                report.in_play -= total
        named = (
            DiamondEntry.objects.exclude(pot="")
            .values_list("pot")
            .annotate(total=Sum("amount"))
            .order_by()
        )
        named = list(named)
        closed = set().union(*(hook([name for name, _ in named]) for hook in CLOSED_POTS))
        for name, total in named:  # a tournament's fees are in play until its prizes are paid
            if total > 0:
                report.problems.append(f"{name}: paid out {total} more than it took")
            if name in closed and total != 0:
                report.problems.append(f"{name}: over with {-total} left in its pot")
            report.in_play -= total
        report.granted = (
            DiamondEntry.objects.filter(reason__in=[Reason.GRANT, Reason.TOP_UP]).aggregate(
                total=Sum("amount")
            )["total"]
            or 0
        )
    if report.held + report.in_play != report.granted:
        report.problems.append(
            f"held {report.held} + in play {report.in_play} != granted {report.granted}"
        )
    return report
