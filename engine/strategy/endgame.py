"""The last turns exactly: whole distributions of the points still to come, few boxes open.

Moments say little about a card with one box left: its points to come may be 0 or 50 and
nothing between. For every state with at most ``ENDGAME_BOXES`` boxes open this module holds
the exact distribution of the points still to come under perfect-points play (V's choices), as
a row of ``SUPPORT`` probabilities of 0, 1, 2 ... points, built from the full card up: a state's
distribution is the mixture, over the roll its turn ends on (``TurnSpread.last_roll_chances``),
of the next state's distribution shifted by the points the box adds. It takes about a second
and a few MB, so it is built when a ``WinModel`` loads rather than stored.

``versus`` turns two players' rows into the exact chance that one beats the other.
"""

from __future__ import annotations

import numpy as np

from engine.rulesets import RuleSet
from engine.strategy.points import FULL_MASK, NUM_BOXES, NUM_MASKS, TABLE_SHAPE
from engine.strategy.solver import _fill_copies
from engine.strategy.spread import TurnSpread, solved_states

ENDGAME_BOXES = 3
"""States with at most this many open boxes get their exact distribution."""

SUPPORT = 512
"""Points to come 0..511 (three turns score at most 3 x 150 + 35: 485)."""


class Endgame:
    """Exact distributions of the points to come of the last turns' states.

    ``rows[state]`` (an int array over ``(mask, u, y)``, -1 where the state has more boxes open)
    indexes ``pmf`` (states, SUPPORT), kept in float32 (33 MB for three boxes; a chance read
    from it is off by 1e-7 at most).
    """

    def __init__(self, rows: np.ndarray, pmf: np.ndarray) -> None:
        self.rows = rows
        self.pmf = pmf.astype(np.float32)

    def below(self, rows: np.ndarray) -> np.ndarray:
        """(len(rows), 3 SUPPORT): for v from -SUPPORT to 2 SUPPORT - 1, the chance of scoring
        fewer than v points plus half the chance of exactly v (0 under 0, 1 from SUPPORT on)."""
        pmf = self.pmf[rows].astype(float)
        below = np.zeros((len(rows), 3 * SUPPORT))
        below[:, SUPPORT + 1 : 2 * SUPPORT + 1] = np.cumsum(pmf, axis=1)
        below[:, SUPPORT : 2 * SUPPORT] += pmf / 2
        below[:, 2 * SUPPORT :] = 1.0
        return below.astype(np.float32)

    def versus(self, lead: np.ndarray, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        """Exact chance that ``lead`` + my points to come beat theirs (a draw counting half),
        for rows ``mine`` and ``theirs`` (three 1-d arrays of positions; rows must be >= 0)."""
        # P(lead + X > Y) + P(= Y) / 2 = sum_x P(X = x) below_Y[lead + x]: a window of below_Y,
        # which starts at lead (any lead from -SUPPORT to SUPPORT reads a whole window).
        opponents, which = np.unique(theirs, return_inverse=True)
        windows = np.lib.stride_tricks.sliding_window_view(self.below(opponents), SUPPORT, axis=1)
        start = np.clip(lead, -SUPPORT, SUPPORT) + SUPPORT
        chances = np.einsum("ij,ij->i", self.pmf[mine], windows[which, start])
        return chances.astype(float)


def _mixtures(
    known: np.ndarray, reach: np.ndarray, after: np.ndarray, gain: np.ndarray
) -> np.ndarray:
    """(n, SUPPORT): for each state j, the sum over rolls r of ``reach[r, j]`` times the
    distribution ``known[after[r, j]]`` shifted up by ``gain[r, j]`` points."""
    n = reach.shape[1]
    # Rolls of a state that lead to the same row with the same gain are one term.
    column = np.broadcast_to(np.arange(n), reach.shape)
    key = (column.astype(np.int64) * len(known) + after) * SUPPORT + gain
    terms, which = np.unique(key.ravel(), return_inverse=True)
    weight = np.bincount(which, weights=reach.ravel())
    state, rest = np.divmod(terms, len(known) * SUPPORT)
    row, shift = np.divmod(rest, SUPPORT)
    # A shift by g reads the row from -g on: a window of the row padded with SUPPORT zeros.
    padded = np.zeros((len(known), 2 * SUPPORT))
    padded[:, SUPPORT:] = known
    windows = np.lib.stride_tricks.sliding_window_view(padded, SUPPORT, axis=1)
    out = np.zeros((n, SUPPORT))
    for start in range(0, len(terms), 8192):
        part = slice(start, start + 8192)
        shifted = windows[row[part], SUPPORT - shift[part]] * weight[part, None]
        states, first = np.unique(state[part], return_index=True)  # terms are sorted by state
        out[states] += np.add.reduceat(shifted, first, axis=0)
    return out


def build_endgame(
    table: np.ndarray, moments: np.ndarray, rules: RuleSet, boxes: int = ENDGAME_BOXES
) -> Endgame:
    """The exact distributions of every state with at most ``boxes`` open boxes."""
    rows = np.full(TABLE_SHAPE, -1, dtype=np.int64)
    rows[FULL_MASK] = 0
    pmfs = [np.eye(1, SUPPORT)]  # the full card: 0 points to come
    count = 1
    for open_count in range(1, boxes + 1):
        masks_here = [m for m in range(NUM_MASKS) if NUM_BOXES - m.bit_count() == open_count]
        masks, us, ys = solved_states(masks_here, rules)
        spread = TurnSpread(masks, us, ys, table, moments, rules)
        reach = spread.last_roll_chances()  # (252, n)
        layer = _mixtures(np.concatenate(pmfs), reach, rows[spread.after], spread.gain)
        rows[masks, us, ys] = count + np.arange(len(masks))
        for m in masks_here:
            _fill_copies(rows, m, rules)
        pmfs.append(layer)
        count += len(masks)
    return Endgame(rows, np.concatenate(pmfs))
