"""Dice combinatorics shared by the solver, the odds and the simulator (numpy, five dice).

Five dice are order-free, so a roll is a sorted 5-tuple (252 of them) and a keep is a sorted tuple
of 0-5 dice (462 of them). ``KEEPS`` lists every keep by size (smallest first), so the
five-dice keeps come last and are exactly ``ROLLS`` in the same order: keep index
``ROLL_OFFSET + r`` *is* roll ``r``. Arrays over keeps are laid out as rows (462, n_states) so that
gathering keeps copies whole contiguous rows.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import factorial

import numpy as np

from engine.rulesets import FACES, YAHTZEE

NUM_DICE = YAHTZEE.dice
"""Dice per roll of the rule sets these tables serve (``points.check_solvable``): five."""

KEEPS: tuple[tuple[int, ...], ...] = tuple(
    keep
    for size in range(NUM_DICE + 1)
    # Within a size, keeps with more distinct faces come first: the lattice step below then
    # visits "the j-th distinct face" on a contiguous prefix of rows instead of padding.
    for keep in sorted(
        combinations_with_replacement(range(1, FACES + 1), size), key=lambda k: (-len(set(k)), k)
    )
)
"""All 462 keeps (sorted tuples of 0-5 dice), by size, then most distinct faces first."""

KEEP_INDEX: dict[tuple[int, ...], int] = {keep: i for i, keep in enumerate(KEEPS)}
"""Index in KEEPS of each keep."""

NUM_KEEPS = len(KEEPS)
"""462."""
ROLL_OFFSET = sum(1 for k in KEEPS if len(k) < NUM_DICE)
"""Index in KEEPS of the first five-dice keep (210)."""

ROLLS: tuple[tuple[int, ...], ...] = KEEPS[ROLL_OFFSET:]
"""All 252 rolls of five dice, sorted tuples."""

ROLL_INDEX: dict[tuple[int, ...], int] = {roll: i for i, roll in enumerate(ROLLS)}
"""Index in ROLLS of each roll."""

NUM_ROLLS = len(ROLLS)
"""252."""

LEVEL_SLICES: tuple[slice, ...] = tuple(
    slice(
        min(i for i, k in enumerate(KEEPS) if len(k) == size),
        max(i for i, k in enumerate(KEEPS) if len(k) == size) + 1,
    )
    for size in range(NUM_DICE + 1)
)
"""Rows of KEEPS holding the keeps of each size 0..5."""

KEEP_COUNTS = np.array([[k.count(f) for f in range(1, FACES + 1)] for k in KEEPS], dtype=np.int64)
"""(462, 6): how many of each face a keep holds."""

_CODE_WEIGHTS = FACES ** np.arange(FACES)
CODE_TO_KEEP = np.full(FACES**FACES, -1, dtype=np.int64)
CODE_TO_KEEP[KEEP_COUNTS @ _CODE_WEIGHTS] = np.arange(NUM_KEEPS)
"""Keep index from a face-count code ``counts @ FACES**arange(6)`` (-1 if not a keep)."""


def keep_index_from_counts(counts: np.ndarray) -> np.ndarray:
    """Keep indices of many dice multisets given as face counts (..., 6)."""
    return CODE_TO_KEEP[counts @ _CODE_WEIGHTS]


def _outcomes(n: int) -> list[tuple[tuple[int, ...], float]]:
    """Each sorted outcome of rolling n dice with its probability (multinomial)."""
    result = []
    for outcome in combinations_with_replacement(range(1, FACES + 1), n):
        ways = factorial(n)
        for f in set(outcome):
            ways //= factorial(outcome.count(f))
        result.append((outcome, ways / FACES**n))
    return result


def _transition() -> np.ndarray:
    matrix = np.zeros((NUM_KEEPS, NUM_ROLLS))
    for k, keep in enumerate(KEEPS):
        for outcome, p in _outcomes(NUM_DICE - len(keep)):
            matrix[k, ROLL_INDEX[tuple(sorted(keep + outcome))]] += p
    return matrix


TRANSITION = _transition()
"""(462, 252): probability that holding keep k and rolling the other dice ends on roll r."""

ROLL_PROBS = TRANSITION[0].copy()
"""(252,): probability of each roll of five fresh dice."""


def _children(keep: tuple[int, ...]) -> list[int]:
    """Distinct keeps one die smaller than ``keep`` (one per distinct face)."""
    return [
        KEEP_INDEX[keep[:i] + keep[i + 1 :]] for i in range(len(keep)) if keep.index(keep[i]) == i
    ]


def _level_children(size: int) -> tuple[np.ndarray, tuple[int, ...]]:
    rows = [_children(KEEPS[k]) for k in range(NUM_KEEPS)[LEVEL_SLICES[size]]]
    width = max(len(r) for r in rows)
    table = np.array([r + [r[0]] * (width - len(r)) for r in rows], dtype=np.int64)
    # Rows are sorted by distinct faces, most first: column j is real on a prefix of rows.
    prefix = tuple(sum(1 for r in rows if len(r) > j) for j in range(width))
    return table, prefix


LEVEL_CHILDREN: tuple[tuple[np.ndarray, tuple[int, ...]], ...] = tuple(
    _level_children(size) for size in range(1, NUM_DICE + 1)
)
"""For sizes 1..5: ((keeps of that size, up to 5) children with one die removed, and for each
column j how many leading rows have a j-th child)."""


def _sub_keeps(roll: tuple[int, ...]) -> tuple[int, ...]:
    counts = [roll.count(f) for f in range(1, FACES + 1)]
    found = set()
    for code in np.ndindex(*(c + 1 for c in counts)):
        keep = tuple(f + 1 for f, c in enumerate(code) for _ in range(c))
        found.add(KEEP_INDEX[keep])
    return tuple(sorted(found))


SUB_KEEPS: tuple[tuple[int, ...], ...] = tuple(_sub_keeps(roll) for roll in ROLLS)
"""For each roll, the keep indices of its distinct sub-multisets (including () and all five)."""

SUB_KEEPS_PADDED = np.array([s + (s[-1],) * (32 - len(s)) for s in SUB_KEEPS], dtype=np.int64)
"""(252, 32): SUB_KEEPS padded by repeating the last (all five dice), for vectorized argmax."""


def _add_one_die(size: int) -> np.ndarray:
    """(keeps of ``size`` dice, 6): the keep with one more die showing each face 1..6."""
    return np.array(
        [
            [KEEP_INDEX[tuple(sorted(k + (f,)))] for f in range(1, FACES + 1)]
            for k in KEEPS[LEVEL_SLICES[size]]
        ],
        dtype=np.int64,
    )


ADD_ONE_DIE: tuple[np.ndarray, ...] = tuple(_add_one_die(size) for size in range(NUM_DICE))
"""For sizes 0..4, (keeps of that size, 6): the keep grown by one die of each face."""


def keep_values(final: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Expected value of every keep, given the value (252, n) of each roll after the reroll.

    Returns (462, n), equal to ``TRANSITION @ final``. Rather than the dense product (92% of
    TRANSITION is zeros) it rolls the missing dice one at a time: a keep of k dice is worth the
    mean, over the six faces, of the keep of k + 1 dice with that face added. That is 1,260 row
    additions per column instead of 52,920 multiply-adds, 2-4 times faster on one core, and it
    needs no multi-threaded BLAS (the solver runs its own threads).
    """
    if out is None:
        out = np.empty((NUM_KEEPS, final.shape[1]))
    out[ROLL_OFFSET:] = final  # a five-dice keep rolls nothing
    for size in range(NUM_DICE - 1, -1, -1):
        grown = ADD_ONE_DIE[size]
        block = out[LEVEL_SLICES[size]]
        # take() without out= is the fast path: with out= numpy's take is 2x slower here.
        np.add(out.take(grown[:, 0], axis=0), out.take(grown[:, 1], axis=0), out=block)
        for f in range(2, FACES):
            block += out.take(grown[:, f], axis=0)
        block *= 1 / FACES
    return out


def best_keep_inplace(values: np.ndarray) -> np.ndarray:
    """Turn keep values (462, n) into best-sub-keep values in place; return the rolls' rows.

    The lattice recursion F(m) = max(E(m), max over one die d of m: F(m - d)) runs from small
    keeps to large ones, so each entry ends as the best value over all sub-multisets of its keep.
    Row ROLL_OFFSET + r then holds the value of roll r when the player picks the best keep.
    """
    for size in range(1, NUM_DICE + 1):
        level = values[LEVEL_SLICES[size]]
        children, prefix = LEVEL_CHILDREN[size - 1]
        for j, rows in enumerate(prefix):
            head = level[:rows]
            np.maximum(head, values.take(children[:rows, j], axis=0), out=head)
    return values[ROLL_OFFSET:]
