"""Win chances of two-player positions, many at once: the arithmetic behind ``WinModel``.

A position is the mover's state and dice, the opponent's state (they are between turns) and the
mover's lead. ``TurnChances`` follows the mover's turn: the chance of winning when the turn ends
on each roll (filling the box V picks, or each legal box), then, linearly, the chance of holding
each keep, exactly as the solver's turn arrays carry expected points. Beyond the turn both
players play for points, and the chance of a between-turn position (``WinTables.between``)
comes from the two players' points to come: exact distributions in the last turns
(``endgame``), else the Edgeworth expansion of their moments (``win_chances``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import pi, sqrt

import numpy as np

from engine.rules import Scorecard
from engine.rulesets import RuleSet
from engine.strategy.dice import (
    ROLL_OFFSET,
    ROLLS,
    SUB_KEEPS_PADDED,
    best_keep_inplace,
    keep_values,
)
from engine.strategy.endgame import Endgame
from engine.strategy.points import BOX_POINTS, NUM_BOXES
from engine.strategy.spread import TurnSpread, score_step

_SQRT2 = sqrt(2.0)
_DENSITY = 1 / sqrt(2 * pi)

WIN_TOLERANCE = 1e-4
"""Win chances this close count as equal when choosing a move (then points decide)."""

_LEAD_OFFSET = 1 << 11  # leads from -2048 to 2047 points (a game scores at most 1575)

State = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Between-turn states ``(masks, us, ys)`` of many players, as arrays that broadcast."""


def cumulants(raw: np.ndarray) -> np.ndarray:
    """The first four cumulants (mean, variance, 3rd, 4th) from raw moments E[X^1..4], (4, ...)."""
    m1, m2, m3, m4 = raw
    var = np.maximum(m2 - m1 * m1, 0.0)
    k3 = m3 - 3 * m1 * m2 + 2 * m1**3
    k4 = m4 - 4 * m1 * m3 - 3 * m2 * m2 + 12 * m1 * m1 * m2 - 6 * m1**4
    return np.stack([m1, var, k3, k4])


def normal_cdf(x: np.ndarray) -> np.ndarray:
    """The standard normal distribution function, elementwise (within 1.5e-7, A&S 7.1.26)."""
    z = np.abs(x) / _SQRT2
    t = 1 / (1 + 0.3275911 * z)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    half_tail = 0.5 * poly * np.exp(-z * z)
    return np.where(x >= 0, 1 - half_tail, half_tail)


