"""A stored game's rule set: ``Game.rules`` is the one place that reads it from the row."""

from __future__ import annotations

import pytest

from engine.rulesets import MAXI_YATZY, YAHTZEE, YAHTZEE_NO_BONUS
from games.models import Game
from tests.factories import act, make_game


def test_a_game_row_maps_to_its_rule_set_and_back():
    assert Game().rules is YAHTZEE
    assert Game(rules_key="no-multiple").rules is YAHTZEE_NO_BONUS
    assert Game(rules=YAHTZEE_NO_BONUS).rules_key == "no-multiple"
    assert Game(rules=MAXI_YATZY).rules is MAXI_YATZY
    with pytest.raises(ValueError, match="cannot store the rule set 'in-order'"):
        Game(rules=YAHTZEE.but(key="in-order", in_order=True))


@pytest.mark.django_db
@pytest.mark.parametrize("rules", [YAHTZEE, YAHTZEE_NO_BONUS])
def test_a_stored_game_plays_by_its_rule_set(rules):
    game = make_game([((2, 2, 2, 2, 2), "yahtzee")], rules=rules)
    act(game, "roll", dice=(2, 2, 2, 2, 2))
    game.refresh_from_db()
    state = game.state()
    assert state.rules is rules and game.replayed_state() == state
    joker = {"twos": 10}  # five twos must go in Twos while it is open
    assert (state.options() == joker) is (rules is YAHTZEE)
