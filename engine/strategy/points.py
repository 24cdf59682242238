"""The state space's sizes and what every roll scores in every box, as numpy tables.

All asked of the card the solver knows (``SOLVED``: Yahtzee's 13 boxes, five dice, 63 for the
upper bonus), whose boxes score through ``engine.rulesets``, so that the project has one
definition of every box; the solver, the advisor and the simulations read them from here.
``check_solvable`` says which rule sets these tables fit: the official rules and the game without
multiple Yahtzees differ only in what an extra Yahtzee does, which the solver asks at run time.
"""

from __future__ import annotations

import numpy as np

from engine.rulesets import YAHTZEE, RuleSet, Section
from engine.strategy.dice import NUM_DICE, NUM_ROLLS, ROLLS

SOLVED = YAHTZEE
"""The card these tables are built for: every rule set the solver solves has its boxes."""


def check_solvable(rules: RuleSet) -> RuleSet:
    """Return ``rules`` if the solver can solve it, else raise a ValueError saying why not.

    It solves five dice, the boxes of Yahtzee with their upper bonus, filled in any order, with or
    without the Yahtzee bonus and joker; anything else would need tables of its own.
    """
    if rules is SOLVED:
        return rules
    problems = [
        f"{rules.dice} dice, not {NUM_DICE}" if rules.dice != NUM_DICE else "",
        "other boxes" if rules.boxes != SOLVED.boxes else "",
        "another upper bonus" if rules.upper_bonus != SOLVED.upper_bonus else "",
        "boxes filled in order" if rules.in_order else "",
        "another Yahtzee bonus" if rules.yahtzee_bonus not in (0, SOLVED.yahtzee_bonus) else "",
    ]
    if any(problems):
        why = ", ".join(p for p in problems if p)
        raise ValueError(f"the solver cannot solve the rule set {rules.key!r}: {why}")
    return rules


def solvable(rules: RuleSet) -> bool:
    """True when ``check_solvable`` accepts ``rules`` (the solver has a table for them)."""
    try:
        check_solvable(rules)
    except ValueError:
        return False
    return True


NUM_BOXES = SOLVED.turns
"""13 boxes, so 13 turns."""
NUM_MASKS = 1 << NUM_BOXES
"""Number of filled-box masks (8192)."""
FULL_MASK = NUM_MASKS - 1
"""The mask of a full card."""
U_CAP = SOLVED.upper_bonus.threshold
"""The upper subtotal is tracked up to 63, where the bonus is won."""
NUM_U = U_CAP + 1
"""Upper subtotal values 0..63."""
TABLE_SHAPE = (NUM_MASKS, NUM_U, 2)
"""Shape of the table: (mask, capped upper subtotal, Yahtzee box holds 50)."""
YAHTZEE = SOLVED.index(SOLVED.yahtzee_box)  # type: ignore[arg-type]
"""Index of the Yahtzee box."""
YAHTZEE_BIT = 1 << YAHTZEE
"""Mask bit of the Yahtzee box."""
YAHTZEE_MADE = SOLVED.boxes[YAHTZEE].points
"""Points of a Yahtzee in its box (50): with them there, extra Yahtzees earn the bonus."""
NUM_UPPER = len(SOLVED.upper)
"""The first six boxes are the upper section (box i counts face i + 1)."""

BOX_POINTS = np.array([[box.score(roll) for roll in ROLLS] for box in SOLVED.boxes], dtype=float)
"""(13, 252): plain points of every roll in every box."""

YAHTZEE_ROLLS = np.array([ROLLS.index((f,) * 5) for f in range(1, 7)])
"""Roll index of the five-of-a-kind of each face 1..6."""

IS_YAHTZEE_ROLL = np.zeros(NUM_ROLLS, dtype=bool)
IS_YAHTZEE_ROLL[YAHTZEE_ROLLS] = True
"""(252,): True for the six five-of-a-kind rolls."""

JOKER_POINTS = np.array(
    [
        [
            box.joker_score((f,) * 5) if box.section is Section.LOWER else box.score((f,) * 5)
            for f in range(1, 7)
        ]
        for box in SOLVED.boxes
    ],
    dtype=float,
)
"""(13, 6): points of a Yahtzee of face f played as a joker in each box (upper: plain points)."""


def _upper_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per upper box: face count of every roll, and the points of each count 0..5."""
    counts = np.array([[roll.count(i + 1) for roll in ROLLS] for i in range(NUM_UPPER)])
    points = np.zeros((NUM_UPPER, 6), dtype=np.int64)
    for i in range(NUM_UPPER):
        for r in range(NUM_ROLLS):
            points[i, counts[i, r]] = BOX_POINTS[i, r]
    return counts, points


FACE_COUNTS, UPPER_POINTS = _upper_tables()
"""FACE_COUNTS (6, 252): count of face i+1 in each roll; UPPER_POINTS (6, 6): points per count."""

MAX_UPPER_POINTS = UPPER_POINTS.max(axis=1)
"""(6,): the most each upper box can score (five of its face)."""


def max_upper_to_come(mask: int) -> float:
    """Most upper points the open upper boxes of ``mask`` can still add."""
    return float(sum(MAX_UPPER_POINTS[i] for i in range(NUM_UPPER) if not mask >> i & 1))


def open_boxes(mask: int) -> list[int]:
    """Indices of the open boxes of ``mask``."""
    return [c for c in range(NUM_BOXES) if not mask >> c & 1]
