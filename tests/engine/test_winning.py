"""Win chances and the computer that plays to win (engine.strategy.winning and its helpers)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest

from engine.rules import IllegalMove, Scorecard
from engine.rulesets import YAHTZEE
from engine.strategy.bots import choose_move
from engine.strategy.chances import TurnChances, win_chances
from engine.strategy.dice import KEEPS, ROLL_INDEX
from engine.strategy.duel import calibrate, play_duels
from engine.strategy.endgame import SUPPORT
from engine.strategy.simulate import draw_dice
from engine.strategy.winning import WinModel

BOXES = YAHTZEE.keys


@pytest.fixture(scope="module")
def model(strategy_tables):
    """The official rules' win model (its moments built beside the V table if missing)."""
    return WinModel.load(YAHTZEE)


def card_with_open(open_boxes, points=0, rules=YAHTZEE):
    """A card with every box but ``open_boxes`` filled with ``points`` (0 in the upper ones)."""
    upper = set(rules.upper)
    return Scorecard.from_boxes(
        {box: 0 if box in upper else points for box in BOXES if box not in open_boxes}
    )


def random_card(rng, filled):
    """A card with ``filled`` boxes filled with plausible points."""
    card = Scorecard()
    for box in rng.sample(BOXES, filled):
        card = card.fill(box, [rng.randint(1, 6) for _ in range(5)])
    return card


# ----- the spread of the points to come ----------------------------------------------------------


def test_the_moments_mean_is_the_solved_table(model):
    assert np.allclose(model.moments[..., 0], model.advisor.table, atol=1e-9)
    # A new game: 254.59 points on average, spread 59.6 (a simulation measures 59.6 too).
    m1, m2 = model.moments[0, 0, 0, :2]
    assert round(m1, 4) == 254.5877
    assert 59.5 < np.sqrt(m2 - m1 * m1) < 59.7


def test_the_last_turns_distributions_have_the_moments(model):
    endgame = model.tables.endgame
    states = np.argwhere(endgame.rows >= 0)
    rows = endgame.rows[tuple(states.T)]
    points = np.arange(SUPPORT, dtype=float)
    pmf = endgame.pmf[rows].astype(float)  # kept in float32
    assert np.allclose(pmf.sum(axis=1), 1, atol=1e-5)
    for k in range(1, 5):
        exact = pmf @ points**k
        assert np.allclose(exact, model.moments[tuple(states.T)][:, k - 1], rtol=1e-5)


def test_a_last_yahtzee_is_a_yahtzee_or_nothing(model):
    endgame = model.tables.endgame
    mask = (1 << 13) - 1 - (1 << BOXES.index("yahtzee"))
    pmf = endgame.pmf[endgame.rows[mask, 0, 0]]
    # Going for five of a kind from nothing, three rolls: 2,783,176 / 60,466,176.
    assert pmf[50] == pytest.approx(2783176 / 60466176, abs=1e-8)
    assert pmf[0] == pytest.approx(1 - 2783176 / 60466176, abs=1e-7)


# ----- chances ------------------------------------------------------------------------------------


def test_a_new_game_is_even_and_chances_sum_to_one(model):
    cards = [Scorecard(), Scorecard()]
    for current in (0, 1):
        first, second = model.chances(cards, current, None, 2)
        assert first + second == pytest.approx(1)
        assert first == pytest.approx(0.5, abs=0.002)
    mine, theirs = model.chances(cards, 0, [6, 6, 6, 6, 6], 2)
    assert mine > 0.7 and mine + theirs == pytest.approx(1)
    assert model.chances(cards, 1, [6, 6, 6, 6, 6], 2)[1] == pytest.approx(mine)


def test_a_finished_game_is_decided_by_its_totals(model):
    low = Scorecard.from_boxes({box: 0 for box in BOXES})
    high = Scorecard.from_boxes({**{b: 0 for b in BOXES}, "chance": 20})
    assert model.chances([high, low], 0, None, 2) == (1.0, 0.0)
    assert model.chances([low, high], 1, None, 2) == (0.0, 1.0)
    assert model.chances([low, low], 0, None, 2) == (0.5, 0.5)


