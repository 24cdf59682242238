"""Who is likely to win a two-player game, and which move wins most often.

Each player's points still to come, under perfect-points play, are spread as ``spread`` says
(their exact mean, 2nd, 3rd and 4th moments) and, in the last two turns, exactly as
``endgame`` has them. The mover's current turn is followed roll by roll (``chances``): the
chance when the turn ends on each roll, carried back through the keeps. Calibration and speed:
docs/benchmarks.md.

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

import numpy as np

from engine.rules import Scorecard, check_dice
from engine.rulesets import YAHTZEE, RuleSet
from engine.strategy import storage
from engine.strategy.advisor import Advisor, Move, PathLike, State, state_of
from engine.strategy.chances import WIN_TOLERANCE, TurnChances, WinTables
from engine.strategy.dice import KEEPS, ROLL_INDEX, SUB_KEEPS
from engine.strategy.endgame import build_endgame
from engine.strategy.spread import (
    MOMENTS,
    build_moments,
    load_moments,
    moment_path,
    save_moments,
)


class WinModel:
    """Two-player win chances for one rule set, from its V table and the moments beside it."""

    def __init__(self, advisor: Advisor, moments: np.ndarray, cache_size: int = 256) -> None:
        self.advisor = advisor
        self.rules = advisor.rules
        self.moments = moments
        endgame = build_endgame(advisor.table, moments, advisor.rules)
        self.tables = WinTables(advisor.rules, advisor.table, moments, endgame)
        self._cache: OrderedDict[tuple[State, State, int], TurnChances] = OrderedDict()
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

    # ----- one turn of the mover against the other's card --------------------------------------

    def _turn(self, mover: Scorecard, other: Scorecard) -> TurnChances:
        """The mover's turn against ``other`` (cached: a page asks the same turn again)."""
        key = (state_of(mover), state_of(other), mover.total - other.total)
        with self._lock:
            turn = self._cache.get(key)
            if turn is not None:
                self._cache.move_to_end(key)
                return turn
        mine, theirs = (tuple(np.array([v]) for v in s) for s in key[:2])
        turn = TurnChances(self.tables, self.tables.spread(mine), np.array([key[2]]), theirs)
        with self._lock:
            self._cache[key] = turn
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return turn

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
        if mover.is_full:  # the game is over (or the cards are): the totals decide
            lead = np.array(mover.total - other.total)
            chance = float(self.tables.between(lead, state_of(mover), state_of(other)))
        elif held is None:
            chance = float(self._turn(mover, other).start()[0])
        else:
            roll = np.array([ROLL_INDEX[held]])
            chance = float(self._turn(mover, other).at(roll, rolls_left)[0])
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
        card allows). After a keep the mover plays the rest of the turn to win, after that both
        players play for points. "Best" is ``best_move``'s order: the moves within
        ``WIN_TOLERANCE`` of the best chance first, by expected points, then the others by chance.
        """
        held = self._check(cards, current, dice, rolls_left)
        if held is None:
            raise ValueError("the player on turn has not rolled: there is no move to weigh")
        mover, other = cards[current], cards[1 - current]
        if mover.is_full:
            return []
        turn = self._turn(mover, other)
        roll = ROLL_INDEX[held]
        weighed: list[tuple[Move, float, float]] = []  # move, chance, expected points
        if rolls_left:
            chances = turn.to_win[rolls_left][:, 0]
            points = turn.spread.values[rolls_left - 1][:, 0]
            weighed += [(("keep", KEEPS[k]), chances[k], points[k]) for k in SUB_KEEPS[roll]]
        for box in mover.options(held):
            b = self.rules.index(box)
            weighed.append((("score", box), turn.boxes[b, roll, 0], turn.box_points[b, roll, 0]))
        best = max(chance for _, chance, _ in weighed)

        def rank(entry: tuple[Move, float, float]) -> tuple[bool, float, bool]:
            move, chance, points = entry
            near = chance >= best - WIN_TOLERANCE
            return (not near, -points if near else -chance, move[0] != "score")

        weighed.sort(key=rank)
        return [(move, float(chance)) for move, chance, _ in weighed]

    def best_move(
        self, cards: Sequence[Scorecard], current: int, dice: Sequence[int], rolls_left: int
    ) -> Move:
        """The move of the computer that plays to win (the first of ``move_chances``)."""
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
