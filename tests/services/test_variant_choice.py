"""The variant a form offers: every rule set for one browser's games, multiplayer without
"multiple Yahtzees off"; a posted key becomes its rule set, an unknown one a sentence to read."""

from __future__ import annotations

import pytest
from django import forms
from django.utils import translation

from engine.rules import IllegalMove
from engine.rulesets import MAXI_YATZY_SAVED, RULE_SETS, YAHTZEE, YAHTZEE_NO_BONUS, YATZY
from games.forms import VariantField, read_move, variant_choices


class SoloChoice(forms.Form):
    variant = VariantField()


class TableChoice(forms.Form):
    variant = VariantField(multiplayer=True)


@pytest.mark.parametrize("key", list(RULE_SETS))
def test_each_offered_key_is_its_rule_set(key):
    form = SoloChoice({"variant": key})
    assert form.is_valid()
    assert form.cleaned_data["variant"] is RULE_SETS[key]


def test_no_choice_is_yahtzee():
    form = SoloChoice({})
    assert form.is_valid()
    assert form.cleaned_data["variant"] is YAHTZEE


@pytest.mark.parametrize("key", ["chess", "OFFICIAL", "maxi ", "<b>"])
def test_an_unknown_key_is_refused_with_a_sentence(key):
    form = SoloChoice({"variant": key})
    assert not form.is_valid()
    assert form.errors["variant"] == [f"Choose a game from the list: “{key}” is not one of them."]


def test_multiplayer_offers_no_multiple_yahtzees_off():
    assert [key for key, _ in variant_choices(multiplayer=True)] == [
        key for key in RULE_SETS if key != YAHTZEE_NO_BONUS.key
    ]
    form = TableChoice({"variant": YAHTZEE_NO_BONUS.key})
    assert not form.is_valid()
    assert TableChoice({"variant": MAXI_YATZY_SAVED.key}).is_valid()


def test_names_are_in_the_pages_language():
    with translation.override("es"):
        names = dict(variant_choices())
        assert str(names[MAXI_YATZY_SAVED.key]) == "Maxi Yatzy, tiradas guardadas"
        assert str(names[YATZY.key]) == "Yatzy"
        form = SoloChoice({"variant": "chess"})
        assert form.errors["variant"] == ["Elige un juego de la lista: «chess» no es uno de ellos."]


@pytest.mark.parametrize(("held", "parsed"), [("000001", [False] * 5 + [True]), ("00000", None)])
def test_a_move_names_five_or_six_dice_the_game_then_checks_its_own(held, parsed):
    """Posted or sent over a socket alike (``read_move``): six dice are a roll's shape too."""
    move = read_move("roll", {"held": held, "step": "3"})
    assert move.params["held"] == (parsed or [False] * 5)


@pytest.mark.parametrize(
    ("held", "message"),
    [
        ("0000000", "There is no such die: a game has five or six."),
        ("0000", "Say whether to hold or release the die."),
        ("00000x", "Say whether to hold or release the die."),
    ],
)
def test_a_move_naming_no_game_s_dice_is_refused(held, message):
    with pytest.raises(IllegalMove, match=message):
        read_move("roll", {"held": held})
