"""The state space's sizes and what every roll scores in every box, as numpy tables, per rule set.

``layout(rules)`` is a cached ``Layout`` of one rule set the solver solves: its boxes, masks,
upper bonus threshold (the cap of the tracked upper subtotal), whether the table has the Yahtzee
bonus dimension (only with the joker), its dice tables and the points of every roll in every box,
all scored through ``engine.rulesets`` so that the project has one definition of every box. The
solver, the advisor, the storage and the simulations read them from here.

``check_solvable`` says which rule sets the solver solves: five or six dice, the upper boxes ones
to sixes first, any lower boxes, in any order or in card order, with or without the joker.
``solvable`` is the part of them ``manage.py solve --variant all`` (and the tests' tables) build:
those whose build takes seconds, not Maxi Yatzy's hour.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.rulesets import RULE_SETS, YAHTZEE, RuleSet, Section, count_face
from engine.strategy.dice import DiceSet, dice_set

SOLVED = YAHTZEE
"""The official card, whose layout the module's upper-case names below describe."""

MAX_SAVED_ROLLS = 40
"""The most rerolls a player with saved rolls may have left (20 turns of two): a bound on input."""

QUICK_DICE = 5
"""Rule sets with this many dice build in seconds; six dice take far longer (see ``solvable``)."""


def check_solvable(rules: RuleSet) -> RuleSet:
    """Return ``rules`` if the solver can solve it, else raise a ValueError saying why not.

    It solves five or six dice with the upper boxes ones to sixes first, filled in any order or
    in order, with or without the Yahtzee bonus and joker. Saved rolls (a turn's unused rolls
    carried to later turns) make the state space far larger: see ``exact_rules``.
    """
    upper = [box for box in rules.boxes if box.section is Section.UPPER]
    problems = [
        f"{rules.dice} dice, not 5 or 6" if rules.dice not in (5, 6) else "",
        "other upper boxes"
        if [(b.scorer, b.size) for b in upper] != [(count_face, f) for f in range(1, 7)]
        else "",
        "rolls saved for later turns" if rules.saved_rolls else "",
    ]
    if any(problems):
        why = ", ".join(p for p in problems if p)
        raise ValueError(f"the solver cannot solve the rule set {rules.key!r}: {why}")
    return rules


def solvable(rules: RuleSet) -> bool:
    """True for the rule sets whose tables are built by default (``check_solvable``, five dice)."""
    try:
        check_solvable(rules)
    except ValueError:
        return False
    return rules.dice == QUICK_DICE


def exact_rules(rules: RuleSet) -> RuleSet:
    """The rule set whose table answers ``rules``: itself, or for saved rolls the same game
    without them (then the advice is not exact); ValueError when there is none."""
    if rules.saved_rolls:
        plain = rules.but(saved_rolls=False)
        for known in RULE_SETS.values():
            if known.but(key=plain.key, name=plain.name) == plain:
                return check_solvable(known)
    return check_solvable(rules)


