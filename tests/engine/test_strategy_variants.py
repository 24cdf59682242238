"""The exact solver under every rule set it solves: Yahtzee and Yatzy, in any order or in order,
and Maxi Yatzy's six dice; the rules (``Scorecard``) and the solver agree on every box."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

from engine.rules import Scorecard
from engine.rulesets import (
    MAXI_YATZY,
    MAXI_YATZY_SAVED,
    RULE_SETS,
    YAHTZEE,
    YAHTZEE_IN_ORDER,
    YAHTZEE_NO_BONUS,
    YATZY,
    YATZY_IN_ORDER,
    RuleSet,
)
from engine.strategy import NEW_GAME_VALUES, Advisor, odds, state_of
from engine.strategy.dice import dice_set
from engine.strategy.points import check_solvable, layout, solvable
from engine.strategy.simulate import simulate
from engine.strategy.solver import score_values, solve

NEW_GAME = {
    rules: NEW_GAME_VALUES[rules.key]
    for rules in (YAHTZEE, YAHTZEE_NO_BONUS, YAHTZEE_IN_ORDER, YATZY, YATZY_IN_ORDER)
}
"""Each five-dice rule set's exact expected score of a new game, as the guide states it."""

EVERY_TABLE = [*NEW_GAME, MAXI_YATZY]


def random_card(rng: random.Random, rules: RuleSet) -> Scorecard:
    """A card some game of ``rules`` could reach: a random part of it filled with real scores."""
    if rules.in_order:
        filled = rules.keys[: rng.randrange(rules.turns)]
    else:
        filled = [box for box in rules.keys if rng.random() < rng.random()][: rules.turns - 1]
    boxes = {}
    for box in filled:
        dice = [rng.randint(1, 6) for _ in range(rules.dice)]
        if box == rules.yahtzee_box and rng.random() < 0.5:
            dice = [dice[0]] * rules.dice
        boxes[box] = rules.box(box).score(dice)
    card = Scorecard.from_boxes(boxes, rules=rules)
    made = rules.yahtzee_box and card.score_of(rules.yahtzee_box)
    bonus = rules.yahtzee_bonus * rng.randint(0, 2) if rules.joker and made else 0
    return Scorecard(rules, card.scores, bonus)


@pytest.mark.parametrize("rules", EVERY_TABLE, ids=lambda r: r.key)
def test_the_solver_scores_every_roll_as_the_rules_do(rules):
    """With an arbitrary table, the solver's value and box for each roll are the best of what
    ``Scorecard.options`` allows: the forced joker, the order of the boxes, Yatzy's hands."""
    rng = random.Random(rules.key)
    space = layout(rules)
    table = np.random.default_rng(7).random(space.shape) * 100
    table[space.full_mask] = 0.0  # a full card has no future (expected_total relies on it)
    advisor = Advisor(table, rules)
    rolls = space.dice.rolls
    for _ in range(25):
        card = random_card(rng, rules)
        mask, u, y = state_of(card)
        best = np.empty((len(rolls), 1), dtype=np.int8)
        values = score_values(mask, np.array([u]), np.array([y]), table, rules, best_box=best)
        for r in [*space.yahtzee_rolls, *rng.sample(range(len(rolls)), 10)]:
            dice = rolls[r]
            options = card.options(dice)
            gains = {b: advisor.expected_total(card.fill(b, dice)) - card.total for b in options}
            assert values[r, 0] == pytest.approx(max(gains.values()), abs=1e-9)
            assert gains[rules.keys[best[r, 0]]] == pytest.approx(values[r, 0], abs=1e-9)


@cache
def _outcomes(n: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(1, 7), repeat=n))


