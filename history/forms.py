"""Which game's stats a page shows (``?game=``), parsed once for My games and the profile."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms

from core.refusals import ActionRefused
from engine.rulesets import RuleSet
from games.forms import VariantField


class StatsGameForm(forms.Form):
    """The game (a rule set's key) whose stats to show; Yahtzee when none is named."""

    game = VariantField()


def stats_game(query: Mapping) -> RuleSet:
    """The game a page's address asks the stats of; ActionRefused, saying why, for one the site
    does not know."""
    form = StatsGameForm(query)
    if not form.is_valid():
        raise ActionRefused(str(form.errors["game"][0]))
    return form.cleaned_data["game"]
