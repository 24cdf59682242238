"""The variant of a game between people, as a challenge or a table's form posts it."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms

from core.refusals import ActionRefused
from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _
from games.forms import VariantField, offered_rules


class VariantForm(forms.Form):
    """The game to play at a challenge or a table: any variant but "multiple Yahtzees off"."""

    variant = VariantField(multiplayer=True)


def posted_rules(data: Mapping) -> RuleSet:
    """The rule set a post chose (Yahtzee when it names none); ActionRefused, saying why, for a
    key that is unknown or not offered between people."""
    form = VariantForm(data)
    if not form.is_valid():
        raise ActionRefused(str(form.errors["variant"][0]))
    return form.cleaned_data["variant"]


def check_between_people(rules: RuleSet, *, stake: int = 0) -> None:
    """Refuse a rule set no game between people is played under (multiple Yahtzees are always
    on), and a diamond match in anything but Yahtzee: its pot, as a rating, compares like with
    like."""
    if rules not in offered_rules(multiplayer=True):
        raise ActionRefused(_("Multiple Yahtzees are always on between people: choose a game."))
    if stake and rules is not YAHTZEE:
        raise ActionRefused(_("A match for diamonds is played in Yahtzee: choose Yahtzee."))
