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


CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 640, 220, 36


def analysis_context(game: Game, seat: Seat, result: Analysis, viewer: str | None = None) -> dict:
    """The analysis page: summary, chart points, every decision and the three costliest.

    It speaks to the player ("you gave away") only in the browser that played the seat; anyone
    else (a shared game, an online one) reads of the player by name.
    """
    own = not seat.bot and bool(viewer) and seat.visitor == viewer

    def row(decision: Decision) -> dict:
        return {
            "decision": decision,
            "dice": [
                Die(i, face, held)
                for i, (face, held) in enumerate(zip(decision.dice, decision.held, strict=True))
            ],
            "played": move_words(decision.move, decision.card, decision.dice),
            "best": move_words(decision.best, decision.card, decision.dice),
            "grade": decision.grade,
            "grade_name": gettext(GRADE_NAMES[decision.grade]),
            "filled": [(label(box), points) for box, points in decision.card.boxes.items()],
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
    counts = result.counts()
    return {
        "game": game,
        "seat": seat,
        "own": own,
        "name": seat_name(seat, own=own),
        "result": result,
        "rows": rows,
        "costliest": [rows[d.index] for d in result.costliest(3)],
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
