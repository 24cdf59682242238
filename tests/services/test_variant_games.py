"""Stored games of every variant: six dice and 20 boxes in the row, saved rolls kept per seat so
that a restart and a replay reach the same state, and what a game refuses without a change."""

from __future__ import annotations

import pytest

from engine.rules import IllegalMove
from engine.rulesets import MAXI_YATZY, MAXI_YATZY_SAVED, RULE_SETS, YAHTZEE, YATZY
from games import services
from games.models import Game
from tests.factories import VISITOR, act, make_game, play_out

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_a_game_of_each_variant_is_stored_with_its_dice_and_boxes(rules):
    game = services.start_solo_game(VISITOR, rules=rules)
    game.refresh_from_db()
    assert len(game.held) == rules.dice
    assert len(game.ordered_seats()[0].scores) == rules.turns
    assert game.state() == game.replayed_state()


def test_saved_rolls_outlive_a_restart_and_match_the_replay():
    game = make_game([((1, 2, 3, 4, 5, 6), "chance")], rules=MAXI_YATZY_SAVED)
    assert game.ordered_seats()[0].saved_rolls == 2
    for _ in range(4):  # its own three and one of the two saved
        act(game, "roll", dice=(6, 6, 6, 6, 6, 6))
        game.refresh_from_db()
    fresh = Game.objects.get(pk=game.pk)  # as another process reads it
    state = fresh.state()
    assert (state.turn.rolls, state.turn.rolls_left, state.saved_rolls(0)) == (4, 1, 1)
    assert fresh.replayed_state() == state
    act(game, "score", box="maxi_yatzy")
    game.refresh_from_db()
    assert game.ordered_seats()[0].saved_rolls == 1
    assert game.replayed_state() == game.state()


def test_a_game_without_saved_rolls_refuses_a_fourth_roll_and_changes_nothing():
    game = make_game(rules=MAXI_YATZY)
    for _ in range(3):
        act(game, "roll", dice=(1, 1, 1, 1, 1, 1))
        game.refresh_from_db()
    before = (game.step, game.log_length, list(game.dice))
    with pytest.raises(IllegalMove, match="No rolls left: choose a box to score."):
        act(game, "roll", dice=(1, 1, 1, 1, 1, 1))
    game.refresh_from_db()
    assert (game.step, game.log_length, list(game.dice)) == before


@pytest.mark.parametrize(
    ("rules", "held", "message"),
    [
        (YAHTZEE, [False] * 6, "There is no such die: choose one of the five."),
        (MAXI_YATZY, [False] * 5, "There is no such die: choose one of the six."),
    ],
)
def test_a_roll_naming_dice_the_game_has_not_is_refused(rules, held, message):
    game = make_game(rules=rules)
    with pytest.raises(IllegalMove, match=message):
        services.perform(game.id, VISITOR, "roll", {"held": held}, game.step)
    game.refresh_from_db()
    assert game.log_length == 0 and not game.dice


def test_a_whole_game_of_yatzy_and_maxi_plays_out_with_the_computer():
    for rules in (YATZY, MAXI_YATZY_SAVED):
        game = services.start_game(
            VISITOR, ["Ana", ""], mode=Game.Mode.LOCAL, bots={1: "beginner"}, rules=rules
        )
        game = play_out(game)
        state = game.state()
        assert state.finished and all(card.is_full for card in state.cards)
        assert game.replayed_state() == state
