"""The advisor: expected totals and ranked moves for any position, from the solved table."""

from __future__ import annotations

import os
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np

from engine.rules import CATEGORIES, UPPER_BONUS, YAHTZEE_POINTS, Scorecard, check_dice
from engine.strategy import storage
from engine.strategy.dice import KEEPS, ROLL_INDEX, SUB_KEEPS
from engine.strategy.points import NUM_UPPER, U_CAP, YAHTZEE
from engine.strategy.solver import count_states, solve, turn_arrays

PathLike = str | os.PathLike[str]
Move = tuple[Literal["keep"], tuple[int, ...]] | tuple[Literal["score"], str]
"""A move: ``("keep", kept_dice_sorted)`` (reroll the others) or ``("score", box)``."""

State = tuple[int, int, int]
"""A between-turn state ``(mask, u, y)``, see ``solver``."""

_TIE = 9  # decimals: values equal to 1e-9 count as tied (then scoring sorts before keeping)


def state_of(card: Scorecard) -> State:
    """The solver's state ``(mask, u, y)`` of a card at the start of a turn."""
    mask = 0
    for i, points in enumerate(card.scores):
        if points is not None:
            mask |= 1 << i
    u = min(U_CAP, card.upper_subtotal)
    y = int(card.multiple_yahtzees and card.scores[YAHTZEE] == YAHTZEE_POINTS)
    return mask, u, y