def win_chances(lead: np.ndarray, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Chance that ``lead`` + my points to come beat theirs, a draw counting half, elementwise.

    ``mine`` and ``theirs`` (4, ...) are the raw moments of the two players' points to come,
    which are independent: the difference D = lead + mine - theirs has the sum of their
    cumulants (odd ones subtracted). Totals are whole points, so "more, or half of equal" is D
    above 0 once spread continuously (half a point either side of 0 splits the draw). The normal
    of D's mean and variance alone is 4 points too timid in the middle tenths (bonuses and
    Yahtzees skew the points to come; docs/benchmarks.md), so its distribution function gets
    the Edgeworth terms of D's skewness and excess kurtosis.
    """
    mine, theirs = cumulants(mine), cumulants(theirs)
    mean = lead + mine[0] - theirs[0]
    var = mine[1] + theirs[1]
    sure = np.where(mean > 0.25, 1.0, np.where(mean < -0.25, 0.0, 0.5))
    spread = var >= 1e-9
    sd = np.sqrt(np.where(spread, var, 1.0))
    skew = (mine[2] - theirs[2]) / sd**3
    kurt = (mine[3] + theirs[3]) / sd**4
    # P(D > 0) = 1 - F(x) at x = -mean/sd, F(x) = Phi(x) - phi(x) (skew/6 He2(x)
    # + kurt/24 He3(x) + skew^2/72 He5(x)), He the Hermite polynomials.
    x = -mean / sd
    hermite = (
        skew / 6 * (x * x - 1)
        + kurt / 24 * (x**3 - 3 * x)
        + skew * skew / 72 * (x**5 - 10 * x**3 + 15 * x)
    )
    chance = normal_cdf(-x) + np.exp(-x * x / 2) * _DENSITY * hermite
    return np.where(spread, np.clip(chance, 0.0, 1.0), sure)


def _kinds() -> tuple[np.ndarray, np.ndarray]:
    """Per box, each roll's kind (rolls of one kind score the same points, so they lead to the
    same state: every five of a kind is a kind of its own, for the joker) and one roll of each."""
    kinds = np.zeros((NUM_BOXES, len(ROLLS)), dtype=np.intp)
    examples = []
    for b in range(NUM_BOXES):
        seen: dict[object, int] = {}
        for r, roll in enumerate(ROLLS):
            kind = roll if len(set(roll)) == 1 else BOX_POINTS[b, r]
            kinds[b, r] = seen.setdefault(kind, len(seen))
        examples.append([r for r in range(len(ROLLS)) if r == _first(kinds[b], kinds[b, r])])
    width = max(len(e) for e in examples)
    rolls = np.array([e + e[-1:] * (width - len(e)) for e in examples], dtype=np.intp)
    return kinds, rolls


def _first(row: np.ndarray, kind: int) -> int:
    return int(np.argmax(row == kind))


_KINDS, _KIND_ROLLS = _kinds()
_BOX_COLUMN = np.arange(NUM_BOXES)[:, None, None]


@lru_cache(maxsize=1024)  # 3 KB each: a card seen again, not every card
def legal_boxes(mask: int, rules: RuleSet) -> np.ndarray:
    """(13, 252) bool: where each roll may be scored on a card whose filled boxes are ``mask``.

    Every open box, except for a Yahtzee under the forced joker, where ``Scorecard.options`` (the
    one place that knows the rule) says which boxes it may go in.
    """
    card = Scorecard(rules, tuple(0 if mask >> i & 1 else None for i in range(NUM_BOXES)))
    legal = np.zeros((NUM_BOXES, len(ROLLS)), dtype=bool)
    legal[[i for i in range(NUM_BOXES) if not mask >> i & 1]] = True
    for face in range(1, 7):
        roll = ROLLS.index((face,) * rules.dice)
        allowed = card.options((face,) * rules.dice)
        legal[:, roll] = [box in allowed for box in rules.keys]
    legal.flags.writeable = False
    return legal


@dataclass(frozen=True)
class WinTables:
    """What win chances are computed from: V, its moments and the last turns' distributions."""

    rules: RuleSet
    table: np.ndarray
    moments: np.ndarray
    endgame: Endgame

    def between(self, lead: np.ndarray, mine: State, theirs: State) -> np.ndarray:
        """The chance of a mover between turns (``mine``, ``lead`` points ahead) to beat a player
        in ``theirs``, both playing for points from here; all arrays broadcast together."""
        lead, *states = np.broadcast_arrays(lead, *mine, *theirs)
        # Many rolls lead to the same position (the same box, the same points): work out each
        # distinct one once. A position packs into 52 bits: lead, then two states of 20 bits.
        key = (lead.astype(np.int64) + _LEAD_OFFSET) << 40
        for shift, part in zip((27, 21, 20, 7, 1, 0), states, strict=True):
            key |= part.astype(np.int64) << shift
        unique, inverse = np.unique(key.ravel(), return_inverse=True)
        lead_u = (unique >> 40) - _LEAD_OFFSET
        mine_u = (unique >> 27 & 0x1FFF, unique >> 21 & 0x3F, unique >> 20 & 1)
        theirs_u = (unique >> 7 & 0x1FFF, unique >> 1 & 0x3F, unique & 1)
        chance = win_chances(lead_u, self.moments[mine_u].T, self.moments[theirs_u].T)
        mine_rows, theirs_rows = self.endgame.rows[mine_u], self.endgame.rows[theirs_u]
        exact = (mine_rows >= 0) & (theirs_rows >= 0)
        if exact.any():
            chance[exact] = self.endgame.versus(lead_u[exact], mine_rows[exact], theirs_rows[exact])
        return chance[inverse].reshape(lead.shape)

    def spread(self, state: State) -> TurnSpread:
        """The turn arrays of the movers in ``state`` (1-d arrays)."""
        return TurnSpread(*state, self.table, self.moments, self.rules)


