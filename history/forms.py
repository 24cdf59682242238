"""Which game's stats a page shows (``?game=``), parsed once for My games and the profile, and
their answer when it names none the site knows."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django import forms
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from core.answers import Refusal
from core.errors import error_page
from core.refusals import ActionRefused
from engine.rulesets import RULE_SETS, RuleSet
from games.forms import VariantField


class StatsGameForm(forms.Form):
    """The game (a rule set's key) whose stats to show; Yahtzee when none is named."""

    game = VariantField()


def stats_game(query: Mapping, default: Callable[[], str] | None = None) -> RuleSet:
    """The game a page's address asks the stats of; ActionRefused, saying why, for one the site
    does not know. Without one: ``default()``'s key if given (My games: the newest game played),
    else Yahtzee."""
    if default is not None and not query.get("game"):
        return RULE_SETS[default()]
    form = StatsGameForm(query)
    if not form.is_valid():
        raise ActionRefused(str(form.errors["game"][0]))
    return form.cleaned_data["game"]


def no_such_game(request: HttpRequest, refusal: Refusal, **view) -> HttpResponse:
    """The answer of a page of stats whose address names a game the site does not know (the
    views' ``answers_refusals``): why, and no page."""
    return error_page(request, gettext("No such game"), refusal.message, refusal.status)