class Advisor:
    """Optimal-strategy advice for one rules variant, backed by its solved table.

    Cards of the other variant are handed to a sibling advisor loaded from the same place.
    """

    def __init__(
        self,
        table: np.ndarray,
        multiple_yahtzees: bool = True,
        *,
        path: PathLike | None = None,
        cache_size: int = 4096,
    ) -> None:
        self.table = table
        self.multiple_yahtzees = multiple_yahtzees
        self.path = path
        self._cache: OrderedDict[State, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._sibling: Advisor | None = None
        self._builds_sibling = True  # load(build_if_missing=False) turns it off
        self.build_seconds: float | None = None  # set by build(): how long the solve took

    # ----- loading and building -------------------------------------------------------------

    @classmethod
    def load(
        cls,
        multiple_yahtzees: bool = True,
        path: PathLike | None = None,
        *,
        build_if_missing: bool = True,
        progress: object = None,
    ) -> Advisor:
        """Load a variant's table from ``path`` (directory or .npy file; default the cache dir).

        When the table is missing or damaged it is built once and saved (about 10-40 s), unless
        ``build_if_missing`` is false: then FileNotFoundError (missing) or ``DamagedTable`` (a
        ValueError) is raised, and so it is later for the other variant's table (see ``_for``).
        """
        file = storage.table_path(multiple_yahtzees, path)
        try:
            table = storage.load_table(file)
        except (FileNotFoundError, storage.DamagedTable):
            if not build_if_missing:
                raise
            return build(multiple_yahtzees, path, progress=progress)
        advisor = cls(table, multiple_yahtzees, path=path)
        advisor._builds_sibling = build_if_missing
        return advisor

    @staticmethod
    def table_exists(multiple_yahtzees: bool = True, path: PathLike | None = None) -> bool:
        """True when a file of the table's size is on disk (a stat: ``load`` still checks it)."""
        return storage.table_exists(multiple_yahtzees, path)

    @staticmethod
    def is_ready(multiple_yahtzees: bool = True, path: PathLike | None = None) -> bool:
        """Same as ``table_exists``; the site asks ``games.advice.is_ready``, which loads it."""
        return storage.table_exists(multiple_yahtzees, path)

    def _for(self, card: Scorecard) -> Advisor:
        """The advisor of the card's variant: self, or the sibling for the other one."""
        if card.multiple_yahtzees == self.multiple_yahtzees:
            return self
        with self._lock:
            if self._sibling is None:
                self._sibling = Advisor.load(
                    card.multiple_yahtzees, self.path, build_if_missing=self._builds_sibling
                )
                self._sibling._sibling = self
            return self._sibling

    # ----- values -----------------------------------------------------------------------------

    @property
    def new_game_value(self) -> float:
        """Expected final total of a new game under optimal play."""
        return float(self.table[0, 0, 0])

    def expected_total(self, card: Scorecard) -> float:
        """Expected final total at the start of a turn, the points already on the card included."""
        advisor = self._for(card)
        if card.is_full:
            return float(card.total)
        mask, u, y = state_of(card)
        return card.total + float(advisor.table[mask, u, y])

    def options(
        self, card: Scorecard, dice: Iterable[int], rolls_left: int
    ) -> list[tuple[Move, float]]:
        """Every legal move with the expected final total it leads to, best first.

        While ``rolls_left`` (0-2, rolls remaining after these dice) is positive the keeps are
        every distinct sub-multiset of the dice, () and all five included; the scores are the
        boxes ``card.options(dice)`` allows. On a tie, scoring comes before keeping.
        """
        advisor = self._for(card)
        dice = check_dice(dice)
        if rolls_left not in (0, 1, 2):
            raise ValueError("rolls_left must be 0, 1 or 2")
        if card.is_full:
            return []
        state = state_of(card)
        base = float(card.total)
        moves: list[tuple[Move, float]] = []
        if rolls_left:
            keep_values = advisor.turn_values(state)[rolls_left - 1]
            subs = SUB_KEEPS[ROLL_INDEX[dice]]
            for k, value in zip(subs, keep_values[list(subs)].tolist(), strict=True):
                moves.append((("keep", KEEPS[k]), base + value))
        bonus = card.bonus_for(dice)
        for box, points in card.options(dice).items():
            moves.append((("score", box), base + advisor._score_gain(state, box, points, bonus)))
        moves.sort(key=lambda m: (-round(m[1], _TIE), m[0][0] != "score"))
        return moves

    def best_move(self, card: Scorecard, dice: Iterable[int], rolls_left: int) -> Move:
        """The optimal move (the first of ``options``); ValueError on a full card."""
        options = self.options(card, dice, rolls_left)
        if not options:
            raise ValueError("the card is full: there is no move to make")
        return options[0][0]

    def _score_gain(self, state: State, box: str, points: int, yahtzee_bonus: int) -> float:
        """Points + bonuses + future value of putting ``points`` in ``box`` now."""
        mask, u, y = state
        c = CATEGORIES.index(box)
        if c < NUM_UPPER:
            raw = u + points
            bonus = UPPER_BONUS if u < U_CAP <= raw else 0
            u = min(raw, U_CAP)
        else:
            bonus = 0
            if c == YAHTZEE and self.multiple_yahtzees and points == YAHTZEE_POINTS:
                y = 1
        future = float(self.table[mask | 1 << c, u, y])
        return points + bonus + yahtzee_bonus + future

    # ----- per-state turn arrays (cached) -------------------------------------------------------

    def turn_values(self, state: State) -> np.ndarray:
        """(2, 462) future points of each keep with 1 (row 0) or 2 (row 1) rerolls to make."""
        with self._lock:
            values = self._cache.get(state)
            if values is not None:
                self._cache.move_to_end(state)
                return values
        return self.prefetch_states([state])[state]

    def prefetch(self, cards: Sequence[Scorecard]) -> None:
        """Compute in one batch the turn arrays of many cards' states (e.g. a simulation turn)."""
        self.prefetch_states([state_of(c) for c in cards if not c.is_full])

    def prefetch_states(self, states: Sequence[State]) -> dict[State, np.ndarray]:
        """Compute and cache the turn arrays of ``states`` not cached yet; return those new ones."""
        with self._lock:
            missing = list(dict.fromkeys(s for s in states if s not in self._cache))
        if not missing:
            return {}
        masks, us, ys = (np.array(column) for column in zip(*missing, strict=True))
        _, e1, e2, _ = turn_arrays(masks, us, ys, self.table, self.multiple_yahtzees)
        computed = {state: np.stack([e1[:, j], e2[:, j]]) for j, state in enumerate(missing)}
        with self._lock:
            self._cache.update(computed)
            # A batch larger than the cache stays whole until the next one (simulations).
            while len(self._cache) > max(self._cache_size, len(missing)):
                self._cache.popitem(last=False)
        return computed


_build_lock = threading.Lock()


def build(
    multiple_yahtzees: bool = True, path: PathLike | None = None, progress: object = None
) -> Advisor:
    """Solve a variant, save its table (atomically) and return an advisor over it.

    ``progress``: a tqdm-like object (``update(n)`` per batch of states; its ``total`` is set if
    unset) or a callable ``(states_done, states_total)``.
    """
    if progress is not None and hasattr(progress, "update") and not getattr(progress, "total", 1):
        progress.total = count_states(multiple_yahtzees)
        if hasattr(progress, "refresh"):
            progress.refresh()
    with _build_lock:
        started = time.perf_counter()
        table = solve(multiple_yahtzees, progress=progress)
        storage.check_values(table)  # never save a table that every reader would refuse
        file = storage.table_path(multiple_yahtzees, path)
        try:
            storage.save_table(table, file)
        except OSError as exc:  # still usable from memory; only the next start pays again
            warnings.warn(f"could not save the strategy table to {file}: {exc}", stacklevel=2)
        advisor = Advisor(table, multiple_yahtzees, path=path)
        advisor.build_seconds = time.perf_counter() - started
    return advisor
