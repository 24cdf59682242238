"""A player's stats, solo and online, from their games' summaries (``history.Summary``), one
game at a time (``Summary.rules_key``: Yatzy's scores are not Yahtzee's), Yahtzee unless asked.

Only games whose card was filled to the end count (``Summary.complete``): a game ended early
says nothing of how one scores. The counts, sums, mean and best come from the database's
aggregates, which are exact on these integer columns; the median and the histogram from the
ordered totals (one integer per game). A player's points lost per decision and accuracy are means
over all their valued decisions, not over games: each game weighs as many decisions as it had.
The charts are plain SVG coordinates for the templates to draw (``templates/history/_stats.html``).

Kept, exact, in ``StatsCache``: worked out from a browser's summaries, the aggregates take about
10 ms for 1,000 games (bench_stats.py), more than the rest of a profile page. The stats kept are
shown only while the browser's counts of summaries and of valued ones are what they were before
the stats were worked out: summaries are only added, or valued once, so any change since moves
one of the counts (one indexed count, read on every view).
"""

from __future__ import annotations

import dataclasses
import statistics
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, Q, Sum
from django.utils.translation import ngettext

from engine.rulesets import RULE_SETS, YAHTZEE
from games.models import Game
from history.models import StatsCache, Summary

TREND_GAMES = 50  # the trend chart draws the last games only: readable on a phone
# Fewer games than this draw no charts: a dot and a lone bar said nothing and looked broken.
CHART_MIN_GAMES = 3
BIN_WIDTH = 25  # the histogram's bins of points
# The charts' drawing areas, in the SVGs' own units (they scale to the page's width).
CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN = 600, 150, 12
# Which games each section of stats is about.
SECTIONS = {"solo": Game.Mode.SOLO, "online": Game.Mode.ONLINE}


@dataclass(frozen=True)
class Stats:
    """What a player's games of one kind came to."""

    games: int
    average: float
    median: float
    best: int
    bonus_rate: float  # the share of games with the upper bonus, 0-1
    yahtzees_per_game: float
    decisions: int  # decisions valued by the perfect player
    loss_per_decision: float | None  # None: none valued yet
    accuracy: float | None  # 0-100, the mean of the decisions' accuracies
    # What the charts draw, kept as numbers (their coordinates are worked out as shown, so a
    # new drawing of them needs no stats worked out again): the last games' totals and
    # accuracies, oldest first, and how many games fell in each bin from ``first_bin`` on.
    last_totals: list[int]
    last_accuracies: list[float | None]
    first_bin: int
    bins: list[int]

    @property
    def bonus_percent(self) -> float:
        """The upper-bonus rate as a percentage."""
        return 100 * self.bonus_rate

    @property
    def trend(self) -> dict:
        """The trend chart's coordinates."""
        return trend(self.last_totals, self.last_accuracies)

    @property
    def histogram(self) -> dict:
        """The histogram's bars."""
        return histogram(self.first_bin, self.bins)


def stats(visitor: str, mode: str, rules_key: str = YAHTZEE.key) -> Stats | None:
    """The stats of this browser's (or profile's) complete games of ``mode`` in one game (a
    rule set's key); None: no game."""
    games = Summary.objects.of_visitor(visitor).filter(
        mode=mode, rules_key=rules_key, complete=True
    )
    valued = Q(decisions__isnull=False)
    totals = games.aggregate(
        games=Count("id"),
        points=Sum("total"),
        best=Max("total"),
        bonuses=Count("id", filter=Q(upper_bonus=True)),
        yahtzees=Sum("yahtzees"),
        # Named apart from the columns: an aggregate may not take a column's name.
        valued_decisions=Sum("decisions", filter=valued),
        points_lost=Sum("loss", filter=valued),
        accuracy_sum=Sum(F("accuracy") * F("decisions"), filter=valued & Q(accuracy__isnull=False)),
    )
    count = totals["games"]
    if not count:
        return None
    scores = list(games.order_by("total").values_list("total", flat=True))
    decisions = totals["valued_decisions"] or 0
    last = list(games.values_list("total", "accuracy")[:TREND_GAMES])[::-1]
    return Stats(
        games=count,
        average=totals["points"] / count,
        median=statistics.median(scores),
        best=totals["best"],
        bonus_rate=totals["bonuses"] / count,
        yahtzees_per_game=totals["yahtzees"] / count,
        decisions=decisions,
        loss_per_decision=totals["points_lost"] / decisions if decisions else None,
        accuracy=(totals["accuracy_sum"] or 0.0) / decisions if decisions else None,
        last_totals=[total for total, _ in last],
        last_accuracies=[acc for _, acc in last],
        first_bin=scores[0] // BIN_WIDTH,
        bins=bin_counts(scores),
    )


def trend(totals: list[int], accuracies: list[float | None]) -> dict:
    """The last games' scores (and accuracies, on a 0-100 scale of their own) as SVG points."""
    inner_w, inner_h = CHART_WIDTH - 2 * CHART_MARGIN, CHART_HEIGHT - 2 * CHART_MARGIN
    step = inner_w / max(len(totals) - 1, 1)
    high = max(max(totals), 100)  # a chart of low scores still starts at 0

    def y(value: float, top: float) -> float:
        return CHART_MARGIN + (1 - value / top) * inner_h

    scores = [(CHART_MARGIN + i * step, y(total, high)) for i, total in enumerate(totals)]
    valued = [
        (CHART_MARGIN + i * step, y(acc, 100.0))
        for i, acc in enumerate(accuracies)
        if acc is not None
    ]
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "games": len(totals),
        "scores": _points(scores),
        "accuracy": _points(valued) if len(valued) > 1 else "",
        "last": {"x": f"{scores[-1][0]:.1f}", "y": f"{scores[-1][1]:.1f}"},
        "low": min(totals),
        "high": max(totals),
    }


