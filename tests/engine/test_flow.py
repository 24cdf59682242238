"""The game flow: turns, rolls and holds, and replays."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.flow import GameState, replay
from engine.rules import IllegalMove


def rolled(dice=(1, 2, 3, 4, 6), seats=1) -> GameState:
    return GameState.new(seats).apply(0, "roll", {"dice": list(dice)})


def test_three_rolls_then_no_more():
    state = rolled()
    state = state.apply(0, "roll", {"dice": [2, 2, 3, 4, 6]})
    state = state.apply(0, "roll", {"dice": [2, 2, 2, 4, 6]})
    assert state.turn.rolls_left == 0
    with pytest.raises(IllegalMove, match="No rolls left"):
        state.apply(0, "roll", {"dice": [2, 2, 2, 2, 2]})


def test_held_dice_cannot_change_on_a_roll():
    state = rolled().apply(0, "hold", {"die": 0, "held": True})
    with pytest.raises(IllegalMove, match="Held dice cannot change"):
        state.apply(0, "roll", {"dice": [6, 2, 3, 4, 6]})
    assert state.apply(0, "roll", {"dice": [1, 6, 6, 6, 6]}).turn.dice == (1, 6, 6, 6, 6)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"die": 5, "held": True}, "no such die"),
        ({"die": -1, "held": True}, "no such die"),
        ({"die": "1", "held": True}, "no such die"),
        ({"die": True, "held": True}, "no such die"),
        ({"die": None, "held": True}, "no such die"),
        ({"die": 1, "held": None}, "hold or release"),
        ({"die": 1, "held": False}, "not held"),
    ],
)
def test_bad_holds(payload, message):
    with pytest.raises(IllegalMove, match=message):
        rolled().apply(0, "hold", payload)


def test_nothing_to_hold_or_score_before_the_first_roll():
    state = GameState.new()
    with pytest.raises(IllegalMove, match="Roll the dice first"):
        state.apply(0, "hold", {"die": 0, "held": True})
    with pytest.raises(IllegalMove, match="Roll the dice first"):
        state.apply(0, "score", {"box": "chance"})
    assert state.options() == {}


def test_no_holds_after_the_last_roll():
    state = rolled().apply(0, "roll", {"dice": [1, 2, 3, 4, 6]})
    state = state.apply(0, "roll", {"dice": [1, 2, 3, 4, 6]})
    with pytest.raises(IllegalMove, match="nothing to hold"):
        state.apply(0, "hold", {"die": 0, "held": True})


def test_scoring_ends_the_turn_and_passes_to_the_next_seat():
    state = rolled(seats=2).apply(0, "score", {"box": "small_straight"})
    assert state.cards[0].boxes == {"small_straight": 30}
    assert state.current == 1
    assert state.turn.dice == ()
    with pytest.raises(IllegalMove, match="not your turn"):
        state.apply(0, "roll", {"dice": [1, 1, 1, 1, 1]})


def test_game_over_after_13_turns():
    state = GameState.new()
    for box in ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
                "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
                "chance"]:  # fmt: skip
        state = state.apply(0, "roll", {"dice": [1, 2, 3, 4, 5]})
        state = state.apply(0, "score", {"box": box})
    assert state.finished
    assert state.cards[0].total == 1 + 2 + 3 + 4 + 5 + 30 + 40 + 15
    with pytest.raises(IllegalMove, match="game is over"):
        state.apply(0, "roll", {"dice": [1, 2, 3, 4, 5]})


actions_st = st.lists(
    st.one_of(
        st.tuples(st.just("roll"), st.lists(st.integers(1, 6), min_size=5, max_size=5)),
        st.tuples(st.just("hold"), st.tuples(st.integers(0, 4), st.booleans())),
        st.tuples(st.just("score"), st.sampled_from(["ones", "sixes", "chance", "yahtzee"])),
    ),
    max_size=40,
)


@given(actions_st)
def test_replaying_the_accepted_actions_gives_the_same_state(attempts):
    """Whatever mix of legal and illegal moves is tried, the accepted ones replay to the state."""
    state = GameState.new()
    log = []
    for kind, value in attempts:
        if kind == "roll":
            held = state.turn.held if state.turn.dice else (False,) * 5
            dice = [
                old if h else new
                for old, new, h in zip(state.turn.dice or value, value, held, strict=True)
            ]
            payload = {"dice": dice}
        elif kind == "hold":
            payload = {"die": value[0], "held": value[1]}
        else:
            payload = {"box": value}
        try:
            state = state.apply(0, kind, payload)
        except IllegalMove:
            continue
        log.append((0, kind, payload))
    assert replay(log) == state
