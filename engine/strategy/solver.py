"""Exact dynamic programming for solitaire Yahtzee and its variants: the between-turn values.

State space
-----------
Between two turns, all that matters for the rest of the game is (``points.Layout``)

* ``mask``: which boxes are filled (bit i = the rule set's box i), 2**13 values for Yahtzee,
  2**15 for Yatzy, 2**20 for Maxi Yatzy; filled in order, only the 14 or 16 prefixes are reached;
* ``u``: the upper subtotal capped at the bonus threshold (63; 84 for Maxi Yatzy);
* ``y``: with the joker only, 1 if the Yahtzee box holds 50 (so every further Yahtzee earns 100).

``V[mask, u, y]`` is the expected number of points still to come (boxes, the upper bonus when the
subtotal crosses the threshold, Yahtzee bonuses) under optimal play. A full card has ``V = 0``;
the value of a new game is ``V[0, 0, 0]``.

The recursion inside one turn
-----------------------------
A turn is three rolls with two keeps in between. Working backwards from the end of the turn:

1. ``S0[r]``: the dice show roll r and no reroll is left: the best legal box (forced joker
   applied; in order, the next box only) of points + bonuses + ``V`` of the state it leads to.
2. ``E1[k] = sum_r P(k -> r) S0[r]``: keep k with one reroll to make (``TRANSITION`` product,
   P(k -> r) the chance that rerolling the dice not in k gives r).
3. ``F1[r] = max over sub-multisets k of r of E1[k]``: the best keep, via the keep lattice
   ``F(m) = max(E(m), max_d F(m - d))`` rather than a 252 x 32 gather.
4. ``E2 = TRANSITION @ F1``, ``F2`` likewise, and ``V = sum_r P(r) F2[r]`` for the first roll.

Keeping all five dice equals scoring now, so "score early" needs no separate case.

Vectorisation
-------------
States are solved layer by layer (12 filled boxes, then 11, ...), since a turn fills exactly one
box and so only reads the layer above. Within a layer the states are stacked as columns of
arrays shaped (rolls or keeps, states), so that every step moves whole contiguous rows:

* scoring runs per mask, for all its ``(u, y)`` at once (``score_values``);
* the keep steps run on chunks of ~768 columns: ``E = TRANSITION @ S`` is computed by rolling
  the missing dice one at a time (``dice.keep_values``: the same product, factored through the
  sparsity of the 462 x 252 matrix), then the lattice maximum (``dice.best_keep_inplace``);
* the chunks of a layer are independent, so two threads share them (numpy releases the GIL).

Two shortcuts keep it exact: for a given mask, every ``u`` from which the bonus is out of reach
has the same value as ``u`` at the threshold (no bonus is left to win either way), so only one
of them is solved; and ``y`` only matters once the Yahtzee box is filled. That leaves 591,358
states to solve (394,239 without the Yahtzee bonus, 1,576,959 for Yatzy). The result is still a
dense ``(8192, 64, 2)`` table, correct for every ``(mask, u, y)``, even for cards no real game
reaches. Six dice skip, as well, every ``u`` above what the filled upper boxes can hold: 37.6
million states of Maxi Yatzy's (2**20, 85, 1) table are solved, the unreachable rest stays 0.

Every chunk reuses its thread's work arrays (``dice.SCRATCH``): fresh arrays of a megabyte come
from the kernel page by page, and cost the build more than the arithmetic did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from engine.rulesets import YAHTZEE as OFFICIAL
from engine.rulesets import RuleSet
from engine.strategy.dice import SCRATCH
from engine.strategy.points import Layout, layout


class _MaskPlan(NamedTuple):
    """What scoring needs to know about a mask's open boxes (small arrays, cached per mask)."""

    boxes: np.ndarray  # open boxes (in order: only the next), upper ones first
    upper: np.ndarray  # open upper boxes (= faces - 1)
    lower: np.ndarray  # open lower boxes
    upper_next: np.ndarray  # (k, 1, 1): mask after filling each open upper box
    lower_next: np.ndarray  # (len(lower), 1): mask after filling each open lower box
    yahtzee_row: int | None  # position of the open Yahtzee box in ``lower``
    joker_illegal: np.ndarray  # (open boxes, 6): where a Yahtzee of each face may not go