class TurnChances:
    """A mover's win chances through one turn, for n positions at once.

    ``points`` = ``(W0, E1, E2)``: the chance when the turn ends on each roll (252, n), and of
    holding each keep with 1 or 2 rerolls to make (462, n), the mover playing for points.
    ``to_win`` (computed on first use): the same when the mover plays this turn to win (the best
    chance at every step, then points from the next turn), with ``boxes`` (13, 252, n) the
    chance after scoring each roll in each box (-1 where that is not allowed).
    """

    def __init__(
        self, tables: WinTables, spread: TurnSpread, lead: np.ndarray, theirs: State
    ) -> None:
        self.tables = tables
        self.spread = spread
        self.lead = np.asarray(lead, dtype=np.int64)
        self.theirs = theirs
        w0 = tables.between(self.lead + spread.gain, spread.after, theirs)
        self.points = (w0, *spread.through_turn(w0))

    def start(self) -> np.ndarray:
        """(n,): the chance before the turn's first roll, playing for points."""
        return self.spread.at_start(self.points[2])

    def at(self, roll: np.ndarray, rolls_left: int) -> np.ndarray:
        """(n,): the chance with ``roll`` (indices in ROLLS) showing and ``rolls_left`` rerolls,
        playing for points."""
        n = np.arange(len(roll))
        if rolls_left == 0:
            return self.points[0][roll, n]
        choice = (self.spread.choice1 if rolls_left == 1 else self.spread.choice2)[roll, n]
        return self.points[rolls_left][choice, n]

    @cached_property
    def boxes(self) -> np.ndarray:
        """(13, 252, n): the chance after scoring each roll in each box (-1: not allowed)."""
        return self._boxes[0]

    @cached_property
    def box_points(self) -> np.ndarray:
        """(13, 252, n): the expected points to come after scoring there (-inf: not allowed)."""
        return self._boxes[1]

    @cached_property
    def _boxes(self) -> tuple[np.ndarray, np.ndarray]:
        s, tables = self.spread, self.tables
        # A box's chance depends on the points it scores, not on the dice: work out one roll of
        # each kind (_KINDS) per box and game, then spread them over the 252 rolls.
        n = len(s.masks)
        gain, *after = score_step(
            s.masks, s.us, s.ys, _BOX_COLUMN, _KIND_ROLLS[:, :, None], tables.rules
        )  # (13, kinds, n)
        theirs = tuple(part[None, None, :] for part in self.theirs)
        by_kind = tables.between(self.lead + gain, tuple(after), theirs)
        points_by_kind = gain + tables.table[tuple(after)]
        legal = np.stack([legal_boxes(m, tables.rules) for m in s.masks.tolist()], axis=-1)
        kinds = np.broadcast_to(_KINDS[:, :, None], (NUM_BOXES, len(ROLLS), n))
        chances = np.take_along_axis(by_kind, kinds, axis=1)
        points = np.take_along_axis(points_by_kind, kinds, axis=1)
        return np.where(legal, chances, -1.0), np.where(legal, points, -np.inf)

    @cached_property
    def to_win(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(W0, E1, E2)`` as ``points`` has them, the mover playing this turn to win."""
        w0 = self.boxes.max(axis=0)
        e1 = keep_values(w0)
        e2 = keep_values(best_keep_inplace(e1.copy()).copy())
        return w0, e1, e2

    def choose(self, roll: np.ndarray, rolls_left: int) -> tuple[np.ndarray, np.ndarray]:
        """The moves of a player who plays to win, with ``roll`` showing: ``(keep, box)``, the
        keep index to hold (the roll itself when scoring) and the box to score (-1: none).

        The best chance wins; chances within ``WIN_TOLERANCE`` of it count as equal, and among
        those the most expected points does: a decided game is played for points, and no points
        are given away for a gain in chance smaller than the model can vouch for.
        """
        every = np.arange(len(roll))
        chances = [self.boxes[:, roll, every].T]  # (n, 13)
        points = [self.box_points[:, roll, every].T]
        if rolls_left:
            keeps = SUB_KEEPS_PADDED[roll]  # (n, 32)
            chances.append(self.to_win[rolls_left][keeps, every[:, None]])
            points.append(self.spread.values[rolls_left - 1][keeps, every[:, None]])
        chance, value = np.concatenate(chances, axis=1), np.concatenate(points, axis=1)
        near = chance >= chance.max(axis=1, keepdims=True) - WIN_TOLERANCE
        pick = np.where(near, value, -np.inf).argmax(axis=1)
        scores = pick < NUM_BOXES
        keep = keeps[every, pick - NUM_BOXES] if rolls_left else roll + ROLL_OFFSET
        return np.where(scores, roll + ROLL_OFFSET, keep), np.where(scores, pick, -1)
