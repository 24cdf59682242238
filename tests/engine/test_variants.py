"""Yatzy and Maxi Yatzy's boxes against hand-worked examples, and every box's score in its range."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from engine.rules import IllegalMove, Scorecard
from engine.rulesets import (
    MAXI_YATZY,
    MAXI_YATZY_SAVED,
    RULE_SETS,
    YAHTZEE_IN_ORDER,
    YATZY,
    YATZY_IN_ORDER,
)


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        ("ones", (1, 1, 2, 3, 1), 3),
        ("one_pair", (6, 6, 5, 5, 1), 12),  # the best pair
        ("one_pair", (1, 2, 3, 4, 6), 0),
        ("two_pairs", (6, 6, 5, 5, 1), 22),
        ("two_pairs", (6, 6, 6, 6, 1), 0),  # two pairs are of two faces
        ("two_pairs", (3, 3, 3, 2, 2), 10),
        ("three_of_a_kind", (4, 4, 4, 4, 2), 12),  # only the three dice count
        ("four_of_a_kind", (3, 3, 3, 3, 3), 12),
        ("small_straight", (5, 3, 1, 2, 4), 15),
        ("small_straight", (2, 3, 4, 5, 6), 0),  # 1-2-3-4-5 only
        ("large_straight", (2, 3, 4, 5, 6), 20),
        ("large_straight", (1, 2, 3, 4, 5), 0),
        ("full_house", (2, 2, 2, 5, 5), 16),  # the sum of the dice
        ("full_house", (5, 5, 5, 5, 5), 0),  # three and two of different faces
        ("chance", (1, 2, 3, 4, 6), 16),
        ("yatzy", (2, 2, 2, 2, 2), 50),
        ("yatzy", (2, 2, 2, 2, 3), 0),
    ],
)
def test_yatzy_boxes_score_as_hand_worked(box, dice, points):
    assert YATZY.box(box).score(dice) == points


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        ("sixes", (6, 6, 6, 6, 1, 2), 24),
        ("one_pair", (1, 1, 5, 5, 6, 2), 10),
        ("two_pairs", (1, 1, 5, 5, 6, 6), 22),
        ("three_pairs", (1, 1, 2, 2, 6, 6), 18),
        ("three_pairs", (1, 1, 1, 1, 6, 6), 0),
        ("five_of_a_kind", (2, 2, 2, 2, 2, 6), 10),
        ("full_straight", (6, 5, 4, 3, 2, 1), 21),
        ("small_straight", (1, 2, 3, 4, 5, 5), 15),
        ("full_house", (3, 3, 3, 5, 5, 5), 21),  # the best three and two: 5-5-5 and 3-3
        ("castle", (3, 3, 3, 5, 5, 5), 24),
        ("castle", (3, 3, 3, 3, 3, 3), 0),
        ("tower", (4, 4, 4, 4, 2, 2), 20),
        ("tower", (4, 4, 4, 4, 4, 4), 0),
        ("chance", (6, 6, 6, 6, 6, 6), 36),
        ("maxi_yatzy", (6, 6, 6, 6, 6, 6), 100),
        ("maxi_yatzy", (6, 6, 6, 6, 6, 5), 0),
    ],
)
def test_maxi_yatzy_boxes_score_as_hand_worked(box, dice, points):
    assert MAXI_YATZY.box(box).score(dice) == points


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_box_scores_within_its_range_for_every_roll(rules):
    """No box scores less than 0 or more than all its dice could (or its fixed points)."""
    for roll in combinations_with_replacement(range(1, 7), rules.dice):
        for box in rules.boxes:
            score = box.score(roll)
            assert 0 <= score <= max(box.points, sum(roll)), (rules.key, box.key, roll)
            if box.points and box.scorer.__name__ in ("run", "all_alike", "full_house"):
                assert score in (0, box.points)


def test_the_cards_sizes_and_bonuses():
    assert (YATZY.turns, YATZY.upper_bonus.threshold, YATZY.upper_bonus.points) == (15, 63, 50)
    assert (MAXI_YATZY.dice, MAXI_YATZY.turns, MAXI_YATZY.upper_bonus.threshold) == (6, 20, 84)
    assert not YATZY.joker and not MAXI_YATZY.joker
    assert MAXI_YATZY_SAVED.saved_rolls and not MAXI_YATZY.saved_rolls
    assert YATZY_IN_ORDER.in_order and YAHTZEE_IN_ORDER.in_order and YAHTZEE_IN_ORDER.joker


def test_a_yatzy_card_adds_its_bonus_and_has_no_joker():
    card = Scorecard(YATZY)
    for box, face in zip(YATZY.upper, range(1, 7), strict=True):
        card = card.fill(box, [face, face, face, 1 if face != 1 else 2, 2 if face != 2 else 3])
    assert card.upper_subtotal == 63 and card.upper_bonus == 50
    card = card.fill("yatzy", [4] * 5)
    assert card.bonus_for([4] * 5) == 0  # no extra-Yatzy bonus
    assert card.options([4] * 5)["one_pair"] == 8  # no joker: any open box, plain points


def test_a_maxi_card_takes_six_dice_and_refuses_five():
    card = Scorecard(MAXI_YATZY)
    assert card.fill("castle", [2, 2, 2, 6, 6, 6]).total == 24
    with pytest.raises(IllegalMove):
        card.fill("castle", [2, 2, 2, 6, 6])


def test_in_order_cards_offer_only_the_next_box():
    card = Scorecard(YATZY_IN_ORDER)
    assert list(card.options([6] * 5)) == ["ones"]
    with pytest.raises(IllegalMove):
        card.fill("yatzy", [6] * 5)