@lru_cache(maxsize=1 << 16)  # every mask of a five-dice card; six dice visit each mask once
def _plan(space: Layout, mask: int) -> _MaskPlan:
    boxes = np.array(space.open_boxes(mask), dtype=np.intp)
    if not len(boxes):
        raise ValueError("a full card has no turn left")
    upper = boxes[boxes < space.num_upper]
    lower = boxes[boxes >= space.num_upper]
    # The forced joker rule, used once the Yahtzee box is filled (see _apply_forced_joker).
    legal = np.zeros((len(boxes), 6), dtype=bool)
    for f in range(6):
        if f in upper.tolist():  # its own upper box is open: it must go there
            legal[upper.tolist().index(f), f] = True
        elif len(lower):  # else any open lower box, fixed boxes scoring in full
            legal[len(upper) :, f] = True
        else:  # else a zero in any open upper box
            legal[: len(upper), f] = True
    rows = lower.tolist()
    return _MaskPlan(
        boxes=boxes,
        upper=upper,
        lower=lower,
        upper_next=(mask | 1 << upper)[:, None, None],
        lower_next=(mask | 1 << lower)[:, None],
        yahtzee_row=rows.index(space.yahtzee) if space.yahtzee in rows else None,
        joker_illegal=~legal,
    )


def score_values(
    mask: int,
    us: np.ndarray,
    ys: np.ndarray,
    table: np.ndarray,
    rules: RuleSet,
    out: np.ndarray | None = None,
    best_box: np.ndarray | None = None,
) -> np.ndarray:
    """Value (rolls, n) of ending the turn on each roll for the states ``(mask, us[j], ys[j])``.

    The value of a roll is the best, over the boxes it may legally go in, of points + upper bonus
    (when this fill crosses the threshold) + Yahtzee bonus + ``table`` of the state it leads to.
    When ``best_box`` (rolls, n) is given it receives the index of that box. This is the only
    place the engine encodes the forced joker rule and the order of an in-order card; tests
    cross-check it against ``Scorecard.options``. ``rules`` is a rule set ``check_solvable``
    accepts: it says the dice, the boxes, the bonuses and the joker.
    """
    space = layout(rules)
    dice = space.dice
    n = len(us)
    if out is None:
        out = np.empty((dice.num_rolls, n))
    plan = _plan(space, mask)
    upper, lower = plan.upper, plan.lower
    k = len(upper)
    u_cap = space.u_cap
    # gains[b, r, j]: value of putting roll r in open box b (upper ones first), for state j.
    gains = SCRATCH.get("gains", (len(plan.boxes), dice.num_rolls, n))
    by_count = np.empty((k, dice.n + 1, n))
    if k:
        # An upper box scores by its face count (0-n), so value the n + 1 counts, then spread.
        points = space.upper_points[upper][:, :, None]  # (k, n + 1, 1)
        raw = us + points  # (k, n + 1, n): subtotal after the fill
        crosses = (us < u_cap) & (raw >= u_cap)
        after = table[plan.upper_next, np.minimum(raw, u_cap), ys]
        np.add(points + np.where(crosses, rules.upper_bonus.points, 0), after, out=by_count)
        spread = (np.arange(k)[:, None] * (dice.n + 1) + space.face_counts[upper]).reshape(-1)
        counted = by_count.reshape(k * (dice.n + 1), n)
        np.take(counted, spread, axis=0, out=gains[:k].reshape(-1, n), mode="clip")
    stay = table[plan.lower_next, us, ys]  # (len(lower), n): next state's value
    if len(lower):
        np.add(space.box_points[lower][:, :, None], stay[:, None, :], out=gains[k:])
        if space.num_y == 2 and plan.yahtzee_row is not None:
            # Scoring 50 in the Yahtzee box switches the Yahtzee bonus on for the rest of the game.
            after_made = table[mask | space.yahtzee_bit, us, 1]
            gains[k + plan.yahtzee_row, space.yahtzee_rolls] = space.yahtzee_made + after_made
    np.max(gains, axis=0, out=out)
    if best_box is not None:
        # The first box reaching the maximum (argmax over a bool array beats a float argmax).
        best_box[:] = plan.boxes[(gains == out).argmax(axis=0)]
    if space.yahtzee_bonus and mask & space.yahtzee_bit:
        if space.forced_joker:
            _apply_forced_joker(out, best_box, ys, space, plan, by_count, stay)
        else:  # in order: the next box scores its plain points, and the bonus is earned still
            out[space.yahtzee_rolls] += space.yahtzee_bonus * ys
    return out