def brute_last_box(card: Scorecard) -> float:
    """The expected final total of a card with one box open, by enumerating every ordered roll
    and every held subset (no solver table), the rules played through ``Scorecard``."""
    n = card.rules.dice

    @cache
    def best(dice: tuple[int, ...], rolls_left: int) -> float:
        value = max(card.fill(box, dice).total for box in card.options(dice))
        if rolls_left:
            held = {
                tuple(sorted(dice[i] for i in chosen))
                for size in range(n + 1)
                for chosen in itertools.combinations(range(n), size)
            }
            value = max(value, *(reroll(k, rolls_left - 1) for k in held))
        return value

    @cache
    def reroll(keep: tuple[int, ...], rolls_left: int) -> float:
        outcomes = _outcomes(n - len(keep))
        return sum(best(tuple(sorted(keep + o)), rolls_left) for o in outcomes) / len(outcomes)

    return reroll((), 2)


@pytest.mark.parametrize(
    ("rules", "open_box", "filled"),
    [
        (YATZY, "full_house", {"sixes": 18, "fives": 15, "fours": 12}),
        (YATZY, "sixes", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}),
        (YATZY_IN_ORDER, "yatzy", {}),
        (YAHTZEE_IN_ORDER, "chance", {"yahtzee": 50}),
        (MAXI_YATZY, "castle", {}),
        (MAXI_YATZY, "sixes", {"ones": 3, "twos": 8, "threes": 12, "fours": 16, "fives": 20}),
    ],
    ids=[
        "yatzy-house",
        "yatzy-bonus",
        "in-order-yatzy",
        "in-order-joker",
        "maxi-castle",
        "maxi-bonus",
    ],
)
def test_last_turn_values_match_brute_force(rules, open_box, filled):
    """The solver's value of the last turn is the enumeration's (Yatzy's 50 at 63, Maxi's at 84,
    the Yahtzee bonus that play in order still pays)."""
    rng = random.Random(open_box)
    boxes = {}
    for box in rules.keys:
        if box != open_box:
            dice = [rng.randint(1, 6) for _ in range(rules.dice)]
            boxes[box] = filled.get(box, rules.box(box).score(dice))
    card = Scorecard.from_boxes(boxes, rules=rules)
    if open_box == "chance":  # an extra Yahtzee in the last box still earns its 100
        card = Scorecard(rules, card.scores, 0)
    advisor = Advisor(solve(rules, min_filled=rules.turns - 1, workers=1), rules)
    assert advisor.expected_total(card) == pytest.approx(brute_last_box(card), abs=1e-9)


@pytest.mark.parametrize("rules", list(NEW_GAME), ids=lambda r: r.key)
def test_a_new_game_is_worth_its_exact_expected_score(strategy_tables, rules):
    advisor = strategy_tables[rules]
    assert round(advisor.expected_total(Scorecard(rules)), 4) == NEW_GAME[rules]
    assert advisor.exact and advisor.rules is rules


def test_every_five_dice_rule_set_has_its_table_built():
    assert {r for r in RULE_SETS.values() if solvable(r)} == set(NEW_GAME)
    assert check_solvable(MAXI_YATZY) is MAXI_YATZY and not solvable(MAXI_YATZY)


@pytest.mark.parametrize("rules", [YATZY, YAHTZEE_IN_ORDER, YATZY_IN_ORDER], ids=lambda r: r.key)
def test_optimal_games_average_the_solved_value(strategy_tables, rules):
    """4,000 simulated games of the perfect player land within 4 standard errors of the value."""
    totals = simulate("optimal", 4_000, seed=3, advisor=strategy_tables[rules], rules=rules)
    error = totals.std() / np.sqrt(len(totals))
    assert abs(totals.mean() - NEW_GAME[rules]) < 4 * error


@pytest.mark.parametrize("rules", [YATZY, YATZY_IN_ORDER], ids=lambda r: r.key)
def test_the_best_moves_are_legal_and_ranked(strategy_tables, rules):
    advisor, rng = strategy_tables[rules], random.Random(5)
    for _ in range(30):
        card = random_card(rng, rules)
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(rules.dice)))
        moves = advisor.options(card, dice, rng.randint(0, 2))
        values = [round(value, 9) for _, value in moves]  # the advisor's ties, to 1e-9
        assert values == sorted(values, reverse=True)
        scored = {move[1] for move, _ in moves if move[0] == "score"}
        assert scored == set(card.options(dice))


