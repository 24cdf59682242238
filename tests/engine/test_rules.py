"""The rules core: every box, every joker path, and properties that hold for any play."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rules import (
    CATEGORIES,
    LOWER,
    UPPER,
    IllegalMove,
    Scorecard,
    box_score,
    check_dice,
)
from engine.rulesets import YAHTZEE, YAHTZEE_NO_BONUS

ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))


def test_categories_in_scorecard_order():
    assert CATEGORIES == (
        "ones", "twos", "threes", "fours", "fives", "sixes",
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
        "large_straight", "yahtzee", "chance",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        ("ones", (1, 1, 3, 4, 1), 3),
        ("ones", (2, 3, 4, 5, 6), 0),
        ("twos", (2, 5, 2, 6, 3), 4),
        ("threes", (3, 3, 3, 3, 3), 15),
        ("fours", (4, 1, 4, 2, 4), 12),
        ("fives", (5, 1, 2, 3, 4), 5),
        ("sixes", (6, 6, 1, 1, 1), 12),
        ("three_of_a_kind", (4, 4, 4, 2, 6), 20),
        ("three_of_a_kind", (4, 4, 4, 4, 6), 22),
        ("three_of_a_kind", (5, 5, 5, 5, 5), 25),
        ("three_of_a_kind", (4, 4, 2, 2, 6), 0),
        ("four_of_a_kind", (5, 5, 5, 5, 3), 23),
        ("four_of_a_kind", (6, 6, 6, 6, 6), 30),
        ("four_of_a_kind", (5, 5, 5, 3, 3), 0),
        ("full_house", (3, 3, 6, 6, 6), 25),
        ("full_house", (2, 2, 2, 5, 5), 25),
        ("full_house", (4, 4, 4, 4, 4), 0),  # five alike is not a full house (no joker here)
        ("full_house", (4, 4, 4, 4, 2), 0),
        ("full_house", (1, 2, 3, 4, 5), 0),
        ("small_straight", (1, 2, 3, 4, 6), 30),
        ("small_straight", (3, 4, 5, 6, 6), 30),
        ("small_straight", (2, 3, 4, 5, 2), 30),
        ("small_straight", (1, 2, 3, 4, 5), 30),
        ("small_straight", (1, 2, 3, 5, 6), 0),
        ("small_straight", (1, 3, 4, 5, 1), 0),
        ("large_straight", (1, 2, 3, 4, 5), 40),
        ("large_straight", (6, 5, 4, 3, 2), 40),
        ("large_straight", (1, 2, 3, 4, 6), 0),
        ("yahtzee", (6, 6, 6, 6, 6), 50),
        ("yahtzee", (6, 6, 6, 6, 5), 0),
        ("chance", (1, 3, 4, 5, 6), 19),
        ("chance", (6, 6, 6, 6, 6), 30),
    ],
)
def test_box_scores(box, dice, points):
    card = Scorecard()
    assert box_score(box, dice) == points
    assert card.options(dice)[box] == points
    assert card.fill(box, dice).boxes == {box: points}


def test_counts_over_all_rolls_match_known_odds():
    """Exhaustive counts of the 7,776 ordered rolls; the guide quotes these figures."""
    count = {box: sum(box_score(box, r) > 0 for r in ALL_ROLLS) for box in LOWER}
    assert count["yahtzee"] == 6
    assert count["large_straight"] == 240
    assert count["small_straight"] == 1200
    assert count["full_house"] == 300
    assert count["three_of_a_kind"] == 1656
    assert count["four_of_a_kind"] == 156


@pytest.mark.parametrize(
    "dice",
    [(1, 2, 3, 4), (1, 2, 3, 4, 5, 6), (0, 1, 2, 3, 4), (1, 2, 3, 4, 7), "12345", None, (1.0,) * 5],
)
def test_malformed_dice_are_illegal(dice):
    with pytest.raises(IllegalMove, match="five numbers from 1 to 6"):
        Scorecard().options(dice)


def test_unknown_box_is_illegal():
    with pytest.raises(IllegalMove, match="no box called"):
        Scorecard().fill("sevens", (1, 2, 3, 4, 5))


def test_filled_box_is_illegal():
    card = Scorecard().fill("chance", (1, 2, 3, 4, 5))
    with pytest.raises(IllegalMove, match="Chance is already filled"):
        card.fill("chance", (6, 6, 6, 6, 5))
    assert "chance" not in card.options((6, 6, 6, 6, 5))


def test_illegal_move_is_a_value_error_with_readable_message():
    with pytest.raises(ValueError) as info:
        Scorecard().fill("chance", (1, 2, 3))
    assert str(info.value) == "Dice must be five numbers from 1 to 6."


def test_upper_bonus_at_63():
    card = Scorecard.from_boxes(
        {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}
    )  # 45, needs 18 more: three sixes
    assert card.upper_needed == 18
    assert card.upper_bonus == 0
    exactly = card.fill("sixes", (6, 6, 6, 1, 2))
    assert exactly.upper_subtotal == 63
    assert exactly.upper_bonus == 35
    assert exactly.upper_needed == 0
    assert exactly.total == 63 + 35
    short = card.fill("sixes", (6, 6, 1, 1, 2))
    assert short.upper_subtotal == 57
    assert short.upper_bonus == 0
    assert short.total == 57


def test_no_joker_while_yahtzee_box_open():
    card = Scorecard.from_boxes({"chance": 20})
    options = card.options((3, 3, 3, 3, 3))
    assert options["full_house"] == 0
    assert options["small_straight"] == 0
    assert options["yahtzee"] == 50
    assert set(options) == set(CATEGORIES) - {"chance"}


def test_first_yahtzee_earns_no_bonus():
    card = Scorecard().fill("yahtzee", (2, 2, 2, 2, 2))
    assert card.yahtzee_bonus == 0
    assert card.total == 50


def test_joker_forced_into_open_upper_box():
    card = Scorecard.from_boxes({"yahtzee": 50})
    assert card.options((5, 5, 5, 5, 5)) == {"fives": 25}
    with pytest.raises(IllegalMove, match="must go in Fives while that box is open"):
        card.fill("full_house", (5, 5, 5, 5, 5))
    filled = card.fill("fives", (5, 5, 5, 5, 5))
    assert filled.yahtzee_bonus == 100
    assert filled.total == 50 + 25 + 100


def test_joker_in_lower_boxes_at_full_value():
    card = Scorecard.from_boxes({"yahtzee": 50, "fours": 12})
    options = card.options((4, 4, 4, 4, 4))
    assert options == {
        "three_of_a_kind": 20,
        "four_of_a_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 20,
    }
    filled = card.fill("large_straight", (4, 4, 4, 4, 4))
    assert filled.boxes["large_straight"] == 40
    assert filled.yahtzee_bonus == 100
    with pytest.raises(IllegalMove, match="must go in an open lower box"):
        card.fill("ones", (4, 4, 4, 4, 4))


def test_joker_zero_in_upper_box_when_lower_full():
    boxes = {box: 0 for box in LOWER} | {"yahtzee": 50, "sixes": 18}
    card = Scorecard.from_boxes(boxes)
    assert card.options((6, 6, 6, 6, 6)) == {box: 0 for box in UPPER if box != "sixes"}
    filled = card.fill("twos", (6, 6, 6, 6, 6))
    assert filled.boxes["twos"] == 0
    assert filled.yahtzee_bonus == 100


def test_joker_after_a_zeroed_yahtzee_gives_no_bonus():
    card = Scorecard.from_boxes({"yahtzee": 0})
    assert card.options((3, 3, 3, 3, 3)) == {"threes": 15}
    assert card.fill("threes", (3, 3, 3, 3, 3)).yahtzee_bonus == 0
    lower = Scorecard.from_boxes({"yahtzee": 0, "threes": 9})
    assert lower.options((3, 3, 3, 3, 3))["small_straight"] == 30
    assert lower.fill("small_straight", (3, 3, 3, 3, 3)).yahtzee_bonus == 0


def test_multiple_yahtzees_off_no_bonus_no_joker():
    card = Scorecard.from_boxes({"yahtzee": 50}, rules=YAHTZEE_NO_BONUS)
    options = card.options((5, 5, 5, 5, 5))
    assert options["full_house"] == 0
    assert options["large_straight"] == 0
    assert options["fives"] == 25
    assert options["ones"] == 0
    filled = card.fill("chance", (5, 5, 5, 5, 5))
    assert filled.yahtzee_bonus == 0
    assert filled.total == 75


def test_several_bonuses_add_up():
    card = Scorecard().fill("yahtzee", (1, 1, 1, 1, 1))
    card = card.fill("twos", (2, 2, 2, 2, 2)).fill("threes", (3, 3, 3, 3, 3))
    assert card.yahtzee_bonus == 200
    assert card.total == 50 + 10 + 15 + 200


def test_options_empty_when_full():
    card = Scorecard.from_boxes({box: 0 for box in CATEGORIES})
    assert card.is_full
    assert card.options((1, 2, 3, 4, 5)) == {}


dice_st = st.lists(st.integers(1, 6), min_size=5, max_size=5)


@st.composite
def played_cards(draw):
    """A card reached by legal play: random dice, a random legal box each turn."""
    card = Scorecard(draw(st.sampled_from([YAHTZEE, YAHTZEE_NO_BONUS])))
    for _ in range(draw(st.integers(0, 13))):
        dice = draw(dice_st)
        box = draw(st.sampled_from(sorted(card.options(dice))))
        card = card.fill(box, dice)
    return card


@given(played_cards(), dice_st)
def test_options_never_empty_before_the_card_is_full(card, dice):
    options = card.options(dice)
    assert bool(options) == (not card.is_full)
    assert set(options) <= set(card.open_boxes)
    assert all(points >= 0 for points in options.values())


@given(played_cards())
def test_total_is_the_sum_of_its_parts(card):
    boxes = card.boxes
    upper = sum(points for box, points in boxes.items() if box in UPPER)
    lower = sum(points for box, points in boxes.items() if box in LOWER)
    bonus = 35 if upper >= 63 else 0
    assert card.upper_subtotal == upper
    assert card.total == upper + bonus + lower + card.yahtzee_bonus
    assert card.yahtzee_bonus % 100 == 0


@given(played_cards(), dice_st)
def test_fill_is_allowed_exactly_for_the_options(card, dice):
    options = card.options(dice)
    for box in CATEGORIES:
        if box in options:
            new = card.fill(box, dice)
            assert new.boxes[box] == options[box]
            assert new.turns_played == card.turns_played + 1
            assert new.total == card.total + options[box] + card.bonus_for(dice) + (
                new.upper_bonus - card.upper_bonus
            )
        else:
            with pytest.raises(IllegalMove):
                card.fill(box, dice)


@given(dice_st)
def test_dice_order_does_not_matter(dice):
    assert Scorecard().options(dice) == Scorecard().options(list(reversed(dice)))
    assert check_dice(dice) == tuple(sorted(dice))