def bin_counts(scores: list[int]) -> list[int]:
    """How many of these (sorted) scores fall in each bin of ``BIN_WIDTH`` points, from the
    lowest score's bin to the best's."""
    first = scores[0] // BIN_WIDTH
    bins = [0] * (scores[-1] // BIN_WIDTH - first + 1)
    for score in scores:
        bins[score // BIN_WIDTH - first] += 1
    return bins


def histogram(first: int, bins: list[int]) -> dict:
    """The bins' counts as the SVG bars of a histogram."""
    tallest = max(bins)
    inner_w, inner_h = CHART_WIDTH - 2 * CHART_MARGIN, CHART_HEIGHT - 2 * CHART_MARGIN
    width = inner_w / len(bins)
    bars = []
    for index, games in enumerate(bins):
        height = games / tallest * inner_h
        bars.append(
            {
                "x": f"{CHART_MARGIN + index * width:.1f}",
                "y": f"{CHART_MARGIN + inner_h - height:.1f}",
                "width": f"{max(width - 2, 1):.1f}",
                "height": f"{height:.1f}",
                "low": (first + index) * BIN_WIDTH,
                "high": (first + index + 1) * BIN_WIDTH - 1,
                "games": games,
            }
        )
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "bars": bars,
        "tallest": tallest,
        "low": bars[0]["low"],
        "high": bars[-1]["high"],
    }


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def last_game_played(visitor: str) -> str:
    """The key of the game (rule set) of this browser's newest game played to the end; Yahtzee's
    when none: what My games shows the stats of unless asked."""
    last = (
        Summary.objects.filter(visitor=visitor, complete=True)
        .order_by("-finished_at", "-id")
        .values_list("rules_key", flat=True)
        .first()
    )
    return last if last in RULE_SETS else YAHTZEE.key


def games_played(visitor: str) -> list[str]:
    """The keys of the games (rule sets) this browser played to the end, in the site's order,
    Yahtzee always first: what its stats may be shown of."""
    played = set(
        Summary.objects.filter(visitor=visitor, complete=True)
        .values_list("rules_key", flat=True)
        .distinct()
    )
    return [key for key in RULE_SETS if key == YAHTZEE.key or key in played]


def sections(visitor: str, rules_key: str = YAHTZEE.key) -> list[dict]:
    """The stats of the solo and the online games of one game (a rule set's key), each with its
    key for the template (kept in ``StatsCache`` while the browser's summaries have not
    changed)."""
    counts = Summary.objects.filter(visitor=visitor).aggregate(
        summaries=Count("id"), valued=Count("decisions")
    )
    if not counts["summaries"]:  # no finished game: nothing to keep, or to look up
        return [{"key": key, "stats": None} for key in SECTIONS]
    # What the drawn sections depend on (with the language): the template keeps them drawn under
    # it ({% cache %}), as StatsCache keeps the numbers: drawing two sections took 4-5 ms of a
    # profile page of 1,000 games (bench_stats.py).
    version = f"{visitor}:{rules_key}:{counts['summaries']}:{counts['valued']}"
    kept = StatsCache.objects.filter(visitor=visitor, rules_key=rules_key, **counts).first()
    found = None
    if kept is not None:
        try:
            found = {key: Stats(**value) if value else None for key, value in kept.stats.items()}
        except TypeError:  # kept by a version of Stats with other fields: work them out again
            found = None
    if found is None:
        found = {key: stats(visitor, mode, rules_key) for key, mode in SECTIONS.items()}
        _keep(visitor, rules_key, counts, found)
    # The game is named where it is not the site's own, or where the player has played others
    # (the sections' headings say it: "Solo stats · Yahtzee" beside a choice of Yatzy), and so
    # is its box of five (six) alike, whose count a section gives ("Yatzy per game").
    rules = RULE_SETS[rules_key]
    named = {"game": "", "alike": ""}
    if rules_key != YAHTZEE.key:
        alike = rules.box(rules.yahtzee_box).name if rules.yahtzee_box else ""
        named = {"game": rules.name, "alike": alike}
    elif len(games_played(visitor)) > 1:
        named["game"] = rules.name
    return [_section(key, found[key]) | {"version": version, **named} for key in SECTIONS]


def _section(key: str, found: Stats | None) -> dict:
    """One section for the template: the stats and their charts' coordinates."""
    if found is None:
        return {"key": key, "stats": None}
    if found.games < CHART_MIN_GAMES:
        return {"key": key, "stats": found, "charts_after": CHART_MIN_GAMES}
    histogram = found.histogram
    # What each bar says, in the request's language (a template tag in the loop took a third
    # of the stats' rendering time).
    for bar in histogram["bars"]:
        bar["label"] = (
            ngettext(
                "%(low)s–%(high)s: %(games)s game",
                "%(low)s–%(high)s: %(games)s games",
                bar["games"],
            )
            % bar
        )
    return {"key": key, "stats": found, "trend": found.trend, "histogram": histogram}


def _keep(visitor: str, rules_key: str, counts: dict, found: dict[str, Stats | None]) -> None:
    """Keep the stats worked out after the summaries were counted (``counts``)."""
    kept = {key: dataclasses.asdict(value) if value else None for key, value in found.items()}
    try:
        with transaction.atomic():
            StatsCache.objects.update_or_create(
                visitor=visitor, rules_key=rules_key, defaults={**counts, "stats": kept}
            )
    except IntegrityError:  # another view of the same stats kept them first: theirs will do
        pass
