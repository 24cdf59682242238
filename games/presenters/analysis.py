"""The analysis page of a finished game: its chart, its decisions and the costliest."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from engine.analysis import Analysis, Decision
from games.models import Game, Seat
from games.presenters.coach import move_words
from games.presenters.players import seat_name
from games.presenters.words import label


@dataclass(frozen=True)
class Die:
    """One die of a decision on the analysis page."""

    index: int
    face: int | None
    held: bool


GRADE_NAMES = {
    "fine": _("fine"),
    "inaccuracy": _("inaccuracy"),
    "mistake": _("mistake"),
    "blunder": _("blunder"),
}


CHANCE_THRESHOLDS = (("fine", 0.0), ("inaccuracy", 0.01), ("mistake", 0.03), ("blunder", 0.06))
"""Chance to win lost (0 to 1) from which a two-player decision gets each class: at an even
position the points' thresholds (1, 3, 8) cost about this much of the chance to win."""

DECIDED = 0.01
"""A position whose best chance to win is under this (or over 1 minus it) is decided: there the
points alone grade a decision, as every move leaves the result as it was."""

GRADES = [name for name, _ in CHANCE_THRESHOLDS]


def grade_of(decision: Decision) -> str:
    """A decision's class: in a two-player game that the win model knows, by the chance to win
    it gave away (what the game is played for: a move that wins more often is no mistake for
    the points it gives away), except in a decided position; elsewhere by the points lost."""
    lost, best = decision.chance_lost, decision.best_chance
    if lost is None or best is None or not DECIDED <= best <= 1 - DECIDED:
        return decision.grade
    return [name for name, floor in CHANCE_THRESHOLDS if lost >= floor - 1e-12][-1]


CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 640, 220, 36


def analysis_context(game: Game, seat: Seat, result: Analysis, viewer: str | None = None) -> dict:
    """The analysis page: summary, chart points, every decision and the three costliest.

    It speaks to the player ("you gave away") only in the browser that played the seat; anyone
    else (a shared game, an online one) reads of the player by name.
    """
    own = not seat.bot and bool(viewer) and seat.visitor == viewer

    def row(decision: Decision) -> dict:
        grade = grade_of(decision)
        lost = decision.chance_lost
        return {
            "decision": decision,
            "dice": [
                Die(i, face, held)
                for i, (face, held) in enumerate(zip(decision.dice, decision.held, strict=True))
            ],
            "played": move_words(decision.move, decision.card, decision.dice),
            "best": move_words(decision.best, decision.card, decision.dice),
            "grade": grade,
            "grade_name": gettext(GRADE_NAMES[grade]),
            "filled": [(label(box), points) for box, points in decision.card.boxes.items()],
            # The chance to win given away, in points of a hundred (None: not a game of two).
            "chance_lost": None if lost is None else 100 * lost,
        }

    rows = [row(d) for d in result.decisions]
    values = [result.start_value] + [d.value for d in result.decisions]
    low, high = min(values), max(values)
    span = max(high - low, 1.0)
    step = (CHART_WIDTH - 2 * CHART_PAD) / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return round(
            CHART_HEIGHT - CHART_PAD - (value - low) / span * (CHART_HEIGHT - 2 * CHART_PAD), 1
        )

    points = [
        {"x": round(CHART_PAD + i * step, 1), "y": y(v), "value": v,
         "grade": rows[i - 1]["grade"] if i else "start"}
        for i, v in enumerate(values)
    ]  # fmt: skip
    counts = {grade: sum(r["grade"] == grade for r in rows) for grade in GRADES}
    # The costliest: the worst graded first, then by the points lost (what the engine ranks).
    costliest = sorted(
        (rows[d.index] for d in result.decisions if d.loss > 1e-9 or d.chance_lost),
        key=lambda r: (-GRADES.index(r["grade"]), -r["decision"].loss),
    )[:3]
    return {
        "game": game,
        "seat": seat,
        "own": own,
        "name": seat_name(seat, own=own),
        "result": result,
        "rows": rows,
        "costliest": costliest,
        "by_chance": any(r["chance_lost"] is not None for r in rows),
        "counts": [(gettext(GRADE_NAMES[g]), g, n) for g, n in counts.items()],
        "chart": {
            "width": CHART_WIDTH,
            "height": CHART_HEIGHT,
            "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
            "points": points,
            "low": low,
            "high": high,
            "y_low": y(low),
            "y_high": y(high),
            "pad": CHART_PAD,
        },
    }
