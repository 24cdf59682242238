"""Summing up a finished game from its action log, once per person's seat (``history.Summary``).

``on_finish`` writes the summaries in the transaction of the action that finishes the game
(``games.events.game_finishing``), so they commit with it: the totals, the result, the bonuses.
Their decisions are valued by the perfect player later, when a page first shows them (``My
games``, a profile, the day's boards: ``fill_missing`` and ``value_missing``): that analysis
takes 15-35 ms of CPU a game, and in the last move it held up every other socket of its process
(``bench_live.py``: the slowest score 41-55 ms before, 12-18 ms after, docs/benchmarks.md).
``fill_missing`` also works out, from the log, summaries a browser lacks: games that finished
before summaries existed. Either way the numbers come from replaying the log, the same for every
game.

Accuracy: each decision's expected points lost against the perfect player is turned into a score
from 100 (the best move) down to 0, as Lichess turns what a chess move loses into an accuracy,
``103.1668 * exp(-0.04354 * loss) - 3.1669``: there the loss is in winning chances, here in points.
A decision losing 1 point scores 95.6, 3 points 87.4, 8 points (a blunder) 69.7, 25 points 31.6.
A game's or a player's accuracy is the mean over their decisions: each summary keeps its game's
mean, and a player's is the mean of those weighted by the games' decisions (``history.stats``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from engine.analysis import Analysis, analyse
from engine.flow import GameState, replay
from engine.rulesets import RULE_SETS
from games import advice
from games.models import Game, Seat
from history.models import Summary

COSTLIEST_KEPT = 3  # decisions of each game kept for "learn from your mistakes"


def accuracy(loss: float) -> float:
    """A decision's accuracy, 0-100, from the expected points it lost (see the module's doc)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * max(loss, 0.0)) - 3.1669))


def actions_of(game: Game) -> list[tuple[int, str, dict]]:
    """The game's log as ``(seat, kind, payload)``, in order."""
    return [(a.seat, a.kind, a.payload) for a in game.actions.order_by("seq")]


def analysis_of(game: Game, seat: int, actions=None) -> Analysis | None:
    """Every decision of ``seat`` valued by the perfect player (None while its table is missing)."""
    advisor = advice.advisor(game.rules)
    if advisor is None:
        return None
    return analyse(
        actions if actions is not None else actions_of(game),
        seats=len(game.ordered_seats()),
        seat=seat,
        rules=game.rules,
        advisor=advisor,
    )


def summarise(
    game: Game, state: GameState | None = None, actions=None, *, valued: bool = True
) -> list[Summary]:
    """The summaries of a finished game's people (not saved), worked out from its log; with
    their decisions valued by the perfect player unless ``valued`` is false."""
    seats = game.ordered_seats()
    if actions is None and (valued or state is None):  # the last move's own: not read again
        actions = actions_of(game)
    if state is None:
        state = replay(actions, len(seats), rules=game.rules)
    results = state.results()
    summaries = []
    for seat in seats:
        if seat.bot or not seat.visitor:
            continue
        card = state.cards[seat.position]
        analysis = analysis_of(game, seat.position, actions) if valued else None
        summaries.append(
            Summary(
                seat=seat,
                game=game,
                visitor=seat.visitor,
                mode=game.mode,
                rules_key=game.rules_key,
                ranked=game.ranked,
                stake=game.stake,
                # A duplicate tournament's round shows its seed later too, but is always timed;
                # the daily challenge never is.
                daily=game.reveal_after is not None and not game.turn_seconds,
                finished_at=game.updated_at or timezone.now(),
                total=card.total,
                upper_bonus=card.upper_bonus > 0,
                yahtzees=card.yahtzees,
                result=results[seat.position] if len(seats) > 1 else 1.0,
                forfeited=seat.position in state.forfeited,
                complete=card.is_full,
            )
        )
        if analysis is not None:
            _value(summaries[-1], analysis, save=False)
    return summaries


def on_finish(sender, game: Game, state: GameState, **kwargs) -> None:
    """Write the summaries of a game as it finishes (``games.events.game_finishing``), their
    decisions not valued yet (see the module's doc)."""
    Summary.objects.bulk_create(summarise(game, state, valued=False))


def fill_missing(visitor: str, limit: int = 50) -> int:
    """Work out up to ``limit`` of this browser's missing summaries from the logs; how many.

    Missing: finished games with no summary of this browser's seats, and summaries whose
    decisions were not valued yet (every game's until a page shows it, see the module's doc).
    """
    if not visitor:
        return 0
    # Every view of My games and of a profile asks: two queries on small indexes when nothing
    # is missing, the usual case (a query of every finished seat and its summary took 3 ms of
    # a 40 ms profile page of 1,000 games, bench_stats.py). A browser's seats without a summary
    # are few (its games in play) and unvalued summaries have an index of their own.
    unsummarised = Seat.objects.filter(visitor=visitor, summary__isnull=True).values("game_id")
    unvalued = Summary.objects.filter(visitor=visitor, decisions__isnull=True)
    finished = Game.objects.filter(pk__in=unsummarised, status=Game.Status.FINISHED)
    any_unvalued = unvalued.exists()
    if not any_unvalued and not finished.exists():
        return 0
    done = value_missing(unvalued, limit) if any_unvalued else 0
    for game_id in finished.values_list("pk", flat=True)[: max(limit - done, 0)]:
        done += _summarise_again(game_id)
    return done


def value_missing(summaries: QuerySet[Summary], limit: int = 50) -> int:
    """Value the decisions of up to ``limit`` of these summaries not valued yet, the newest
    games first (the ones pages show first); how many.

    Only the games whose rule set's table is loaded: the others stay for a later view (a game
    the perfect player does not know, for good), and are not read in vain on every view, nor
    keep the games it knows from being valued. Two requests may value the same summary at once:
    both write the same numbers.
    """
    known = [key for key, rules in RULE_SETS.items() if advice.is_ready(rules)]
    if not known:
        return 0
    done = 0
    unvalued = summaries.filter(decisions__isnull=True, rules_key__in=known)
    unvalued = unvalued.order_by("-finished_at")
    for summary in unvalued.select_related("seat")[:limit]:
        game = Game.objects.prefetch_related("seats").get(pk=summary.game_id)
        analysis = analysis_of(game, summary.seat.position)
        if analysis is not None:
            _value(summary, analysis)
            done += 1
    return done


def _value(summary: Summary, analysis: Analysis, *, save: bool = True) -> None:
    """Put the perfect player's valuation of the seat's decisions in its summary."""
    decisions = analysis.decisions
    summary.decisions = len(decisions)
    summary.loss = analysis.total_loss
    summary.accuracy = (
        sum(accuracy(d.loss) for d in decisions) / len(decisions) if decisions else None
    )
    summary.costliest = [
        {"index": d.index, "loss": round(d.loss, 4)} for d in analysis.costliest(COSTLIEST_KEPT)
    ]
    if save:
        summary.save(update_fields=["decisions", "loss", "accuracy", "costliest"])


def _summarise_again(game_id: str) -> int:
    """Write the missing summaries of one finished game (another request may be doing it too)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game_id)
        have = set(Summary.objects.filter(game=game).values_list("seat_id", flat=True))
        fresh = [s for s in summarise(game) if s.seat_id not in have]
        Summary.objects.bulk_create(fresh)
    return len(fresh)


def summarise_all(games: Iterable[Game]) -> int:
    """Write the missing summaries of these finished games (``manage.py summaries``)."""
    return sum(_summarise_again(game.pk) for game in games)
