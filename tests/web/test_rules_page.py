"""The game page follows the game's rule set (the template asks ``game.rules``)."""

from __future__ import annotations

import pytest

from engine.rulesets import YAHTZEE, YAHTZEE_NO_BONUS
from tests.clients import client_for
from tests.factories import make_game


@pytest.mark.django_db
@pytest.mark.parametrize(("rules", "shown"), [(YAHTZEE, False), (YAHTZEE_NO_BONUS, True)])
def test_the_game_page_says_when_multiple_yahtzees_are_off(rules, shown):
    page = client_for().get(f"/game/{make_game(rules=rules).id}/").text
    assert ("Multiple Yahtzees are off: no Yahtzee bonus, no joker." in page) is shown
    assert ('id="yahtzee-bonus"' in page) is not shown  # the card's bonus row
