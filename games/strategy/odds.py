"""Live odds: the chance of ending the turn able to score a box, from the dice held now.

For the dice kept now (0-5 faces) and the rolls still to make (1-3), ``box_odds`` gives for each
box the probability that the final dice score more than 0 in it by the plain rules
(``box_score > 0``; jokers aside), when the player rerolls the other dice now and, on each later
roll, holds whatever maximises the chance of that box (a separate policy per box). Holding all
five dice means standing on them: the chance is then 1 or 0.

The box-maximising policy is optimal, so it is never worse than a fixed rule of thumb. For the
Yahtzee from nothing held with 3 rolls it gives exactly the same number as "keep the most common
face each roll": 2,783,176 / 60,466,176 (about 4.603%); ``tests/test_strategy.py`` checks both
against an exact rational computation.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from games.rules import CATEGORIES, box_score
from games.strategy.dice import KEEP_INDEX, NUM_DICE, ROLLS, TRANSITION, best_keep_inplace

ODDS_BOXES = (
    "yahtzee",
    "large_straight",
    "small_straight",
    "full_house",
    "four_of_a_kind",
    "three_of_a_kind",
)
"""The boxes the live odds are shown for, rarest first."""


@cache
def _success(box: str) -> np.ndarray:
    """(252,): 1.0 where a roll scores in ``box`` by the plain rules."""
    values = np.array([box_score(box, roll) > 0 for roll in ROLLS], dtype=float)
    values.flags.writeable = False
    return values


@cache
def _chance_by_keep(box: str, rolls: int) -> np.ndarray:
    """(462,): chance of scoring ``box`` holding each keep with ``rolls`` rolls still to make."""
    final = _success(box)[:, None]
    for _ in range(rolls - 1):
        # Before each later roll the player holds the keep that maximises the chance.
        final = best_keep_inplace(TRANSITION @ final).copy()
    values = (TRANSITION @ final)[:, 0]
    values.flags.writeable = False
    return values


def chance(box: str, kept: Sequence[int], rolls: int) -> float:
    """Probability of ending the turn able to score ``box`` (see the module docstring)."""
    if box not in CATEGORIES:
        raise ValueError(f"no box called {box!r}")
    keep = tuple(sorted(kept))
    if len(keep) > NUM_DICE or any(f not in range(1, 7) for f in keep):
        raise ValueError("kept dice must be 0-5 faces from 1 to 6")
    if rolls not in (0, 1, 2, 3):
        raise ValueError("rolls must be 0-3")
    if len(keep) == NUM_DICE or rolls == 0:
        if len(keep) != NUM_DICE:
            raise ValueError("with no roll left all five dice must be given")
        return 1.0 if box_score(box, keep) > 0 else 0.0
    return float(_chance_by_keep(box, rolls)[KEEP_INDEX[keep]])


def box_odds(
    kept: Sequence[int], rolls: int, boxes: Sequence[str] = ODDS_BOXES
) -> dict[str, float]:
    """``{box: probability}`` for ``boxes`` (default the six lower made hands), see ``chance``."""
    return {box: chance(box, kept, rolls) for box in boxes}
