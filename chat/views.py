"""Thin HTTP views of the chat: parse, call a service, answer the panel's changed parts.

htmx gets the parts as out-of-band swaps (a refusal with its 4xx status); a plain form post
(no JavaScript) is sent back to the page it came from, which says why when it was refused.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from chat import presenters, services
from core.addresses import client_address
from core.answers import Refusal, form_navigation, refused_to
from core.errors import error_page
from core.identity import visitor_id
from core.refusals import ActionRefused
from lobby import services as lobby

Load = Callable[[HttpRequest], services.Place]


def _game(game_id: str) -> Load:
    return lambda request: services.place_of_game(game_id)


def _table(code: str) -> Load:
    def load(request: HttpRequest) -> services.Place:
        # A wrong code is counted as the table's own page counts it: no guessing codes here.
        lobby.look_up_table(visitor_id(request), code, address=client_address(request))
        return services.place_of_table(code)

    return load


def _parts(
    request: HttpRequest, place, names: list[str], status: int = 200, error: str = ""
) -> HttpResponse:
    """The panel's named parts for this visitor, as out-of-band swaps."""
    context = presenters.chat_context(visitor_id(request), place, error=error)
    # A mute answered redraws the whole panel: its settings stay open where it was pressed.
    context["chat"]["settings_open"] = "panel" in names
    context["oob"] = True
    html = "".join(render_to_string(f"chat/panel.html#{name}", context, request) for name in names)
    return HttpResponse(html, status=status)


def _answer(request: HttpRequest, load: Load, act: Callable, names: list[str]) -> HttpResponse:
    """Load the place, do ``act(visitor, place)``, and answer with ``names`` (or the refusal).

    A refusal redraws only the error line, and a line said only the log and that line: the
    message box is never drawn again under someone typing the next line (game.js empties it as
    a line is sent, and puts a refused line back to be mended)."""
    place = None
    # Not ``answers_refusals``: the chat's refusal is said in the panel of the place it loads
    # (and without a place, on a page of its own), so only here, once the place is known.
    try:
        place = load(request)
        act(visitor_id(request), place)
    except ActionRefused as cause:
        refusal = Refusal.of(cause)
        if place is None:
            return error_page(request, gettext("Not found"), refusal.message, refusal.status)
        if form_navigation(request):
            back, told = presenters.urls_of(place)["back"], presenters.refusal_place(place)
            return refused_to(request, back, refusal.message, told)
        return _parts(request, place, ["error"], refusal.status, error=refusal.message)
    if not request.htmx:
        return redirect(presenters.urls_of(place)["back"])
    return _parts(request, place, names)


def _say(request: HttpRequest, load: Load) -> HttpResponse:
    phrase = request.POST.get("phrase", "")[:32]
    text = request.POST.get("text", "")[:2000]  # refused as too long beyond 200 anyway

    def act(visitor: str | None, place: services.Place) -> None:
        services.say(visitor, place, phrase=phrase, text=text)

    return _answer(request, load, act, ["log", "error"])


def _mute(request: HttpRequest, load: Load) -> HttpResponse:
    player, muted = request.POST.get("player", "")[:16], request.POST.get("muted") != "0"

    def act(visitor: str | None, place: services.Place) -> None:
        services.set_muted(visitor, place, player, muted)

    return _answer(request, load, act, ["panel"])


def _off(request: HttpRequest, load: Load) -> HttpResponse:
    off = request.POST.get("off") != "0"

    def act(visitor: str | None, place: services.Place) -> None:
        services.set_off(visitor, off)

    return _answer(request, load, act, ["panel"])


@require_POST
def game_say(request: HttpRequest, game_id: str) -> HttpResponse:
    """Say a quick phrase or a line of text at an online game."""
    return _say(request, _game(game_id))


@require_POST
def game_mute(request: HttpRequest, game_id: str) -> HttpResponse:
    """Mute or unmute a player of this game (for this visitor, everywhere)."""
    return _mute(request, _game(game_id))


@require_POST
def game_off(request: HttpRequest, game_id: str) -> HttpResponse:
    """Switch this visitor's chat off or on, from a game's page."""
    return _off(request, _game(game_id))


@require_POST
def table_say(request: HttpRequest, code: str) -> HttpResponse:
    """Say a quick phrase or a line of text at a private table."""
    return _say(request, _table(code))


@require_POST
def table_mute(request: HttpRequest, code: str) -> HttpResponse:
    """Mute or unmute a player of this table (for this visitor, everywhere)."""
    return _mute(request, _table(code))


@require_POST
def table_off(request: HttpRequest, code: str) -> HttpResponse:
    """Switch this visitor's chat off or on, from a table's page."""
    return _off(request, _table(code))
