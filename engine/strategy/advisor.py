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

from engine.rules import Scorecard, check_dice
from engine.rulesets import YAHTZEE as OFFICIAL
from engine.rulesets import RuleSet
from engine.strategy import storage
from engine.strategy.points import MAX_SAVED_ROLLS, check_solvable, exact_rules, layout
from engine.strategy.solver import count_states, solve, turn_arrays

PathLike = str | os.PathLike[str]
"""A directory or a ``.npy`` file, as a string or a path."""
Move = tuple[Literal["keep"], tuple[int, ...]] | tuple[Literal["score"], str]
"""A move: ``("keep", kept_dice_sorted)`` (reroll the others) or ``("score", box)``."""

State = tuple[int, int, int]
"""A between-turn state ``(mask, u, y)``, see ``solver``."""

_TIE = 9  # decimals: values equal to 1e-9 count as tied (then scoring sorts before keeping)


def state_of(card: Scorecard) -> State:
    """The solver's state ``(mask, u, y)`` of a card at the start of a turn."""
    space = layout(exact_rules(card.rules))
    mask = 0
    for i, points in enumerate(card.scores):
        if points is not None:
            mask |= 1 << i
    u = min(space.u_cap, card.upper_subtotal)
    y = int(space.num_y == 2 and card.scores[space.yahtzee] == space.yahtzee_made)  # type: ignore[index]
    return mask, u, y


