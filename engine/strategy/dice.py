"""Dice combinatorics shared by the solver, the odds and the simulator (numpy, n dice).

Dice are order-free, so a roll of n dice is a sorted n-tuple (252 for five, 462 for six) and a
keep is a sorted tuple of 0-n dice (462 for five, 924 for six). ``DiceSet.keeps`` lists every
keep by size (smallest first), so the n-dice keeps come last and are exactly ``rolls`` in the
same order: keep index ``roll_offset + r`` *is* roll ``r``. Arrays over keeps are laid out as
rows (keeps, n_states) so that gathering keeps copies whole contiguous rows.

``dice_set(n)`` is the cached tables of n dice; the module's upper-case names are those of five.
"""

from __future__ import annotations

import threading
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod

import numpy as np

from engine.rulesets import FACES, YAHTZEE


def _outcomes(n: int) -> list[tuple[tuple[int, ...], float]]:
    """Each sorted outcome of rolling n dice with its probability (multinomial)."""
    result = []
    for outcome in combinations_with_replacement(range(1, FACES + 1), n):
        ways = factorial(n)
        for f in set(outcome):
            ways //= factorial(outcome.count(f))
        result.append((outcome, ways / FACES**n))
    return result


class Scratch(threading.local):
    """Work arrays kept per thread and reused, by name: the solver fills the same few arrays for
    every chunk of states instead of fresh ones (fresh arrays of a megabyte or more come from
    the kernel each time: 1.2 million page faults and 40% of the build's CPU in the kernel)."""

    def __init__(self) -> None:
        self.buffers: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: type = np.float64) -> np.ndarray:
        """A C-contiguous array of ``shape`` (its contents are left over): the same memory as
        the last ``get`` of ``name`` in this thread when that was at least as large."""
        size = prod(shape)
        buffer = self.buffers.get(name)
        if buffer is None or buffer.size < size or buffer.dtype != dtype:
            buffer = self.buffers[name] = np.empty(size, dtype=dtype)
        return buffer[:size].reshape(shape)


SCRATCH = Scratch()
"""The work arrays of the thread that asks (``Scratch``)."""


def _take_rows(source: np.ndarray, rows: np.ndarray, name: str) -> np.ndarray:
    """``source.take(rows, axis=0)`` into this thread's scratch array ``name``.

    ``mode="clip"``: with ``out=`` and the default mode numpy buffers the result anew (the
    indices here are always in range, so clipping changes nothing).
    """
    out = SCRATCH.get(name, (len(rows), *source.shape[1:]), source.dtype.type)
    return np.take(source, rows, axis=0, out=out, mode="clip")