def test_the_last_turn_is_exact(model):
    needs_yahtzee = card_with_open({"yahtzee"})
    done = Scorecard.from_boxes({**{b: 0 for b in BOXES}, "chance": 6})
    assert model.chances([needs_yahtzee, done], 0, None, 2)[0] == pytest.approx(
        2783176 / 60466176, abs=1e-8
    )
    assert model.chances([needs_yahtzee, done], 0, [1, 1, 1, 1, 2], 1)[0] == pytest.approx(
        1 / 6, abs=1e-7
    )
    assert model.chances([needs_yahtzee, done], 0, [1, 1, 1, 1, 2], 0) == pytest.approx((0, 1))
    # Seat 0's last turn, seat 1's still to come: Chance (at most 30) loses only to a Yahtzee.
    only_chance = card_with_open({"chance"})
    assert model.chances([only_chance, needs_yahtzee], 0, None, 2)[1] == pytest.approx(
        2783176 / 60466176, abs=1e-7
    )


def chance_win_by_enumeration(kept, rolls, target):
    """Exact chance that Chance ends above ``target`` (a draw half), holding ``kept`` and
    rerolling the rest, then holding the best dice for the win at each later roll."""

    def best(dice, rolls):
        if rolls == 0:
            total = sum(dice)
            return Fraction(1) if total > target else Fraction(1, 2) if total == target else 0
        options = {tuple(sorted(k)) for n in range(6) for k in combinations(dice, n)}
        return max(after(keep, rolls) for keep in options)

    def after(keep, rolls):
        n = 5 - len(keep)
        outcomes = list(product(range(1, 7), repeat=n))
        return sum(best(tuple(sorted(keep + o)), rolls - 1) for o in outcomes) / len(outcomes)

    return after(tuple(kept), rolls)


def test_playing_to_win_the_last_turn_is_exact_and_differs_from_points(model):
    # Only Chance left, 24 behind a finished opponent: 25 wins, 24 draws.
    mine = card_with_open({"chance"})
    theirs = Scorecard.from_boxes({**{b: 0 for b in BOXES}, "chance": 24})
    dice = (3, 4, 6, 6, 6)
    moves = dict(model.move_chances([mine, theirs], 0, dice, 1))
    for kept in [(6, 6, 6), (4, 6, 6, 6), (3, 4, 6, 6, 6), ()]:
        assert moves[("keep", kept)] == pytest.approx(
            float(chance_win_by_enumeration(kept, 1, 24)), abs=1e-7
        )
    assert moves[("score", "chance")] == pytest.approx(
        1.0
    )  # 25 wins now; for points it rolls the 3 again
    to_win = model.best_move([mine, theirs], 0, dice, 1)
    for_points = model.advisor.best_move(mine, dice, 1)
    assert to_win == ("score", "chance")
    assert for_points == ("keep", (4, 6, 6, 6))
    assert moves[to_win] > moves[for_points]


def test_move_chances_rank_every_legal_move(model):
    rng = random.Random(4)
    for _ in range(40):
        cards = [random_card(rng, rng.randint(0, 12)) for _ in range(2)]
        current = rng.randint(0, 1)
        dice = sorted(rng.randint(1, 6) for _ in range(5))
        rolls_left = rng.randint(0, 2)
        moves = model.move_chances(cards, current, dice, rolls_left)
        options = model.advisor.options(cards[current], dice, rolls_left)
        assert {move for move, _ in moves} == {move for move, _ in options}
        assert all(0 <= chance <= 1 for _, chance in moves)
        best = max(chance for _, chance in moves)
        assert moves[0][1] >= best - 1e-4
        rng_bot = random.Random(0)
        assert choose_move(
            "to-win", model.advisor, cards[current], dice, rolls_left, rng_bot,
            cards=cards, seat=current, model=model,
        ) == moves[0][0]  # fmt: skip