class Advisor:
    """Optimal-strategy advice for one rule set, backed by its solved table.

    Cards of another rule set are handed to a sibling advisor loaded from the same place. A rule
    set with saved rolls is answered from the table of the same game without them
    (``points.exact_rules``): then ``exact`` is False, the advice is strong but not optimal (it
    plays each turn with the rolls it has, without weighing the rolls it could save).
    """

    def __init__(
        self,
        table: np.ndarray,
        rules: RuleSet = OFFICIAL,
        *,
        path: PathLike | None = None,
        cache_size: int = 4096,
    ) -> None:
        self.table = table
        self.table_rules = exact_rules(rules)  # ValueError for a rule set with no table
        self.rules = rules
        self.exact = self.table_rules is rules
        """True when the advice is exactly optimal (False: saved rolls, see the class)."""
        self.path = path
        self._cache: OrderedDict[State, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        # The advisors of every rule set met so far, shared by all of them (one table each).
        self._siblings: dict[RuleSet, Advisor] = {rules: self}
        self._builds_sibling = True  # load(build_if_missing=False) turns it off
        self.build_seconds: float | None = None  # set by build(): how long the solve took

    # ----- loading and building -------------------------------------------------------------

    @classmethod
    def load(
        cls,
        rules: RuleSet = OFFICIAL,
        path: PathLike | None = None,
        *,
        build_if_missing: bool = True,
        progress: object = None,
    ) -> Advisor:
        """Load a rule set's table from ``path`` (directory or .npy file; default the cache dir).

        When the table is missing or damaged it is built once and saved (about 10-40 s), unless
        ``build_if_missing`` is false: then FileNotFoundError (missing) or ``DamagedTable`` (a
        ValueError) is raised, and so it is later for another rule set's table (see ``_for``).
        A rule set the solver cannot solve raises ValueError.
        """
        table_rules = exact_rules(rules)
        file = storage.table_path(table_rules, path)
        try:
            table = storage.load_table(file, table_rules)
        except (FileNotFoundError, storage.DamagedTable):
            if not build_if_missing:
                raise
            built = build(table_rules, path, progress=progress)
            return built if table_rules is rules else cls(built.table, rules, path=path)
        advisor = cls(table, rules, path=path)
        advisor._builds_sibling = build_if_missing
        return advisor

    @staticmethod
    def table_exists(rules: RuleSet = OFFICIAL, path: PathLike | None = None) -> bool:
        """True when a file of the table's size is on disk (a stat: ``load`` still checks it)."""
        return storage.table_exists(rules, path)

    @staticmethod
    def is_ready(rules: RuleSet = OFFICIAL, path: PathLike | None = None) -> bool:
        """Same as ``table_exists``; the site asks ``games.advice.is_ready``, which loads it."""
        return storage.table_exists(rules, path)

    def _for(self, card: Scorecard) -> Advisor:
        """The advisor of the card's rule set: self, or a sibling loaded from the same place
        (or over this same table, for a rule set it answers: saved rolls)."""
        if card.rules is self.rules or card.rules == self.rules:
            return self
        with self._lock:
            sibling = self._siblings.get(card.rules)
            if sibling is None:
                if exact_rules(card.rules) is self.table_rules:
                    sibling = Advisor(self.table, card.rules, path=self.path)
                else:
                    sibling = Advisor.load(
                        card.rules, self.path, build_if_missing=self._builds_sibling
                    )
                sibling._siblings = self._siblings
                self._siblings[card.rules] = sibling
            return sibling

    def answering(self, rules: RuleSet) -> Advisor:
        """The advisor of ``rules`` among this one's siblings (``_for`` a new card of it)."""
        return self._for(Scorecard(rules))

    # ----- values -----------------------------------------------------------------------------

    @property
    def new_game_value(self) -> float:
        """Expected final total of a new game under optimal play."""
        return float(self.table[0, 0, 0])  # the empty card's value

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

        While ``rolls_left`` (rolls remaining after these dice: 0-2, or more with saved rolls) is
        positive the keeps are every distinct sub-multiset of the dice, () and all of them
        included; the scores are the boxes ``card.options(dice)`` allows. On a tie, scoring comes
        before keeping.
        """
        advisor = self._for(card)
        dice = check_dice(dice, card.rules)
        most = MAX_SAVED_ROLLS if card.rules.saved_rolls else 2
        if not isinstance(rolls_left, int) or not 0 <= rolls_left <= most:
            raise ValueError(f"rolls_left must be 0 to {most}")
        if card.is_full:
            return []
        state = state_of(card)
        base = float(card.total)
        moves: list[tuple[Move, float]] = []
        if rolls_left:
            keep_values = advisor._keep_values(state, rolls_left)
            table_dice = layout(advisor.table_rules).dice
            subs = table_dice.sub_keeps[table_dice.roll_index[dice]]
            for k, value in zip(subs, keep_values[list(subs)].tolist(), strict=True):
                moves.append((("keep", table_dice.keeps[k]), base + value))
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
        space = layout(self.table_rules)
        c = self.rules.index(box)
        if c < space.num_upper:
            raw = u + points
            bonus = self.rules.upper_bonus.points if u < space.u_cap <= raw else 0
            u = min(raw, space.u_cap)
        else:
            bonus = 0
            if c == space.yahtzee and space.num_y == 2 and points == space.yahtzee_made:
                y = 1
        future = float(self.table[mask | 1 << c, u, y])
        return points + bonus + yahtzee_bonus + future

    # ----- per-state turn arrays (cached) -------------------------------------------------------

    def _keep_values(self, state: State, rolls_left: int) -> np.ndarray:
        """(keeps,) future points of each keep with ``rolls_left`` rerolls to make.

        Beyond two (saved rolls) each extra reroll is one more round of best keep and reroll.
        """
        values = self.turn_values(state)[min(rolls_left, 2) - 1]
        dice = layout(self.table_rules).dice
        for _ in range(rolls_left - 2):
            values = dice.transition @ values[dice.sub_keeps_padded].max(axis=1)
        return values

    def turn_values(self, state: State) -> np.ndarray:
        """(2, keeps) future points of each keep with 1 (row 0) or 2 (row 1) rerolls to make
        (462 keeps for five dice, 924 for six)."""
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
        _, e1, e2, _ = turn_arrays(masks, us, ys, self.table, self.table_rules)
        computed = {state: np.stack([e1[:, j], e2[:, j]]) for j, state in enumerate(missing)}
        with self._lock:
            self._cache.update(computed)
            # A batch larger than the cache stays whole until the next one (simulations).
            while len(self._cache) > max(self._cache_size, len(missing)):
                self._cache.popitem(last=False)
        return computed


_build_lock = threading.Lock()


def build(
    rules: RuleSet = OFFICIAL, path: PathLike | None = None, progress: object = None
) -> Advisor:
    """Solve a rule set, save its table (atomically) and return an advisor over it.

    ``progress``: a tqdm-like object (``update(n)`` per batch of states; its ``total`` is set if
    unset) or a callable ``(states_done, states_total)``.
    """
    if progress is not None and hasattr(progress, "update") and not getattr(progress, "total", 1):
        progress.total = count_states(rules)
        if hasattr(progress, "refresh"):
            progress.refresh()
    rules = check_solvable(rules)
    with _build_lock:
        started = time.perf_counter()
        table = solve(rules, progress=progress).astype(layout(rules).dtype, copy=False)
        storage.check_values(table, rules)  # never save a table that every reader would refuse
        file = storage.table_path(rules, path)
        try:
            storage.save_table(table, file)
        except OSError as exc:  # still usable from memory; only the next start pays again
            warnings.warn(f"could not save the strategy table to {file}: {exc}", stacklevel=2)
        advisor = Advisor(table, rules, path=path)
        advisor.build_seconds = time.perf_counter() - started
    return advisor
