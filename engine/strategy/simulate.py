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
from engine.strategy.points import layout
from engine.strategy.solver import turn_arrays

BLOCK = 10_000
"""Games drawn and played together; part of what a seed means, so keep it fixed."""

_ONE_HOT = np.eye(7, dtype=np.int64)[:, 1:]  # face (1-6) -> its count vector


def draw_dice(rng: np.random.Generator, games: int, rules: RuleSet = OFFICIAL) -> np.ndarray:
    """Fresh dice for ``games`` games: (games, turns, 3 rolls, dice) of faces 1-6 (13 turns of
    five dice for Yahtzee)."""
    return rng.integers(1, 7, size=(games, rules.turns, 3, rules.dice), dtype=np.int8)


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
        dice = draw_dice(dice_rng, min(BLOCK, games - start), rules)
        if bot_id == "optimal":
            totals.append(play_optimal(advisor, dice)[0])
        else:
            totals.append(play_bot(bot_id, advisor, dice, bot_rng, rules))
        if progress is not None:
            progress(len(dice))
    return np.concatenate(totals) if totals else np.zeros(0, dtype=np.int64)


def play_optimal(advisor: Advisor, dice: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play the optimal bot on pre-drawn ``dice`` (games, turns, 3, dice), all games at once.

    Returns ``(totals, boxes, rolls)``: final totals, and per game and turn the box index filled
    and the index in the rolls of ``points.layout(rules).dice`` of the dice it was filled with
    (so a test can replay the games).
    """
    table, rules = advisor.table, advisor.table_rules
    space = layout(rules)
    faces = space.dice
    first_face = np.array([roll[0] for roll in faces.rolls])
    games, turns = len(dice), space.num_boxes
    every = np.arange(games)
    masks = np.zeros(games, dtype=np.int64)
    us = np.zeros(games, dtype=np.intp)
    ys = np.zeros(games, dtype=np.intp)
    totals = np.zeros(games, dtype=np.int64)
    boxes = np.zeros((games, turns), dtype=np.int8)
    rolls = np.zeros((games, turns), dtype=np.int64)
    for turn in range(turns):
        _, e1, e2, best_box = turn_arrays(masks, us, ys, table, rules, with_best_box=True)
        counts = _ONE_HOT[dice[:, turn, 0]].sum(axis=1)
        roll = faces.keep_index_from_counts(counts) - faces.roll_offset
        for keep_values, throw in ((e2, 1), (e1, 2)):
            # The best keep among the roll's sub-multisets (keeping all the dice = stand).
            candidates = faces.sub_keeps_padded[roll]
            chosen = candidates[every, keep_values[candidates, every[:, None]].argmax(axis=1)]
            kept = faces.keep_counts[chosen]
            rerolled = faces.n - kept.sum(axis=1)
            fresh = (
                _ONE_HOT[dice[:, turn, throw]]
                * (np.arange(faces.n) < rerolled[:, None])[:, :, None]
            )
            roll = faces.keep_index_from_counts(kept + fresh.sum(axis=1)) - faces.roll_offset
        box = best_box[roll, every].astype(np.intp)
        extra = space.is_yahtzee_roll[roll] & (masks & space.yahtzee_bit != 0) & rules.joker
        joker = extra & space.forced_joker  # in order the next box scores its plain points
        points = np.where(
            joker, space.joker_points[box, first_face[roll] - 1], space.box_points[box, roll]
        ).astype(np.int64)
        upper = box < space.num_upper
        raw = us + np.where(upper, points, 0)
        totals += points
        crossed = upper & (us < space.u_cap) & (raw >= space.u_cap)
        totals += np.where(crossed, rules.upper_bonus.points, 0)
        totals += np.where(extra & (ys == 1), space.yahtzee_bonus, 0)
        us = np.minimum(raw, space.u_cap)
        if space.num_y == 2:
            ys = np.where((box == space.yahtzee) & (points == space.yahtzee_made), 1, ys)
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