def test_the_duels_play_what_move_chances_ranks_first(model):
    """The vectorised player of the simulations picks move_chances' first move."""
    rng = random.Random(8)
    for _ in range(30):
        cards = [random_card(rng, rng.randint(0, 12)) for _ in range(2)]
        current = rng.randint(0, 1)
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
        rolls_left = rng.randint(0, 2)
        turn = model._turn(cards[current], cards[1 - current])
        keep, box = turn.choose(np.array([ROLL_INDEX[dice]]), rolls_left)
        first = model.move_chances(cards, current, dice, rolls_left)[0][0]
        if box[0] >= 0:
            assert first == ("score", BOXES[box[0]])
        else:
            assert first == ("keep", KEEPS[keep[0]])
        assert isinstance(turn, TurnChances)


def test_bad_positions_are_refused(model):
    cards = [Scorecard(), Scorecard()]
    with pytest.raises(ValueError, match="two players"):
        model.chances([*cards, Scorecard()], 0, None, 2)
    with pytest.raises(ValueError, match="current"):
        model.chances(cards, 2, None, 2)
    with pytest.raises(ValueError, match="rolls_left"):
        model.chances(cards, 0, [1, 2, 3, 4, 5], 3)
    with pytest.raises(IllegalMove):
        model.chances(cards, 0, [1, 2, 3, 4, 5, 6], 1)
    with pytest.raises(ValueError, match="has not rolled"):
        model.move_chances(cards, 0, None, 2)


def test_the_computer_playing_to_win_alone_plays_for_points(model):
    rng = random.Random(2)
    card = random_card(rng, 5)
    dice = [2, 3, 3, 5, 6]
    perfect = choose_move("optimal", model.advisor, card, dice, 1, rng)
    assert choose_move("to-win", model.advisor, card, dice, 1, rng) == perfect
    assert choose_move("to-win", model.advisor, card, dice, 1, rng, cards=[card], model=model) == (
        perfect
    )


def test_predictions_are_calibrated_in_a_small_run(model):
    """600 games between perfect-points players: every tenth within 6 points (the benchmark
    measures 100,000 games against 2 points)."""
    dice = draw_dice(np.random.default_rng(99), 1200).reshape(600, 2, 13, 3, 5)
    totals, records = play_duels(model, dice, record=True)
    decisions, starts = calibrate(totals, records)
    assert decisions.count.sum() > 600 * 26
    assert decisions.worst_gap() < 0.06
    assert starts.worst_gap() < 0.08


def test_win_chances_follow_skewed_points_to_come():
    """Six turns of 5-30 points or, one time in ten, 50, against six turns of 5-34: the exact
    chance by convolution, and the chance from four moments within 0.2 points of it (the normal
    of the mean and variance alone is up to 1.7 points off)."""

    def turns(yahtzee, high, count=6):
        turn = np.zeros(60)
        turn[50] = yahtzee
        turn[5 : high + 1] = (1 - yahtzee) / (high - 4)
        total = np.ones(1)
        for _ in range(count):
            total = np.convolve(total, turn)
        return total

    def raw_moments(pmf):
        points = np.arange(len(pmf), dtype=float)
        return np.array([pmf @ points**k for k in range(1, 5)])

    mine, theirs = turns(0.1, 30), turns(0.0, 34)
    below = np.concatenate([[0], np.cumsum(theirs)])  # below[v] = P(theirs < v)
    for lead in (-40, -20, -10, 0, 10, 20):
        exact = sum(
            p * (0 if lead + x < 0 else 1 if lead + x >= len(theirs) else below[lead + x])
            + p * (0.5 * theirs[lead + x] if 0 <= lead + x < len(theirs) else 0)
            for x, p in enumerate(mine)
        )
        model = win_chances(np.array(lead), raw_moments(mine), raw_moments(theirs))
        assert float(model) == pytest.approx(exact, abs=0.002)
