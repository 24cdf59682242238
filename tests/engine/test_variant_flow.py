"""A game's flow in every variant: six dice, saved rolls carried to later turns, in order, and
what each refuses (a seventh die, a roll beyond those left, a box of another variant)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.flow import GameState, replay
from engine.rules import IllegalMove
from engine.rulesets import MAXI_YATZY, MAXI_YATZY_SAVED, RULE_SETS, YAHTZEE, YATZY, YATZY_IN_ORDER

SIX = [1, 2, 3, 4, 5, 6]


def rolled(state: GameState, times: int) -> GameState:
    for _ in range(times):
        state = state.apply(state.current, "roll", {"dice": list(SIX[: state.rules.dice])})
    return state


def test_six_dice_roll_hold_and_score():
    state = rolled(GameState.new(rules=MAXI_YATZY), 1)
    state = state.apply(0, "hold", {"die": 5, "held": True})
    assert state.turn.held == (False,) * 5 + (True,)
    state = state.apply(0, "score", {"box": "full_straight"})
    assert state.cards[0].boxes == {"full_straight": 21}
    assert state.turn.held == (False,) * 6


@pytest.mark.parametrize(
    ("rules", "dice", "message"),
    [
        (YAHTZEE, [1, 2, 3, 4, 5, 6], "Dice must be five numbers from 1 to 6."),
        (MAXI_YATZY, [1, 2, 3, 4, 5], "Dice must be 6 numbers from 1 to 6."),
        (MAXI_YATZY, [1, 2, 3, 4, 5, 6, 1], "Dice must be 6 numbers from 1 to 6."),
    ],
)
def test_a_roll_of_the_wrong_number_of_dice_is_refused(rules, dice, message):
    state = GameState.new(rules=rules)
    with pytest.raises(IllegalMove, match=message):
        state.apply(0, "roll", {"dice": dice})


@pytest.mark.parametrize(
    ("rules", "die", "message"),
    [
        (YAHTZEE, 5, "There is no such die: choose one of the five."),
        (MAXI_YATZY, 6, "There is no such die: choose one of the six."),
    ],
)
def test_holding_a_die_the_game_has_not_is_refused(rules, die, message):
    state = rolled(GameState.new(rules=rules), 1)
    with pytest.raises(IllegalMove, match=message):
        state.apply(0, "hold", {"die": die, "held": True})


def test_a_box_of_another_variant_is_refused():
    state = rolled(GameState.new(rules=YAHTZEE), 1)
    with pytest.raises(IllegalMove, match="There is no box called “castle”"):
        state.apply(0, "score", {"box": "castle"})
    state = rolled(GameState.new(rules=YATZY), 1)
    with pytest.raises(IllegalMove, match="There is no box called “yahtzee”"):
        state.apply(0, "score", {"box": "yahtzee"})


def test_in_order_only_the_next_box_is_offered():
    state = rolled(GameState.new(rules=YATZY_IN_ORDER), 1)
    assert list(state.options()) == ["ones"]
    with pytest.raises(IllegalMove):
        state.apply(0, "score", {"box": "chance"})
    state = rolled(state.apply(0, "score", {"box": "ones"}), 1)
    assert list(state.options()) == ["twos"]


def test_rolls_a_turn_leaves_are_saved_for_the_players_later_turns():
    state = GameState.new(seats=2, rules=MAXI_YATZY_SAVED)
    state = rolled(state, 1).apply(0, "score", {"box": "chance"})  # seat 0 saves two
    assert state.saved_rolls(0) == 2
    state = rolled(state, 3)
    assert state.turn.rolls_left == 0 and state.saved_rolls(1) == 0  # seat 1 saved none
    with pytest.raises(IllegalMove, match="No rolls left, saved ones included"):
        rolled(state, 1)
    state = state.apply(1, "score", {"box": "chance"})
    assert (state.current, state.turn.rolls_left, state.saved_rolls(0)) == (0, 5, 2)
    state = rolled(state, 4)  # three of the turn's own and one saved
    assert (state.turn.rolls_left, state.saved_rolls(0)) == (1, 1)
    state = rolled(state, 1)
    with pytest.raises(IllegalMove, match="No rolls left, saved ones included"):
        rolled(state, 1)
    with pytest.raises(IllegalMove, match="nothing to hold"):
        state.apply(0, "hold", {"die": 0, "held": True})
    state = state.apply(0, "score", {"box": "ones"})
    assert state.saved_rolls(0) == 0


def test_without_the_option_a_fourth_roll_is_refused_and_nothing_is_saved():
    state = rolled(GameState.new(rules=MAXI_YATZY), 1).apply(0, "score", {"box": "chance"})
    assert state.saved_rolls(0) == 0 and state.turn.rolls_left == 3
    state = rolled(state, 3)
    with pytest.raises(IllegalMove, match="No rolls left: choose a box to score."):
        rolled(state, 1)


@given(st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=20))
def test_saved_rolls_replay_to_the_same_state(rolls_per_turn):
    """Replaying the log gives the state played, however many rolls each turn used."""
    state = GameState.new(rules=MAXI_YATZY_SAVED)
    log = []
    for rolls, box in zip(rolls_per_turn, MAXI_YATZY_SAVED.keys, strict=False):
        for _ in range(min(rolls + state.turn.saved, state.turn.rolls_left)):
            log.append((0, "roll", {"dice": SIX}))
            state = state.apply(*log[-1])
        log.append((0, "score", {"box": box}))
        state = state.apply(*log[-1])
        assert 0 <= state.saved_rolls(0) <= 2 * len(log)
    assert replay(log, rules=MAXI_YATZY_SAVED) == state


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_a_whole_game_of_each_variant_fills_its_card(rules):
    state = GameState.new(rules=rules)
    for _ in range(rules.turns):
        state = rolled(state, 1)
        state = state.apply(0, "score", {"box": next(iter(state.options()))})
    assert state.finished and state.cards[0].is_full and len(state.cards[0].boxes) == rules.turns
