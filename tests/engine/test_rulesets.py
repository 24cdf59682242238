"""Rule sets are values the engine asks: the card, a game's flow and the solver each read the
rule set they are given, and refuse clearly what they cannot do."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engine import dice
from engine.flow import GameState
from engine.rules import IllegalMove, Scorecard, check_dice
from engine.rulesets import (
    RULE_SETS,
    YAHTZEE,
    YAHTZEE_BOXES,
    YAHTZEE_NO_BONUS,
    ExtraYahtzee,
    full_house,
    lower_box,
    rule_set,
)
from engine.strategy import Advisor, table_path
from engine.strategy.points import TABLE_SHAPE
from engine.strategy.solver import count_states, solve

IN_ORDER = YAHTZEE_NO_BONUS.but(key="in-order", name="Yahtzee in order", in_order=True)
SIX_DICE = YAHTZEE_NO_BONUS.but(key="six-dice", name="Six dice", dice=6)
SEVEN_DICE = YAHTZEE_NO_BONUS.but(key="seven-dice", name="Seven dice", dice=7)
UPSIDE_DOWN = YAHTZEE.but(
    key="upside-down", name="Sixes first", boxes=(*YAHTZEE_BOXES[5::-1], *YAHTZEE_BOXES[6:])
)
RICH_HOUSE = YAHTZEE.but(
    key="rich-house",
    name="A full house worth 30",
    boxes=tuple(
        lower_box("full_house", "Full house", full_house, points=30)
        if box.key == "full_house"
        else box
        for box in YAHTZEE_BOXES
    ),
)


def test_a_rule_set_is_found_by_its_key_and_names_its_table_file(tmp_path):
    assert rule_set("official") is YAHTZEE and rule_set("no-multiple") is YAHTZEE_NO_BONUS
    assert list(RULE_SETS)[:2] == ["official", "no-multiple"]
    assert table_path(YAHTZEE, tmp_path).name == "yahtzee-v2-official.npy"
    assert table_path(YAHTZEE_NO_BONUS, tmp_path).name == "yahtzee-v2-no-multiple.npy"
    assert rule_set("maxi").dice == 6
    with pytest.raises(KeyError):
        rule_set("maxi-yahtzee")


def test_a_rule_set_is_an_immutable_value():
    with pytest.raises(dataclasses.FrozenInstanceError):
        YAHTZEE.dice = 6  # type: ignore[misc]
    assert YAHTZEE.but() == YAHTZEE and YAHTZEE.but(in_order=True) != YAHTZEE
    assert (YAHTZEE.dice, YAHTZEE.turns, YAHTZEE.upper_bonus.threshold) == (5, 13, 63)
    assert YAHTZEE.extra_yahtzee is ExtraYahtzee.BONUS_AND_JOKER and YAHTZEE.yahtzee_bonus == 100
    assert YAHTZEE_NO_BONUS.extra_yahtzee is ExtraYahtzee.NOTHING
    assert YAHTZEE_NO_BONUS.keys == YAHTZEE.keys


def test_the_same_dice_score_as_each_rule_set_says():
    card = {"yahtzee": 50}
    official = Scorecard.from_boxes(card, rules=YAHTZEE)
    no_bonus = Scorecard.from_boxes(card, rules=YAHTZEE_NO_BONUS)
    fives = (5, 5, 5, 5, 5)
    # Official: the forced joker sends five fives to Fives, and they earn the 100 bonus.
    assert official.options(fives) == {"fives": 25}
    assert official.fill("fives", fives).total == 50 + 25 + 100
    # Multiple Yahtzees off: any box, full house and straights score nothing, no bonus.
    assert no_bonus.options(fives)["full_house"] == 0 and len(no_bonus.options(fives)) == 12
    assert no_bonus.fill("fives", fives).total == 50 + 25
    # A full house worth 30 is one box value changed; nothing else about the card changes.
    house = (2, 2, 3, 3, 3)
    assert Scorecard(RICH_HOUSE).options(house)["full_house"] == 30
    assert Scorecard(YAHTZEE).options(house)["full_house"] == 25
    assert Scorecard(RICH_HOUSE).options(house)["chance"] == 13


def test_a_rule_set_that_fills_in_order_refuses_a_box_out_of_order():
    card = Scorecard(IN_ORDER)
    assert card.options((6, 6, 6, 6, 6)) == {"ones": 0}
    with pytest.raises(IllegalMove) as refused:
        card.fill("yahtzee", (6, 6, 6, 6, 6))
    assert str(refused.value) == "Boxes are filled in order: the next one is Ones."
    card = card.fill("ones", (1, 1, 2, 3, 4))
    assert card.boxes == {"ones": 2} and card.next_box == "twos"
    with pytest.raises(IllegalMove, match="the next one is Twos"):
        card.fill("chance", (1, 1, 2, 3, 4))
    # The same refusal reaches a game's flow, which changes nothing.
    state = GameState.new(1, rules=IN_ORDER).apply(0, "roll", {"dice": [6, 6, 6, 6, 6]})
    with pytest.raises(IllegalMove, match="the next one is Ones"):
        state.apply(0, "score", {"box": "sixes"})
    assert state.apply(0, "score", {"box": "ones"}).cards[0].boxes == {"ones": 0}


def test_the_number_of_dice_comes_from_the_rule_set():
    assert check_dice([1, 2, 3, 4, 5, 6], SIX_DICE) == (1, 2, 3, 4, 5, 6)
    with pytest.raises(IllegalMove, match="Dice must be 6 numbers from 1 to 6"):
        check_dice([1, 2, 3, 4, 5], SIX_DICE)
    with pytest.raises(IllegalMove, match="Dice must be five numbers"):
        check_dice([1, 2, 3, 4, 5, 6])
    state = GameState.new(1, rules=SIX_DICE)
    assert state.turn.held == (False,) * 6
    state = state.apply(0, "roll", {"dice": [1, 2, 3, 4, 5, 6]}).apply(
        0, "hold", {"die": 5, "held": True}
    )
    assert state.turn.kept == (6,)
    # The fair dice deal six faces a roll, and check them from the seed.
    key = dice.key("seed")
    faces = dice.faces(key, 0, 1, 1, range(6))
    log = [(1, 0, "roll", {"dice": faces}), (2, 0, "score", {"box": "chance"})]
    assert dice.check(log, 1, key, rules=SIX_DICE).honest


@pytest.mark.parametrize(
    ("rules", "why"),
    [
        (SEVEN_DICE, "7 dice, not 5 or 6"),
        (UPSIDE_DOWN, "other upper boxes"),
        (RICH_HOUSE.but(key="saved", saved_rolls=True), "rolls saved for later turns"),
    ],
)
def test_the_solver_refuses_a_rule_set_it_cannot_solve(rules, why, tmp_path):
    for attempt in (
        lambda: solve(rules, min_filled=12),
        lambda: count_states(rules),
        lambda: Advisor(np.zeros(TABLE_SHAPE), rules),
        lambda: Advisor.load(rules, tmp_path),
    ):
        with pytest.raises(ValueError, match=f"cannot solve the rule set '{rules.key}'.*{why}"):
            attempt()
    assert list(tmp_path.iterdir()) == []  # refused before any table was built or written


def test_a_new_game_is_worth_what_it_was_under_each_rule_set(strategy_tables):
    official = strategy_tables[YAHTZEE]
    assert round(official.expected_total(Scorecard(YAHTZEE)), 4) == 254.5877
    assert round(official.expected_total(Scorecard(YAHTZEE_NO_BONUS)), 4) == 245.8708
    assert official.rules is YAHTZEE and strategy_tables[YAHTZEE_NO_BONUS].rules is YAHTZEE_NO_BONUS