def _apply_forced_joker(
    out: np.ndarray,
    best_box: np.ndarray | None,
    ys: np.ndarray,
    space: Layout,
    plan: _MaskPlan,
    by_count: np.ndarray,
    stay: np.ndarray,
) -> None:
    """Overwrite the six Yahtzee rolls by the forced joker rule (Yahtzee box already filled)."""
    k = len(plan.upper)
    # candidates[i, f, j]: value of a Yahtzee of face f+1 put in open box i as a joker.
    candidates = np.empty((len(plan.boxes), 6, len(ys)))
    # Upper boxes: all the dice count in their own box, and a Yahtzee scores 0 in the others.
    candidates[:k] = by_count[:, None, 0, :]
    candidates[np.arange(k), plan.upper] = by_count[:, space.dice.n]
    # Lower boxes: joker points (full house, straights in full), the state stays the same.
    np.add(space.joker_points[plan.lower][:, :, None], stay[:, None, :], out=candidates[k:])
    candidates[plan.joker_illegal] = -np.inf
    out[space.yahtzee_rolls] = candidates.max(axis=0) + space.yahtzee_bonus * ys
    if best_box is not None:
        best_box[space.yahtzee_rolls] = plan.boxes[candidates.argmax(axis=0)]


@lru_cache(maxsize=1 << 16)
def state_columns(mask: int, rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    """The ``(u, y)`` states of ``mask`` that the solver computes (the others are copies)."""
    space = layout(rules)
    u_values = space.upper_states(mask)
    y_values = [0, 1] if space.num_y == 2 and mask & space.yahtzee_bit else [0]
    us = np.array([u for _ in y_values for u in u_values], dtype=np.intp)
    ys = np.array([y for y in y_values for _ in u_values], dtype=np.intp)
    return us, ys


def _fill_copies(table: np.ndarray, mask: int, space: Layout) -> None:
    """Copy solved values to the equivalent states that were not solved."""
    to_come = space.max_upper_to_come(mask)
    hopeless = [u for u in range(space.u_cap) if u + to_come < space.u_cap]
    if hopeless:  # the bonus is out of reach: same future as when it is already won
        table[mask, hopeless, :] = table[mask, space.u_cap, :][None, :]
    if space.num_y == 2 and not mask & space.yahtzee_bit:
        table[mask, :, 1] = table[mask, :, 0]


def turn_start_values(final: np.ndarray, rules: RuleSet = OFFICIAL) -> np.ndarray:
    """Values (n,) at the start of a turn from the end-of-turn roll values ``final`` (rolls, n).

    Two rounds of keep values + lattice maxima, then the mean over the first roll.
    """
    dice = layout(rules).dice
    work = SCRATCH.get("keeps", (dice.num_keeps, final.shape[1]))
    rolls = final
    for _ in range(2):
        # The rolls' rows of ``work`` are its last rows: the next round starts from them in place.
        dice.keep_values(rolls, out=work)
        rolls = dice.best_keep_inplace(work)
    return dice.roll_probs @ rolls


_SMALL_BATCH = 8


def turn_arrays(
    masks: np.ndarray,
    us: np.ndarray,
    ys: np.ndarray,
    table: np.ndarray,
    rules: RuleSet,
    with_best_box: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Within-turn arrays of many states at once, for advice and simulation.

    Returns ``(S0, E1, E2, best_box)``: S0 (rolls, n) value of each final roll, E1 and E2
    (keeps, n) value of each keep with one or two rerolls to make, best_box (rolls, n) the box S0
    scores (or None). Values are points still to come, as in the table. The rolls and keeps are
    those of ``points.layout(rules).dice`` (252 and 462 for five dice).
    """
    dice = layout(rules).dice
    masks = np.asarray(masks, dtype=np.int64)
    us = np.asarray(us, dtype=np.intp)
    ys = np.asarray(ys, dtype=np.intp)
    n = len(masks)
    s0 = np.empty((dice.num_rolls, n))
    best = np.empty((dice.num_rolls, n), dtype=np.int8) if with_best_box else None
    # Group the states by mask: score_values handles one mask's states at a time.
    order = np.argsort(masks, kind="stable")
    sorted_masks = masks[order].tolist()
    cuts = [i for i in range(1, n) if sorted_masks[i] != sorted_masks[i - 1]]
    for a, b in zip([0, *cuts], [*cuts, n], strict=True):
        cols = order[a:b]
        group_best = np.empty((dice.num_rolls, b - a), dtype=np.int8) if best is not None else None
        s0[:, cols] = score_values(
            sorted_masks[a], us[cols], ys[cols], table, rules, best_box=group_best
        )
        if best is not None:
            best[:, cols] = group_best
    if n <= _SMALL_BATCH:
        # A handful of states (one advice request): numpy's per-call cost dominates, so use the
        # dense product and a one-shot gather over each roll's sub-keeps instead of the levels.
        e1 = dice.transition @ s0
        e2 = dice.transition @ e1[dice.sub_keeps_padded].max(axis=1)
    else:
        e1 = dice.keep_values(s0)
        e2 = dice.keep_values(dice.best_keep_inplace(e1.copy()))
    return s0, e1, e2, best


ProgressCallback = Callable[[int, int], object]
"""A progress callback: ``(states_done, states_total)``."""


def _report(progress: object, done: int, total: int, step: int) -> None:
    """Tell a tqdm-like object (``update``) or a callback ``(done, total)`` about progress."""
    if progress is None:
        return
    update = getattr(progress, "update", None)
    if update is not None:
        update(step)
    else:
        progress(done, total)  # type: ignore[operator]


def _layers(space: Layout, min_filled: int) -> Iterable[list[int]]:
    for filled in range(space.num_boxes - 1, min_filled - 1, -1):
        yield space.masks(filled)


def count_states(rules: RuleSet = OFFICIAL, min_filled: int = 0) -> int:
    """How many states ``solve`` computes (its progress total)."""
    space = layout(rules)
    return sum(
        len(space.upper_states(m)) * (2 if space.num_y == 2 and m & space.yahtzee_bit else 1)
        for layer in _layers(space, min_filled)
        for m in layer
    )


def _chunks(layer: list[int], rules: RuleSet, chunk: int) -> list[list[int]]:
    """Split a layer's masks into groups of at most ``chunk`` solved states (one mask at least)."""
    groups: list[list[int]] = [[]]
    used = 0
    for mask in layer:
        size = len(state_columns(mask, rules)[0])
        if used + size > chunk and groups[-1]:
            groups.append([])
            used = 0
        groups[-1].append(mask)
        used += size
    return groups


def _solve_masks(table: np.ndarray, masks: list[int], rules: RuleSet) -> int:
    """Solve every state of ``masks`` (all in one layer) into ``table``; return how many."""
    space = layout(rules)
    columns = [state_columns(mask, rules) for mask in masks]
    final = SCRATCH.get("final", (space.dice.num_rolls, sum(len(us) for us, _ in columns)))
    start = 0
    for mask, (us, ys) in zip(masks, columns, strict=True):
        score_values(mask, us, ys, table, rules, out=final[:, start : start + len(us)])
        start += len(us)
    values = turn_start_values(final, rules)
    start = 0
    for mask, (us, ys) in zip(masks, columns, strict=True):
        table[mask, us, ys] = values[start : start + len(us)]
        _fill_copies(table, mask, space)
        start += len(us)
    return start


def solve(
    rules: RuleSet = OFFICIAL,
    progress: object = None,
    min_filled: int = 0,
    chunk: int = 768,
    workers: int = 2,
) -> np.ndarray:
    """Solve the game exactly and return its table of future points (``layout(rules).shape``,
    float64: (8192, 64, 2) for the official rules).

    ``progress`` is a tqdm-like object (its ``update(n)`` is called with the states just solved)
    or a callable ``(done, total)``. ``min_filled`` > 0 stops early: then only states with at least
    that many filled boxes are solved (enough for endgame tests), the rest stay 0. ``workers``
    threads share a layer (numpy releases the GIL inside its loops and matrix products).
    A rule set the solver cannot solve (``check_solvable``) raises ValueError.
    """
    space = layout(rules)
    table = np.zeros(space.shape)
    total = count_states(rules, min_filled) if progress is not None else 0
    done = 0
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for layer in _layers(space, min_filled):
            # A layer only reads the layer above, so its chunks are independent of each other.
            tasks = [
                pool.submit(_solve_masks, table, masks, rules)
                for masks in _chunks(layer, rules, chunk)
            ]
            for task in tasks:
                solved = task.result()
                done += solved
                _report(progress, done, total, solved)
    return table
