"""How the points still to come are spread under perfect-points play: their moments, exactly.

The solver's table ``V[mask, u, y]`` is the mean of the points still to come when the player
makes, at every step, the move with the best expected total. The same backward induction, with
the policy fixed by ``V``'s choices, gives every higher moment too: raw moments mix linearly
(a keep's k-th moment is ``TRANSITION @`` the rolls' k-th moments, just as its mean), and filling
a box adds its points ``g`` to the next state's points ``X``, so
``E[(g + X)^k] = sum_i C(k, i) g^(k - i) E[X^i]``. Only the choices (which keep, which box) are
not linear: they are the ones ``V`` makes, found once per turn by the lattice maximum
(``best_keep_index``, the solver's ``best_keep_inplace`` that also says which keep won).

The moments table ``(8192, 64, 2, MOMENTS)`` holds ``E[X^k]`` for k = 1..MOMENTS of every
between-turn state. It is saved beside the V table as one file per moment, each the k-th root
``E[X^k]^(1/k)``: a number of points like V's own (so ``storage.save_table`` and its checksum
apply as they are). ``position_moments`` answers a position inside a turn (dice, rolls left)
through the turn arrays.
"""

from __future__ import annotations

import os
from functools import cached_property
from math import comb
from pathlib import Path

import numpy as np

from engine.rulesets import RuleSet
from engine.strategy import storage
from engine.strategy.dice import (
    LEVEL_CHILDREN,
    LEVEL_SLICES,
    NUM_DICE,
    NUM_KEEPS,
    ROLL_OFFSET,
    ROLL_PROBS,
    ROLLS,
    SUB_KEEPS_PADDED,
    TRANSITION,
    keep_values,
)
from engine.strategy.points import (
    BOX_POINTS,
    IS_YAHTZEE_ROLL,
    JOKER_POINTS,
    NUM_UPPER,
    TABLE_SHAPE,
    U_CAP,
    YAHTZEE,
    YAHTZEE_BIT,
    YAHTZEE_MADE,
    check_solvable,
)
from engine.strategy.solver import _chunks, _fill_copies, _layers, state_columns, turn_arrays

MOMENTS = 4
"""Raw moments kept per state: the mean (V itself), the 2nd, 3rd and 4th."""

SPREAD_VERSION = 1
"""Bumped when the moments' meaning or files change."""

_FIRST_FACE = np.array([roll[0] for roll in ROLLS])
_ROLL_COLUMN = np.arange(len(ROLLS))[:, None]
_SMALL_BATCH = 8  # columns up to which one position's arrays take the dense paths
_SUB_KEEPS_LARGEST_FIRST = np.sort(SUB_KEEPS_PADDED, axis=1)[:, ::-1].copy()
_KEEP_ROWS = np.arange(NUM_KEEPS)[:, None]


PathLike = str | os.PathLike[str]


def moment_path(rules: RuleSet, k: int, path: PathLike | None = None) -> Path:
    """The file of the k-th moment's table (k = 2..MOMENTS) beside the rule set's V table."""
    v_file = storage.table_path(rules, path)
    return v_file.with_name(f"{v_file.stem}-spread{SPREAD_VERSION}-m{k}.npy")


