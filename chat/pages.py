"""The chat as a panel of the pages that offer one (``core.panels``): an online game's page and a
private table's page. Those pages' apps never import the chat; ``chat.apps`` adds it there."""

from __future__ import annotations

from django.http import HttpRequest

from chat import presenters, services
from core.answers import refusal_for
from core.identity import visitor_id
from games.models import Game


def _panel(request: HttpRequest, place: services.Place) -> dict:
    """The panel for this browser, with why its last plain post was refused (``refused_to``)."""
    told = refusal_for(request, presenters.refusal_place(place)) or ""
    return presenters.chat_context(visitor_id(request), place, error=told)


def on_game_page(request: HttpRequest, game: Game) -> dict | None:
    """The chat of an online game, under its card (a game of another mode has none)."""
    if game.mode != Game.Mode.ONLINE:
        return None
    return _panel(request, services.place_at_game(game))


def on_table_page(request: HttpRequest, code: str) -> dict:
    """The chat of a private table, before its game starts."""
    return _panel(request, services.place_of_table(code))
