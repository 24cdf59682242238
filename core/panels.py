"""Panels an app shows on another app's page: the hook a page offers, so that its app never
imports the panel's (the chat on a game's page and on a table's page, a tournament game's
tournament above its game, the tournaments a profile played on its page).

A page offers a place by name (``GAME_PAGE``, ``GAME_HEADER``, ``TABLE_PAGE``, ``PROFILE_PAGE``,
``HOME_PAGE``); an app built above it adds its panel there in its ``AppConfig.ready()``. The
page's view merges ``page_context`` into its own and its template includes each of ``panels``
(or the key it names, for a page with two places); the page's socket consumer hands a message
``panel.changed`` to ``redraw`` (and may ask every panel to ``catch_up`` when it (re)connects).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from core.socket_messages import PanelChanged

GAME_PAGE = "game"  # a game's page: the subject is the game (its view), or its id (its socket)
TABLE_PAGE = "table"  # a private table's page: the subject is the table's code
GAME_HEADER = "game-header"  # a game's page, above the game: the subject is the game
PROFILE_PAGE = "profile"  # a profile's page: the subject is its player (``lobby.Player``)
HOME_PAGE = "home"  # the home page, among the ways to start a game: no subject (None)
HOME_SOLO = "home-solo"  # the home page's Solo panel, under its form: no subject (None)

# What a panel sends an open page: (consumer, subject, message, catch_up) -> None.
Push = Callable[[Any, Any, dict, bool], Awaitable[None]]


@dataclass(frozen=True)
class Panel:
    """One app's panel on a page: what it reads, where it is drawn, how it is pushed."""

    name: str  # names the panel in its messages (``changed``)
    template: str  # the partial the page includes, reading what ``context`` gives
    context: Callable[[HttpRequest, Any], dict | None]  # None: not on this page (its subject)
    push: Push | None = None  # sends an open page the redrawn panel, or nothing


_offered: dict[str, list[Panel]] = {}


def offer(page: str, panel: Panel) -> None:
    """Show ``panel`` on every ``page`` (called from the panel's app's ``ready()``, once)."""
    _offered.setdefault(page, []).append(panel)


def page_context(page: str, request: HttpRequest, subject: Any, key: str = "panels") -> dict:
    """What the page's panels read, and ``key`` (``panels``): the templates the page includes,
    in order."""
    context: dict = {}
    shown = []
    for panel in _offered.get(page, ()):
        found = panel.context(request, subject)
        if found is not None:
            context |= found
            shown.append(panel.template)
    return context | {key: shown}


def changed(name: str, **fields: str) -> dict:
    """The group message that has each open page redraw the panel ``name`` (``redraw``)."""
    return PanelChanged(panel=name, **fields).to_message()


async def redraw(consumer: Any, page: str, subject: Any, message: dict) -> None:
    """Hand a ``panel.changed`` message to the panel it names, for this consumer's page."""
    for panel in _offered.get(page, ()):
        if panel.name == PanelChanged.read(message).panel and panel.push is not None:
            await panel.push(consumer, subject, message, False)


async def catch_up(consumer: Any, page: str, subject: Any) -> None:
    """A page whose socket has just (re)connected: each panel sends what it may have missed."""
    for panel in _offered.get(page, ()):
        if panel.push is not None:
            await panel.push(consumer, subject, {}, True)
