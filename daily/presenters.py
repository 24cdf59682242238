"""What the daily challenge shows on other apps' pages."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext

from daily import services
from daily.models import Challenge


def home_link(request: HttpRequest, subject: None) -> dict:
    """The home page's link to the day's challenge (``core.panels.HOME_SOLO``): the day's game,
    as made by its first player, or as it will be made (``services.game_of_the_day``)."""
    day = services.today()
    made = Challenge.objects.filter(day=day).first()
    rules = made.rules if made is not None else services.game_of_the_day(day)
    return {"daily_game": gettext(rules.name)}
