"""Two-player games between computers, many at once in numpy blocks, to measure win chances.

``play_duels(model, dice)`` plays both seats of every game, the perfect-points player by
default (each keep and box as V chooses them, as ``simulate.play_optimal`` plays), or the player
who plays to win for the seats ``to_win`` names. On request it records, at every turn start
and every decision, the win chance ``WinModel`` gives the player on turn, and the calibration
table compares those with how the games ended.

The dice are drawn up front, as ``simulate.draw_dice`` draws them: (games, 2 seats, 13 turns,
3 rolls, 5 dice); seat 0 starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.strategy.chances import TurnChances
from engine.strategy.dice import (
    KEEP_COUNTS,
    NUM_DICE,
    ROLL_OFFSET,
    keep_index_from_counts,
)
from engine.strategy.points import NUM_BOXES
from engine.strategy.spread import score_step
from engine.strategy.winning import WinModel

BINS = 10
"""The calibration table's bins: tenths of predicted chance."""

_ONE_HOT = np.eye(7, dtype=np.int64)[:, 1:]


@dataclass
class Calibration:
    """Per tenth of predicted chance: how many predictions, their sum, and the outcomes' sum."""

    count: np.ndarray = field(default_factory=lambda: np.zeros(BINS, dtype=np.int64))
    predicted: np.ndarray = field(default_factory=lambda: np.zeros(BINS))
    observed: np.ndarray = field(default_factory=lambda: np.zeros(BINS))

    def add(self, chance: np.ndarray, outcome: np.ndarray) -> None:
        """Record predictions ``chance`` whose player then scored ``outcome`` (1, 0.5 or 0)."""
        bins = np.minimum((chance * BINS).astype(np.int64), BINS - 1)
        self.count += np.bincount(bins, minlength=BINS)
        self.predicted += np.bincount(bins, weights=chance, minlength=BINS)
        self.observed += np.bincount(bins, weights=outcome, minlength=BINS)

    def merge(self, other: Calibration) -> None:
        """Add ``other``'s counts to these."""
        self.count += other.count
        self.predicted += other.predicted
        self.observed += other.observed

    def rows(self) -> list[tuple[int, int, float, float]]:
        """(tenth, predictions, mean predicted, observed rate) of each non-empty tenth."""
        return [
            (b, int(n), self.predicted[b] / n, self.observed[b] / n)
            for b, n in enumerate(self.count)
            if n
        ]

    def worst_gap(self) -> float:
        """The largest |observed - mean predicted| over the tenths."""
        return max(abs(obs - pred) for _, _, pred, obs in self.rows())


@dataclass
class _Seat:
    masks: np.ndarray
    us: np.ndarray
    ys: np.ndarray
    totals: np.ndarray


def _fresh(games: int) -> _Seat:
    zeros = np.zeros(games, dtype=np.int64)
    return _Seat(zeros.copy(), zeros.copy(), zeros.copy(), zeros.copy())


def play_duels(
    model: WinModel,
    dice: np.ndarray,
    to_win: tuple[bool, bool] = (False, False),
    record: bool = False,
) -> tuple[np.ndarray, list[tuple[int, int, int, np.ndarray]]]:
    """Play the games of ``dice`` (games, 2, 13, 3, 5); return final totals (games, 2) and,
    when ``record``, the predictions made: ``(seat, turn, rolls_left or 3 at a turn start,
    chance per game, NaN where no decision was made)``."""
    games = len(dice)
    every = np.arange(games)
    seats = [_fresh(games), _fresh(games)]
    tables = model.tables
    records: list[tuple[int, int, int, np.ndarray]] = []
    for turn in range(NUM_BOXES):
        for p in (0, 1):
            me, other = seats[p], seats[1 - p]
            spread = tables.spread((me.masks, me.us, me.ys))
            lead = me.totals - other.totals
            chances = TurnChances(tables, spread, lead, (other.masks, other.us, other.ys))
            if record:
                records.append((p, turn, 3, chances.start()))
            roll = _roll(dice[:, p, turn, 0])
            standing = np.zeros(games, dtype=bool)
            box = np.full(games, -1, dtype=np.intp)
            for rolls_left, throw in ((2, 1), (1, 2)):
                if record:
                    chance = chances.at(roll, rolls_left)
                    records.append((p, turn, rolls_left, np.where(standing, np.nan, chance)))
                if to_win[p]:
                    keep, scores = chances.choose(roll, rolls_left)
                    box = np.where(standing | (scores < 0), box, scores)
                else:
                    keep = (spread.choice2 if rolls_left == 2 else spread.choice1)[roll, every]
                standing |= keep >= ROLL_OFFSET
                keep = np.where(standing, roll + ROLL_OFFSET, keep)
                roll = _reroll(keep, dice[:, p, turn, throw])
            if record:
                chance = chances.at(roll, 0)
                records.append((p, turn, 0, np.where(standing, np.nan, chance)))
            if to_win[p]:
                box = np.where(box >= 0, box, chances.choose(roll, 0)[1])
            else:
                box = spread.best_box[roll, every]
            gain, me.masks, me.us, me.ys = score_step(
                me.masks, me.us, me.ys, box, roll, tables.rules
            )
            me.totals = me.totals + gain
    totals = np.stack([seats[0].totals, seats[1].totals], axis=1)
    return totals, records


def _roll(faces: np.ndarray) -> np.ndarray:
    """Roll indices of fresh dice (games, 5)."""
    return keep_index_from_counts(_ONE_HOT[faces].sum(axis=1)) - ROLL_OFFSET


def _reroll(keep: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """The rolls after holding ``keep`` (keep indices) and rolling the others: the first of
    ``faces`` (games, 5) as many as are rolled."""
    kept = KEEP_COUNTS[keep]
    rerolled = NUM_DICE - kept.sum(axis=1)
    fresh = _ONE_HOT[faces] * (np.arange(NUM_DICE) < rerolled[:, None])[:, :, None]
    return keep_index_from_counts(kept + fresh.sum(axis=1)) - ROLL_OFFSET


def outcome(totals: np.ndarray, seat: int) -> np.ndarray:
    """1 where ``seat`` won, 0.5 for a draw, 0 where it lost."""
    mine, theirs = totals[:, seat], totals[:, 1 - seat]
    return np.where(mine > theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))


def calibrate(
    totals: np.ndarray, records: list[tuple[int, int, int, np.ndarray]]
) -> tuple[Calibration, Calibration]:
    """Calibration at decisions and at turn starts, from ``play_duels``' records."""
    decisions, starts = Calibration(), Calibration()
    results = (outcome(totals, 0), outcome(totals, 1))
    for seat, _, rolls_left, chance in records:
        made = ~np.isnan(chance)
        target = starts if rolls_left == 3 else decisions
        target.add(chance[made], results[seat][made])
    return decisions, starts
