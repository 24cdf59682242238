"""Live odds: the chance of ending the turn able to score a box, from the dice held now.

For the dice kept now (0 to all of the rule set's dice) and the rolls still to make (1-3, more
with saved rolls), ``box_odds`` gives for each
box the probability that the final dice can be scored for more than 0 in it on the player's card
(``Scorecard.options``, so the forced joker counts: with Sixes and the Yahtzee box filled, five
sixes score 40 as a large straight), when the player rerolls the other dice now and, on each later
roll, holds whatever maximises the chance of that box (a separate policy per box). Holding all
the dice means standing on them: the chance is then 1 or 0. On a card filled in order only the
next box can be scored, so any other box's chance is 0: show the next box's alone.

Every rule set has its own boxes (``odds_boxes``): Yahtzee's six made hands, rarest first, and
for Yatzy and Maxi Yatzy their lower boxes but chance, from the Yatzy up to one pair.

The box-maximising policy is optimal, so it is never worse than a fixed rule of thumb. For the
Yahtzee from nothing held with 3 rolls it gives exactly the same number as "keep the most common
face each roll": 2,783,176 / 60,466,176 (about 4.603%); ``tests/engine/test_strategy.py`` checks
both against an exact rational computation.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from engine.rules import Scorecard
from engine.rulesets import YAHTZEE, RuleSet
from engine.rulesets import chance as chance_box
from engine.strategy.dice import dice_set
from engine.strategy.points import MAX_SAVED_ROLLS


def odds_boxes(rules: RuleSet) -> tuple[str, ...]:
    """The boxes the live odds are shown for: the lower boxes but chance, bottom of the card
    first (Yahtzee's made hands, rarest first; Yatzy's from the Yatzy down to one pair)."""
    return tuple(box for box in reversed(rules.lower) if rules.box(box).scorer is not chance_box)


ODDS_BOXES = odds_boxes(YAHTZEE)
"""Yahtzee's odds boxes: yahtzee, large and small straight, full house, four and three alike."""


FRESH_CARD = Scorecard()
"""A card with every box open: no joker, every roll scores as ``box_score`` says."""


def scores_in(box: str, dice: Sequence[int], card: Scorecard) -> bool:
    """True when ``dice`` may go in ``box`` on ``card`` for more than 0 (the joker applied)."""
    return card.options(dice).get(box, 0) > 0


def _yahtzees_score(box: str, card: Scorecard) -> tuple[bool, ...]:
    """For the Yahtzee of each face 1-6, whether it scores in ``box`` on ``card``.

    The only rolls whose worth depends on the rest of the card (the joker rule), so the chances
    are kept per box and these six answers rather than per card.
    """
    return tuple(scores_in(box, (face,) * card.rules.dice, card) for face in range(1, 7))


@cache
def _success(rules: RuleSet, box: str, yahtzees: tuple[bool, ...]) -> np.ndarray:
    """(rolls,): 1.0 where a roll scores in ``box``, with ``yahtzees`` for the six Yahtzees."""
    scores = rules.box(box).score
    rolls = dice_set(rules.dice).rolls
    values = np.array(
        [yahtzees[roll[0] - 1] if len(set(roll)) == 1 else scores(roll) > 0 for roll in rolls],
        dtype=float,
    )
    values.flags.writeable = False
    return values


@cache
def _chance_by_keep(rules: RuleSet, box: str, rolls: int, yahtzees: tuple[bool, ...]) -> np.ndarray:
    """(keeps,): chance of scoring ``box`` holding each keep with ``rolls`` rolls still to make."""
    dice = dice_set(rules.dice)
    final = _success(rules, box, yahtzees)[:, None]
    for _ in range(rolls - 1):
        # Before each later roll the player holds the keep that maximises the chance.
        final = dice.best_keep_inplace(dice.transition @ final).copy()
    values = (dice.transition @ final)[:, 0]
    values.flags.writeable = False
    return values


def chance(box: str, kept: Sequence[int], rolls: int, card: Scorecard = FRESH_CARD) -> float:
    """Probability of ending the turn able to score ``box`` on ``card`` (see the module docstring).

    >>> card = Scorecard.from_boxes({"sixes": 30, "yahtzee": 50})
    >>> chance("large_straight", (6, 6, 6, 6, 6), 2, card)  # five sixes: a joker worth 40
    1.0
    """
    if not card.rules.has_box(box):
        raise ValueError(f"no box called {box!r}")
    n = card.rules.dice
    keep = tuple(sorted(kept))
    if len(keep) > n or any(f not in range(1, 7) for f in keep):
        raise ValueError(f"kept dice must be 0-{n} faces from 1 to 6")
    most = MAX_SAVED_ROLLS + 1 if card.rules.saved_rolls else 3
    if not isinstance(rolls, int) or not 0 <= rolls <= most:
        raise ValueError(f"rolls must be 0-{most}")
    if len(keep) == n or rolls == 0:
        if len(keep) != n:
            raise ValueError("with no roll left all the dice must be given")
        return 1.0 if scores_in(box, keep, card) else 0.0
    by_keep = _chance_by_keep(card.rules, box, rolls, _yahtzees_score(box, card))
    return float(by_keep[dice_set(n).keep_index[keep]])


def box_odds(
    kept: Sequence[int],
    rolls: int,
    boxes: Sequence[str] | None = None,
    card: Scorecard = FRESH_CARD,
) -> dict[str, float]:
    """``{box: probability}`` for ``boxes`` (default the card's ``odds_boxes``), see ``chance``."""
    if boxes is None:
        boxes = odds_boxes(card.rules)
    return {box: chance(box, kept, rolls, card) for box in boxes}
