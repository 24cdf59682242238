"""Play many solitaire games with a bot, fast, to measure its average score.

The dice of every game are drawn up front from ``numpy.random.default_rng(seed)``: for each game,
turn and roll, five fresh dice, of which a reroll of n dice uses the first n. So a seed fixes the
dice whatever the bot does, and different bots can be compared on the same dice.

The optimal bot is played for a whole block of games at once: each turn, the turn arrays of all
the games' states are computed in one batch (``solver.turn_arrays``) and the keeps and boxes are
chosen with array operations. The other bots go game by game through ``bots.choose_move`` (with
the advisor's turn arrays prefetched in one batch per turn).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from engine.rules import Scorecard
from engine.rulesets import YAHTZEE as OFFICIAL
from engine.rulesets import RuleSet
from engine.strategy.advisor import Advisor
from engine.strategy.bots import BOTS, choose_move
from engine.strategy.dice import (
    KEEP_COUNTS,
    NUM_DICE,
    ROLL_OFFSET,
    ROLLS,
    SUB_KEEPS_PADDED,
    keep_index_from_counts,
)
from engine.strategy.points import (
    BOX_POINTS,
    IS_YAHTZEE_ROLL,
    JOKER_POINTS,
    NUM_BOXES,
    NUM_UPPER,
    U_CAP,
    YAHTZEE,
    YAHTZEE_BIT,
    YAHTZEE_MADE,
)
from engine.strategy.solver import turn_arrays

BLOCK = 10_000
"""Games drawn and played together; part of what a seed means, so keep it fixed."""

_ONE_HOT = np.eye(7, dtype=np.int64)[:, 1:]  # face (1-6) -> its count vector
_FIRST_FACE = np.array([roll[0] for roll in ROLLS])


def draw_dice(rng: np.random.Generator, games: int) -> np.ndarray:
    """Fresh dice for ``games`` games: (games, 13 turns, 3 rolls, 5 dice) of faces 1-6."""
    return rng.integers(1, 7, size=(games, NUM_BOXES, 3, NUM_DICE), dtype=np.int8)


def simulate(
    bot_id: str,
    games: int,
    seed: int = 0,
    advisor: Advisor | None = None,
    rules: RuleSet = OFFICIAL,
    progress: Callable[[int], object] | None = None,
) -> np.ndarray:
    """Final totals (int array) of ``games`` games played by bot ``bot_id`` from ``seed``.

    ``progress(n)`` is called after each block with the number of games just finished.
    """
    if bot_id not in BOTS:
        raise ValueError(f"no bot called {bot_id!r}")
    if advisor is None and BOTS[bot_id].uses_advisor:
        advisor = Advisor.load(rules)
    if advisor is not None and advisor.rules != rules:
        advisor = advisor._for(Scorecard(rules))
    dice_rng = np.random.default_rng(seed)
    bot_rng = random.Random(seed)
    totals = []
    for start in range(0, games, BLOCK):
        dice = draw_dice(dice_rng, min(BLOCK, games - start))
        if bot_id == "optimal":
            totals.append(play_optimal(advisor, dice)[0])
        else:
            totals.append(play_bot(bot_id, advisor, dice, bot_rng, rules))
        if progress is not None:
            progress(len(dice))
    return np.concatenate(totals) if totals else np.zeros(0, dtype=np.int64)


def play_optimal(advisor: Advisor, dice: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play the optimal bot on pre-drawn ``dice`` (games, 13, 3, 5), all games at once.

    Returns ``(totals, boxes, rolls)``: final totals, and per game and turn the box index filled
    and the index in ROLLS of the dice it was filled with (so a test can replay the games).
    """
    table, rules = advisor.table, advisor.rules
    multiple = rules.joker
    games = len(dice)
    every = np.arange(games)
    masks = np.zeros(games, dtype=np.int64)
    us = np.zeros(games, dtype=np.intp)
    ys = np.zeros(games, dtype=np.intp)
    totals = np.zeros(games, dtype=np.int64)
    boxes = np.zeros((games, NUM_BOXES), dtype=np.int8)
    rolls = np.zeros((games, NUM_BOXES), dtype=np.int64)
    for turn in range(NUM_BOXES):
        _, e1, e2, best_box = turn_arrays(masks, us, ys, table, rules, with_best_box=True)
        counts = _ONE_HOT[dice[:, turn, 0]].sum(axis=1)
        roll = keep_index_from_counts(counts) - ROLL_OFFSET
        for keep_values, throw in ((e2, 1), (e1, 2)):
            # The best keep among the roll's sub-multisets (keeping all five = stand).
            candidates = SUB_KEEPS_PADDED[roll]
            chosen = candidates[every, keep_values[candidates, every[:, None]].argmax(axis=1)]
            kept = KEEP_COUNTS[chosen]
            rerolled = NUM_DICE - kept.sum(axis=1)
            fresh = (
                _ONE_HOT[dice[:, turn, throw]]
                * (np.arange(NUM_DICE) < rerolled[:, None])[:, :, None]
            )
            roll = keep_index_from_counts(kept + fresh.sum(axis=1)) - ROLL_OFFSET
        box = best_box[roll, every].astype(np.intp)
        joker = IS_YAHTZEE_ROLL[roll] & (masks & YAHTZEE_BIT != 0) & multiple
        points = np.where(
            joker, JOKER_POINTS[box, _FIRST_FACE[roll] - 1], BOX_POINTS[box, roll]
        ).astype(np.int64)
        upper = box < NUM_UPPER
        raw = us + np.where(upper, points, 0)
        totals += points
        totals += np.where(upper & (us < U_CAP) & (raw >= U_CAP), rules.upper_bonus.points, 0)
        totals += np.where(joker & (ys == 1), rules.yahtzee_bonus, 0)
        us = np.minimum(raw, U_CAP)
        if multiple:
            ys = np.where((box == YAHTZEE) & (points == YAHTZEE_MADE), 1, ys)
        masks |= 1 << box
        boxes[:, turn] = box
        rolls[:, turn] = roll
    return totals, boxes, rolls


def play_bot(
    bot_id: str,
    advisor: Advisor | None,
    dice: np.ndarray,
    rng: random.Random,
    rules: RuleSet = OFFICIAL,
) -> np.ndarray:
    """Play any bot on pre-drawn ``dice`` through ``choose_move`` and ``Scorecard``; totals."""
    cards = [Scorecard(rules) for _ in range(len(dice))]
    faces = dice.tolist()
    for turn in range(rules.turns):
        if advisor is not None and BOTS[bot_id].uses_advisor:
            advisor.prefetch(cards)  # one batch for the whole turn instead of one per game
        for g, card in enumerate(cards):
            held = sorted(faces[g][turn][0])
            for throw, rolls_left in ((1, 2), (2, 1), (3, 0)):
                move = choose_move(bot_id, advisor, card, held, rolls_left, rng)
                if move[0] == "score":
                    cards[g] = card.fill(move[1], held)
                    break
                kept = move[1]
                held = sorted(kept + tuple(faces[g][turn][throw][: rules.dice - len(kept)]))
    return np.array([card.total for card in cards], dtype=np.int64)


def describe(totals: np.ndarray) -> dict[str, float]:
    """Summary statistics of a run: games, mean, std, median, min, max."""
    return {
        "games": len(totals),
        "mean": float(np.mean(totals)),
        "std": float(np.std(totals)),
        "median": float(np.median(totals)),
        "min": float(np.min(totals)),
        "max": float(np.max(totals)),
    }
