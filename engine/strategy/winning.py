"""Who is likely to win a two-player game, and which move wins most often.

Each player's points still to come, under perfect-points play, are spread as ``spread`` says
(their exact mean, 2nd, 3rd and 4th moments, at a turn's start or inside it). The two players'
dice are independent, so the difference of their final totals has as cumulants the sums (odd
ones: differences) of theirs; ``win_chance`` turns those into the chance that the difference is
positive, a draw counting half.

``WinModel`` answers positions: ``chances(cards, current, dice, rolls_left)`` gives both players'
chances, ``move_chances`` the mover's chance after each legal move (a keep, or a box), best first.
A position is the two cards, whose turn it is, and the dice (None before the first roll) with
the rerolls left.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from math import pi, sqrt

import numpy as np

from engine.rules import Scorecard, check_dice
from engine.rulesets import YAHTZEE, RuleSet
from engine.strategy import storage
from engine.strategy.advisor import Advisor, Move, PathLike, State, state_of
from engine.strategy.dice import KEEPS, ROLL_INDEX, SUB_KEEPS
from engine.strategy.spread import (
    MOMENTS,
    TurnSpread,
    build_moments,
    load_moments,
    moment_path,
    save_moments,
)

_TIE = 12  # decimals: chances equal to 1e-12 count as tied (then scoring sorts before keeping)
_SQRT2 = sqrt(2.0)
_DENSITY = 1 / sqrt(2 * pi)


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


class WinModel:
    """Two-player win chances for one rule set, from its V table and the moments beside it."""

    def __init__(self, advisor: Advisor, moments: np.ndarray, cache_size: int = 4096) -> None:
        self.advisor = advisor
        self.rules = advisor.rules
        self.moments = moments
        self._cache: OrderedDict[State, TurnSpread] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self.build_seconds: float | None = None

    @classmethod
    def load(
        cls,
        rules: RuleSet = YAHTZEE,
        path: PathLike | None = None,
        *,
        build_if_missing: bool = True,
    ) -> WinModel:
        """Load the rule set's V table and moments from ``path`` (default the cache dir).

        Missing or damaged moments are built from the V table (about 25 s) and saved, unless
        ``build_if_missing`` is false: then FileNotFoundError or ``storage.DamagedTable``, as
        ``Advisor.load`` (which loads, or builds, the V table) raises them.
        """
        advisor = Advisor.load(rules, path, build_if_missing=build_if_missing)
        try:
            moments = load_moments(advisor.table, rules, path)
        except (FileNotFoundError, storage.DamagedTable):
            if not build_if_missing:
                raise
            return build(advisor, path)
        return cls(advisor, moments)

    @staticmethod
    def exists(rules: RuleSet = YAHTZEE, path: PathLike | None = None) -> bool:
        """True when the V table and every moments file are in place (a stat, no checksum)."""
        return storage.table_exists(rules, path) and all(
            moment_path(rules, k, path).exists() for k in range(2, MOMENTS + 1)
        )

    # ----- the spread of one card's points to come ----------------------------------------------

    def _spread(self, state: State) -> TurnSpread:
        with self._lock:
            spread = self._cache.get(state)
            if spread is not None:
                self._cache.move_to_end(state)
                return spread
        spread = TurnSpread(
            *(np.array([v]) for v in state), self.advisor.table, self.moments, self.rules
        )
        with self._lock:
            self._cache[state] = spread
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return spread

    def _between(self, card: Scorecard) -> np.ndarray:
        """Raw moments (4,) of the points ``card`` will still score from the start of a turn."""
        return self.moments[state_of(card)]  # a full card's are 0

    def _inside(self, card: Scorecard, dice: tuple[int, ...], rolls_left: int) -> np.ndarray:
        """Raw moments (4,) of the points to come with ``dice`` showing, playing for points."""
        spread = self._spread(state_of(card))
        roll = ROLL_INDEX[dice]
        if rolls_left == 0:
            return spread.rolls[:, roll, 0]
        choice = (spread.choice1 if rolls_left == 1 else spread.choice2)[roll, 0]
        return spread.keeps[rolls_left - 1][:, choice, 0]

    def _check(
        self, cards: Sequence[Scorecard], current: int, dice: object, rolls_left: int
    ) -> tuple[int, ...] | None:
        if len(cards) != 2:
            raise ValueError(f"win chances are for two players, not {len(cards)}")
        if current not in (0, 1):
            raise ValueError("current must be 0 or 1")
        for card in cards:
            if card.rules != self.rules:
                raise ValueError(f"these chances are for the rule set {self.rules.key!r}")
        if dice is None:
            return None
        if rolls_left not in (0, 1, 2):
            raise ValueError("rolls_left must be 0, 1 or 2")
        return check_dice(dice, self.rules)  # type: ignore[arg-type]

    # ----- the answers --------------------------------------------------------------------------

    def chances(
        self,
        cards: Sequence[Scorecard],
        current: int,
        dice: Sequence[int] | None,
        rolls_left: int,
    ) -> tuple[float, float]:
        """Each of the two players' chance to win (a draw counts half to each; they sum to 1).

        ``dice`` None: the player on turn (``current``) has not rolled yet. ``rolls_left`` is
        0-2, the rerolls left after these dice. ValueError for other player counts.
        """
        held = self._check(cards, current, dice, rolls_left)
        mover, other = cards[current], cards[1 - current]
        if held is None or mover.is_full:
            mine = self._between(mover)
        else:
            mine = self._inside(mover, held, rolls_left)
        chance = float(win_chances(mover.total - other.total, mine, self._between(other)))
        return (chance, 1 - chance) if current == 0 else (1 - chance, chance)

    def move_chances(
        self,
        cards: Sequence[Scorecard],
        current: int,
        dice: Sequence[int],
        rolls_left: int,
    ) -> list[tuple[Move, float]]:
        """Every legal move of the player on turn with their win chance after it, best first.

        The moves are ``Advisor.options``' (keeps while rerolls are left, then the boxes the
        card allows); after the move both players play for points. On a tie scoring comes first.
        """
        held = self._check(cards, current, dice, rolls_left)
        if held is None:
            raise ValueError("the player on turn has not rolled: there is no move to weigh")
        mover, other = cards[current], cards[1 - current]
        if mover.is_full:
            return []
        moves: list[Move] = []
        mine: list[np.ndarray] = []
        leads: list[int] = []
        if rolls_left:
            keeps = self._spread(state_of(mover)).keeps[rolls_left - 1]
            subs = list(SUB_KEEPS[ROLL_INDEX[held]])
            moves += [("keep", KEEPS[k]) for k in subs]
            mine.append(keeps[:, subs, 0])
            leads += [mover.total - other.total] * len(subs)
        for box in mover.options(held):
            after = mover.fill(box, held)
            moves.append(("score", box))
            mine.append(self._between(after)[:, None])
            leads.append(after.total - other.total)
        chances = win_chances(
            np.array(leads, dtype=float),
            np.concatenate(mine, axis=1),
            self._between(other)[:, None],
        )
        ranked = list(zip(moves, chances.tolist(), strict=True))
        ranked.sort(key=lambda m: (-round(m[1], _TIE), m[0][0] != "score"))
        return ranked

    def best_move(
        self, cards: Sequence[Scorecard], current: int, dice: Sequence[int], rolls_left: int
    ) -> Move:
        """The move with the best chance to win (the first of ``move_chances``)."""
        moves = self.move_chances(cards, current, dice, rolls_left)
        if not moves:
            raise ValueError("the card is full: there is no move to make")
        return moves[0][0]


_build_lock = threading.Lock()


def build(advisor: Advisor, path: PathLike | None = None) -> WinModel:
    """Build the moments of ``advisor``'s rule set from its table, save them, return the model."""
    with _build_lock, storage.build_lock(moment_path(advisor.rules, 2, path)):
        started = time.perf_counter()
        moments = build_moments(advisor.table, advisor.rules)
        save_moments(moments, advisor.rules, path)
        model = WinModel(advisor, moments)
        model.build_seconds = time.perf_counter() - started
    return model