class DiceSet:
    """The keeps, rolls and transition tables of ``n`` dice (build with ``dice_set(n)``)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.keeps: tuple[tuple[int, ...], ...] = tuple(
            keep
            for size in range(n + 1)
            # Within a size, keeps with more distinct faces come first: the lattice step then
            # visits "the j-th distinct face" on a contiguous prefix of rows instead of padding.
            for keep in sorted(
                combinations_with_replacement(range(1, FACES + 1), size),
                key=lambda k: (-len(set(k)), k),
            )
        )
        self.keep_index = {keep: i for i, keep in enumerate(self.keeps)}
        self.num_keeps = len(self.keeps)
        self.roll_offset = sum(1 for k in self.keeps if len(k) < n)
        self.rolls = self.keeps[self.roll_offset :]
        self.roll_index = {roll: i for i, roll in enumerate(self.rolls)}
        self.num_rolls = len(self.rolls)
        self.level_slices = tuple(
            slice(
                min(i for i, k in enumerate(self.keeps) if len(k) == size),
                max(i for i, k in enumerate(self.keeps) if len(k) == size) + 1,
            )
            for size in range(n + 1)
        )
        self.keep_counts = np.array(
            [[k.count(f) for f in range(1, FACES + 1)] for k in self.keeps], dtype=np.int64
        )
        self._code_weights = (n + 1) ** np.arange(FACES)
        self.code_to_keep = np.full((n + 1) ** FACES, -1, dtype=np.int64)
        self.code_to_keep[self.keep_counts @ self._code_weights] = np.arange(self.num_keeps)
        self.transition = self._transition()
        self.roll_probs = self.transition[0].copy()
        self.level_children = tuple(self._level_children(s) for s in range(1, n + 1))
        self.sub_keeps = tuple(self._sub_keeps(roll) for roll in self.rolls)
        width = max(len(s) for s in self.sub_keeps)
        self.sub_keeps_padded = np.array(
            [s + (s[-1],) * (width - len(s)) for s in self.sub_keeps], dtype=np.int64
        )
        self.add_one_die = tuple(self._add_one_die(size) for size in range(n))

    def keep_index_from_counts(self, counts: np.ndarray) -> np.ndarray:
        """Keep indices of many dice multisets given as face counts (..., 6)."""
        return self.code_to_keep[counts @ self._code_weights]

    def _transition(self) -> np.ndarray:
        matrix = np.zeros((self.num_keeps, self.num_rolls))
        for k, keep in enumerate(self.keeps):
            for outcome, p in _outcomes(self.n - len(keep)):
                matrix[k, self.roll_index[tuple(sorted(keep + outcome))]] += p
        return matrix

    def _children(self, keep: tuple[int, ...]) -> list[int]:
        """Distinct keeps one die smaller than ``keep`` (one per distinct face)."""
        return [
            self.keep_index[keep[:i] + keep[i + 1 :]]
            for i in range(len(keep))
            if keep.index(keep[i]) == i
        ]

    def _level_children(self, size: int) -> tuple[np.ndarray, tuple[int, ...]]:
        rows = [self._children(k) for k in self.keeps[self.level_slices[size]]]
        width = max(len(r) for r in rows)
        table = np.array([r + [r[0]] * (width - len(r)) for r in rows], dtype=np.int64)
        # Rows are sorted by distinct faces, most first: column j is real on a prefix of rows.
        prefix = tuple(sum(1 for r in rows if len(r) > j) for j in range(width))
        return table, prefix

    def _sub_keeps(self, roll: tuple[int, ...]) -> tuple[int, ...]:
        counts = [roll.count(f) for f in range(1, FACES + 1)]
        found = set()
        for code in np.ndindex(*(c + 1 for c in counts)):
            keep = tuple(f + 1 for f, c in enumerate(code) for _ in range(c))
            found.add(self.keep_index[keep])
        return tuple(sorted(found))

    def _add_one_die(self, size: int) -> np.ndarray:
        """(keeps of ``size`` dice, 6): the keep with one more die showing each face 1..6."""
        return np.array(
            [
                [self.keep_index[tuple(sorted(k + (f,)))] for f in range(1, FACES + 1)]
                for k in self.keeps[self.level_slices[size]]
            ],
            dtype=np.int64,
        )

    def keep_values(self, final: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Expected value of every keep, given the value (rolls, m) of each roll after the reroll.

        Returns (keeps, m), equal to ``transition @ final``. Rather than the dense product (92%
        of the five dice' transition is zeros) it rolls the missing dice one at a time: a keep of
        k dice is worth the mean, over the six faces, of the keep of k + 1 dice with that face
        added. For five dice that is 1,260 row additions per column instead of 52,920
        multiply-adds, and it needs no multi-threaded BLAS (the solver runs its own threads).
        """
        if out is None:
            out = np.empty((self.num_keeps, final.shape[1]))
        out[self.roll_offset :] = final  # an n-dice keep rolls nothing (a no-op when in place)
        for size in range(self.n - 1, -1, -1):
            grown = self.add_one_die[size]
            block = out[self.level_slices[size]]
            np.add(_take_rows(out, grown[:, 0], "a"), _take_rows(out, grown[:, 1], "b"), out=block)
            for f in range(2, FACES):
                block += _take_rows(out, grown[:, f], "a")
            block *= 1 / FACES
        return out

    def best_keep_inplace(self, values: np.ndarray) -> np.ndarray:
        """Turn keep values (keeps, m) into best-sub-keep values in place; return the rolls' rows.

        The lattice recursion F(m) = max(E(m), max over one die d of m: F(m - d)) runs from small
        keeps to large ones, so each entry ends as the best value over all sub-multisets of its
        keep. Row ``roll_offset + r`` then holds the value of roll r when the best keep is held.
        """
        for size in range(1, self.n + 1):
            level = values[self.level_slices[size]]
            children, prefix = self.level_children[size - 1]
            for j, rows in enumerate(prefix):
                head = level[:rows]
                np.maximum(head, _take_rows(values, children[:rows, j], "a"), out=head)
        return values[self.roll_offset :]


@cache
def dice_set(n: int) -> DiceSet:
    """The tables of ``n`` dice (five: 252 rolls, 462 keeps; six: 462 rolls, 924 keeps)."""
    return DiceSet(n)


FIVE = dice_set(YAHTZEE.dice)
"""Five dice, the tables the names below hold."""

NUM_DICE = FIVE.n
"""Five."""
KEEPS = FIVE.keeps
"""All 462 keeps of five dice (sorted tuples of 0-5 dice), by size, most distinct faces first."""
KEEP_INDEX = FIVE.keep_index
"""Index in KEEPS of each keep."""
NUM_KEEPS = FIVE.num_keeps
"""462."""
ROLL_OFFSET = FIVE.roll_offset
"""Index in KEEPS of the first five-dice keep (210)."""
ROLLS = FIVE.rolls
"""All 252 rolls of five dice, sorted tuples."""
ROLL_INDEX = FIVE.roll_index
"""Index in ROLLS of each roll."""
NUM_ROLLS = FIVE.num_rolls
"""252."""
LEVEL_SLICES = FIVE.level_slices
"""Rows of KEEPS holding the keeps of each size 0..5."""
KEEP_COUNTS = FIVE.keep_counts
"""(462, 6): how many of each face a keep holds."""
TRANSITION = FIVE.transition
"""(462, 252): probability that holding keep k and rolling the other dice ends on roll r."""
ROLL_PROBS = FIVE.roll_probs
"""(252,): probability of each roll of five fresh dice."""
SUB_KEEPS = FIVE.sub_keeps
"""For each roll, the keep indices of its distinct sub-multisets (including () and all five)."""
LEVEL_CHILDREN = FIVE.level_children
"""For sizes 1..5: (children with one die removed, and how many leading rows have a j-th)."""
SUB_KEEPS_PADDED = FIVE.sub_keeps_padded
"""(252, 32): SUB_KEEPS padded by repeating the last (all five dice), for vectorized argmax."""
keep_index_from_counts = FIVE.keep_index_from_counts
keep_values = FIVE.keep_values
best_keep_inplace = FIVE.best_keep_inplace