class Layout:
    """One solvable rule set's state space and scoring tables (build with ``layout(rules)``).

    States between turns are ``(mask, u, y)``: the filled boxes, the upper subtotal capped at the
    bonus threshold, and (only with the joker) whether the Yahtzee box holds its points.
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = check_solvable(rules)
        self.dice: DiceSet = dice_set(rules.dice)
        self.in_order = rules.in_order
        self.num_boxes = rules.turns
        self.num_masks = 1 << self.num_boxes
        self.full_mask = self.num_masks - 1
        self.u_cap = rules.upper_bonus.threshold
        self.num_u = self.u_cap + 1
        self.num_y = 2 if rules.joker else 1
        self.shape = (self.num_masks, self.num_u, self.num_y)
        # Five dice: every state is solved, even an upper subtotal no game reaches (the table is
        # right for any card). Six dice: only subtotals the filled upper boxes can hold (37 of
        # 63 million states), the others stay 0.
        self.every_state = rules.dice == QUICK_DICE
        # Maxi Yatzy's table (2**20 x 85) is stored in float32 (356 MB), the others in float64.
        self.dtype = np.dtype("<f8") if rules.dice == QUICK_DICE else np.dtype("<f4")
        self.num_upper = len(rules.upper)
        box = rules.yahtzee_box
        self.yahtzee = rules.index(box) if box is not None else None
        self.yahtzee_bit = 1 << self.yahtzee if self.yahtzee is not None else 0
        self.yahtzee_made = rules.box(box).points if box is not None else 0
        self.yahtzee_bonus = rules.yahtzee_bonus if rules.joker else 0
        self.forced_joker = rules.joker and not rules.in_order
        rolls = self.dice.rolls
        self.box_points = np.array([[b.score(r) for r in rolls] for b in rules.boxes], dtype=float)
        self.yahtzee_rolls = np.array(
            [self.dice.roll_index[(f,) * rules.dice] for f in range(1, 7)]
        )
        self.is_yahtzee_roll = np.zeros(self.dice.num_rolls, dtype=bool)
        self.is_yahtzee_roll[self.yahtzee_rolls] = True
        self.joker_points = np.array(
            [
                [
                    b.joker_score((f,) * rules.dice)
                    if b.section is Section.LOWER
                    else b.score((f,) * rules.dice)
                    for f in range(1, 7)
                ]
                for b in rules.boxes
            ],
            dtype=float,
        )
        self.face_counts = np.array([[r.count(i + 1) for r in rolls] for i in range(6)])
        # (6, dice + 1): the points of upper box i (face i + 1) for each count of its face.
        self.upper_points = np.outer(np.arange(1, 7), np.arange(rules.dice + 1))
        self.max_upper_points = self.upper_points.max(axis=1)

    def max_upper_to_come(self, mask: int) -> int:
        """Most upper points the open upper boxes of ``mask`` can still add."""
        return int(sum(self.max_upper_points[i] for i in range(6) if not mask >> i & 1))

    def max_upper_made(self, mask: int) -> int:
        """Most upper points the filled upper boxes of ``mask`` can hold."""
        return int(sum(self.max_upper_points[i] for i in range(6) if mask >> i & 1))

    def upper_states(self, mask: int) -> list[int]:
        """The upper subtotals of ``mask`` the solver computes: the bonus still in reach (or won),
        and the cap, which stands for every subtotal from which it is out of reach."""
        to_come, made = self.max_upper_to_come(mask), self.max_upper_made(mask)
        top = self.u_cap if self.every_state else min(made, self.u_cap)
        return [u for u in range(self.u_cap) if u + to_come >= self.u_cap and u <= top] + [
            self.u_cap
        ]

    def open_boxes(self, mask: int) -> list[int]:
        """Indices of the open boxes of ``mask``; in order, only the first of them."""
        found = [c for c in range(self.num_boxes) if not mask >> c & 1]
        return found[:1] if self.in_order else found

    def masks(self, filled: int) -> list[int]:
        """The masks with ``filled`` boxes a game can reach (in order: one, the first boxes)."""
        if self.in_order:
            return [(1 << filled) - 1]
        return [m for m in range(self.num_masks) if m.bit_count() == filled]


@cache
def layout(rules: RuleSet) -> Layout:
    """The cached ``Layout`` of a rule set the solver solves (ValueError for another)."""
    return Layout(rules)


_OFFICIAL = layout(SOLVED)
# The official card's figures under their old names, for code written for Yahtzee alone; code
# that serves every rule set asks ``layout(rules)``.
NUM_BOXES = _OFFICIAL.num_boxes
"""13 boxes of the official card, so 13 turns."""
NUM_MASKS = _OFFICIAL.num_masks
"""The official card's filled-box masks (8192)."""
FULL_MASK = _OFFICIAL.full_mask
"""The mask of a full official card."""
TABLE_SHAPE = _OFFICIAL.shape
"""Shape of the official table: (mask, capped upper subtotal, Yahtzee box holds 50)."""
U_CAP = _OFFICIAL.u_cap
"""The official upper subtotal is tracked up to 63, where the bonus is won."""
NUM_UPPER = _OFFICIAL.num_upper
"""The first six boxes are the upper section (box i counts face i + 1)."""
YAHTZEE = _OFFICIAL.yahtzee
"""Index of the official card's Yahtzee box."""
YAHTZEE_BIT = _OFFICIAL.yahtzee_bit
"""Mask bit of the Yahtzee box."""
BOX_POINTS = _OFFICIAL.box_points
"""(13, 252): plain points of every roll of five dice in every official box."""
JOKER_POINTS = _OFFICIAL.joker_points
"""(13, 6): points of a Yahtzee of face f played as a joker in each box (upper: plain points)."""
IS_YAHTZEE_ROLL = _OFFICIAL.is_yahtzee_roll
"""(252,): True for the six five-of-a-kind rolls."""