def test_yatzy_odds_name_its_own_boxes():
    chances = odds.box_odds((), 3, card=Scorecard(YATZY))
    assert list(chances) == [
        "yatzy", "full_house", "large_straight", "small_straight",
        "four_of_a_kind", "three_of_a_kind", "two_pairs", "one_pair",
    ]  # fmt: skip
    assert chances["yatzy"] == pytest.approx(2_783_176 / 60_466_176)
    assert chances["one_pair"] > chances["two_pairs"] > chances["full_house"]


def test_saved_rolls_are_answered_from_the_plain_table_and_say_not_exact():
    space = layout(MAXI_YATZY)
    table = np.zeros(space.shape)
    advisor = Advisor(table, MAXI_YATZY).answering(MAXI_YATZY_SAVED)
    assert advisor.rules is MAXI_YATZY_SAVED and advisor.table is table and not advisor.exact
    card, dice = Scorecard(MAXI_YATZY_SAVED), (6, 6, 6, 6, 6, 1)
    values = [dict(advisor.options(card, dice, rolls))[("keep", (6,) * 5)] for rolls in (1, 2, 5)]
    assert values[0] < values[1] < values[2]  # more rolls to chase the sixth six are worth more
    with pytest.raises(ValueError, match="rolls_left must be 0 to 2"):
        Advisor(table, MAXI_YATZY).options(Scorecard(MAXI_YATZY), dice, 3)


def test_six_dice_tables():
    six = dice_set(6)
    assert (six.num_rolls, six.num_keeps) == (462, 924)
    assert np.allclose(six.transition.sum(axis=1), 1.0)
    final = np.random.default_rng(1).random((462, 5))
    assert np.allclose(six.keep_values(final), six.transition @ final, rtol=0, atol=1e-12)
    values = np.random.default_rng(2).random((924, 3))
    expected = values[six.sub_keeps_padded].max(axis=1)
    assert np.array_equal(six.best_keep_inplace(values.copy()), expected)


MAXI_VALUE = NEW_GAME_VALUES["maxi"]
"""Maxi Yatzy's exact expected score (361.97014; docs/strategy.md), as the guide states it."""


@pytest.mark.skipif(
    not Advisor.table_exists(MAXI_YATZY),
    reason="Maxi Yatzy's table is built only on request: manage.py solve --variant maxi",
)
def test_maxi_yatzy_new_game_is_worth_its_exact_expected_score():
    """Maxi Yatzy's table (an hour's build at most, so only where it is built) gives its value,
    and the perfect player's simulated games average it."""
    advisor = Advisor.load(MAXI_YATZY, build_if_missing=False)
    assert round(advisor.expected_total(Scorecard(MAXI_YATZY)), 4) == pytest.approx(MAXI_VALUE)
    totals = simulate("optimal", 2_000, seed=4, advisor=advisor, rules=MAXI_YATZY)
    assert abs(totals.mean() - advisor.new_game_value) < 4 * totals.std() / np.sqrt(len(totals))
    saved = advisor.answering(MAXI_YATZY_SAVED)
    assert not saved.exact and saved.expected_total(Scorecard(MAXI_YATZY_SAVED)) == pytest.approx(
        advisor.new_game_value
    )


def test_work_arrays_are_reused_per_thread():
    """The solver's work arrays come back as the same memory (no fresh pages per chunk), and
    each thread has its own."""
    from concurrent.futures import ThreadPoolExecutor

    from engine.strategy.dice import SCRATCH

    first = SCRATCH.get("test", (4, 100))
    again = SCRATCH.get("test", (3, 50))
    assert np.shares_memory(first, again) and again.flags.c_contiguous
    assert not np.shares_memory(first, SCRATCH.get("test", (5, 100)))  # larger: grown anew
    with ThreadPoolExecutor(1) as pool:
        other = pool.submit(SCRATCH.get, "test", (3, 50)).result()
    assert not np.shares_memory(other, SCRATCH.get("test", (3, 50)))