def score_step(
    masks: np.ndarray,
    us: np.ndarray,
    ys: np.ndarray,
    box: np.ndarray,
    roll: np.ndarray,
    rules: RuleSet,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fill ``box`` with roll ``roll`` (indices in ROLLS) from states ``(masks, us, ys)``.

    Returns ``(gain, masks', us', ys')``: the points the fill adds (the box, the upper bonus when
    it crosses 63, a Yahtzee bonus by the forced joker) and the state it leads to. All arrays
    broadcast together; ``box`` must be a box the fill may legally go in.
    """
    joker = IS_YAHTZEE_ROLL[roll] & (masks & YAHTZEE_BIT != 0) & rules.joker
    points = np.where(
        joker, JOKER_POINTS[box, _FIRST_FACE[roll] - 1], BOX_POINTS[box, roll]
    ).astype(np.int64)
    upper = box < NUM_UPPER
    raw = us + np.where(upper, points, 0)
    gain = points + np.where(upper & (us < U_CAP) & (raw >= U_CAP), rules.upper_bonus.points, 0)
    gain = gain + np.where(joker & (ys == 1), rules.yahtzee_bonus, 0)
    made = (box == YAHTZEE) & (points == YAHTZEE_MADE) & rules.joker
    return gain, masks | (1 << box), np.minimum(raw, U_CAP), np.where(made, 1, ys)


def best_keep_index(values: np.ndarray) -> np.ndarray:
    """The lattice maximum of ``best_keep_inplace`` that also says which keep wins.

    Turns keep values (462, n) into best-sub-keep values in place and returns (252, n): for each
    roll and column, the index of the keep (a sub-multiset of the roll, all five = stand) with
    the highest value. On a tie the larger keep stays (standing beats an equal reroll).
    For a few columns (one position's advice) one gather over each roll's sub-keeps is faster;
    ``values`` are then left as they were.
    """
    if values.shape[1] <= _SMALL_BATCH:
        # Sub-keeps from the largest down, so that argmax's first maximum is the largest keep.
        keeps = _SUB_KEEPS_LARGEST_FIRST
        best = values[keeps].argmax(axis=1)  # (252, n)
        return np.take_along_axis(keeps, best, axis=1)
    index = np.repeat(_KEEP_ROWS, values.shape[1], axis=1)
    for size in range(1, NUM_DICE + 1):
        level = values[LEVEL_SLICES[size]]
        level_index = index[LEVEL_SLICES[size]]
        children, prefix = LEVEL_CHILDREN[size - 1]
        for j, rows in enumerate(prefix):
            head = level[:rows]
            child = values.take(children[:rows, j], axis=0)
            better = child > head
            np.copyto(head, child, where=better)
            np.copyto(level_index[:rows], index.take(children[:rows, j], axis=0), where=better)
    return index[ROLL_OFFSET:]


def shifted_moments(gain: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Raw moments (MOMENTS, ...) of ``gain + X`` from those of X (``after`` (..., MOMENTS))."""
    powers = [np.ones_like(gain, dtype=float), gain.astype(float)]
    for _ in range(MOMENTS - 1):
        powers.append(powers[-1] * gain)
    out = []
    for k in range(1, MOMENTS + 1):
        total = powers[k].copy()
        for i in range(1, k + 1):
            total += comb(k, i) * powers[k - i] * after[..., i - 1]
        out.append(total)
    return np.stack(out)


def _scatter(choice: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """(462, n): the weights of the rolls (252, n) summed onto the keep each roll chooses."""
    n = choice.shape[1]
    flat = (choice * n + np.arange(n)).ravel()
    summed = np.bincount(flat, weights=weight.ravel(), minlength=NUM_KEEPS * n)
    return summed.reshape(NUM_KEEPS, n)


class TurnSpread:
    """One turn of many states played for points: V's choices and the moments they lead to.

    ``best_box``, ``gain`` and ``after`` (each (252, n), ``after`` a (masks, us, ys) triple):
    the box V fills when the turn ends on each roll, the points that adds, the state it leads to.
    ``choice1``, ``choice2`` (252, n): the keep V holds from each roll with 1 or 2 rerolls left.
    ``rolls`` (MOMENTS, 252, n): moments of the points to come when the turn ends on each roll;
    ``keeps[t]`` (MOMENTS, 462, n): holding each keep with t + 1 rerolls to make.
    """

    def __init__(
        self,
        masks: np.ndarray,
        us: np.ndarray,
        ys: np.ndarray,
        table: np.ndarray,
        moments: np.ndarray,
        rules: RuleSet,
    ) -> None:
        self.masks = masks = np.asarray(masks, dtype=np.int64)
        self.us = us = np.asarray(us, dtype=np.intp)
        self.ys = ys = np.asarray(ys, dtype=np.intp)
        _, e1, e2, best = turn_arrays(masks, us, ys, table, rules, with_best_box=True)
        self.values = (e1, e2)
        self.best_box = best.astype(np.intp)
        self.gain, *after = score_step(
            masks[None, :], us[None, :], ys[None, :], self.best_box, _ROLL_COLUMN, rules
        )
        self.after = tuple(after)
        self.choice1 = best_keep_index(e1.copy())
        self.choice2 = best_keep_index(e2.copy())
        self._moments = moments

    @cached_property
    def rolls(self) -> np.ndarray:
        """(MOMENTS, 252, n): moments of the points to come when the turn ends on each roll."""
        return shifted_moments(self.gain, self._moments[self.after])

    @cached_property
    def keeps(self) -> tuple[np.ndarray, np.ndarray]:
        """(MOMENTS, 462, n) each: moments of holding each keep with 1 and 2 rerolls to make."""
        k1, k2 = zip(*(self.through_turn(m) for m in self.rolls), strict=True)
        return np.stack(k1), np.stack(k2)

    def through_turn(self, final: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A quantity linear in the turn's last roll, given per roll (252, n), for holding each
        keep with 1 and with 2 rerolls to make (each (462, n)), V choosing the later keeps."""
        # For a few columns the dense product beats keep_values' 30 row steps (as turn_arrays).
        spread = (
            (lambda rolls: TRANSITION @ rolls) if final.shape[1] <= _SMALL_BATCH else keep_values
        )
        k1 = spread(final)
        k2 = spread(np.take_along_axis(k1, self.choice1, axis=0))
        return k1, k2

    def at_start(self, k2: np.ndarray) -> np.ndarray:
        """(n,): the turn-start value of a quantity whose 2-reroll keep values are ``k2``."""
        return ROLL_PROBS @ np.take_along_axis(k2, self.choice2, axis=0)

    def start(self) -> np.ndarray:
        """(MOMENTS, n): moments at the start of the turn (before the first roll)."""
        return np.stack([self.at_start(k2) for k2 in self.keeps[1]])

    def last_roll_chances(self) -> np.ndarray:
        """(252, n): the chance that the turn ends on each roll, from its start (V's choices)."""
        reach = np.repeat(ROLL_PROBS[:, None], len(self.masks), axis=1)
        for choice in (self.choice2, self.choice1):
            reach = TRANSITION.T @ _scatter(choice, reach)
        return reach


def solved_states(masks: list[int], rules: RuleSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The states ``(masks, us, ys)`` of these masks that the solver computes, as arrays."""
    columns = [state_columns(m, rules) for m in masks]
    return (
        np.concatenate([np.full(len(us), m) for m, (us, _) in zip(masks, columns, strict=True)]),
        np.concatenate([us for us, _ in columns]),
        np.concatenate([ys for _, ys in columns]),
    )


def build_moments(
    table: np.ndarray, rules: RuleSet, min_filled: int = 0, chunk: int = 768
) -> np.ndarray:
    """The ``(8192, 64, 2, MOMENTS)`` raw moments of points to come, from the V ``table``.

    Layer by layer from the full card, as ``solver.solve`` builds V (whose means it repeats:
    ``moments[..., 0]`` equals ``table`` to rounding).
    """
    check_solvable(rules)
    moments = np.zeros((*TABLE_SHAPE, MOMENTS))
    for layer in _layers(min_filled):
        for masks_here in _chunks(layer, rules, chunk):
            masks, us, ys = solved_states(masks_here, rules)
            spread = TurnSpread(masks, us, ys, table, moments, rules)
            moments[masks, us, ys] = spread.start().T
            for m in masks_here:
                _fill_copies(moments, m, rules)
    return moments


def save_moments(moments: np.ndarray, rules: RuleSet, path: PathLike | None = None) -> None:
    """Save the 2nd..MOMENTS-th moments beside the V table, one checked file each (k-th roots)."""
    for k in range(2, MOMENTS + 1):
        storage.save_table(moments[..., k - 1] ** (1 / k), moment_path(rules, k, path))


def load_moments(table: np.ndarray, rules: RuleSet, path: PathLike | None = None) -> np.ndarray:
    """The moments table from its files and the V ``table`` (FileNotFoundError, DamagedTable)."""
    moments = np.empty((*TABLE_SHAPE, MOMENTS))
    moments[..., 0] = table
    for k in range(2, MOMENTS + 1):
        moments[..., k - 1] = storage.load_table(moment_path(rules, k, path)) ** k
    return moments


__all__ = [
    "MOMENTS",
    "TurnSpread",
    "best_keep_index",
    "build_moments",
    "load_moments",
    "moment_path",
    "save_moments",
    "score_step",
]
