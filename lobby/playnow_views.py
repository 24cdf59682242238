"""Thin views of Play now (``lobby.playnow``): the home page's button, the waiting page, stopping,
and the computer instead. Without JavaScript the waiting page reloads itself; with it, its socket
(``lobby.consumers.PlayNowConsumer``) sends it to the game."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from core.addresses import client_address
from core.answers import Refusal, answers_refusals, form_navigation, refusal_for, refused_to
from core.identity import rotate_session_key, visitor_id
from core.refusals import ActionRefused
from engine.strategy.bots import BOTS
from engine.words import _
from lobby import playnow, presenters, services

PLACE = "play-now"  # where a refused post's reason is told: the waiting page


@require_safe
def play_now(request: HttpRequest) -> HttpResponse:
    """The waiting page: since when, stop waiting, and after a while the computer instead. Each
    load keeps its player here and pairs (a browser without JavaScript reloads it); once paired,
    it goes to the game."""
    error = refusal_for(request, PLACE) or ""
    game_id = playnow.still_here(visitor_id(request))
    if game_id and not error:
        return redirect("games:play", game_id=game_id)
    return _page(request, error)


def _page(request: HttpRequest, error: str = "", status: int = 200) -> HttpResponse:
    context = presenters.play_now_context(visitor_id(request)) | {"error": error}
    context["live"] = context["since"] is not None  # the socket: while waiting
    return render(request, "lobby/play_now.html", context, status=status)


def _refused(request: HttpRequest, refusal: Refusal, **view) -> HttpResponse:
    """Said on the waiting page: a plain form post is sent there (303), others get it with the
    refusal's status."""
    if form_navigation(request):
        return refused_to(request, reverse("lobby:play_now"), refusal.message, PLACE)
    return _page(request, refusal.message, refusal.status)


@require_POST
@answers_refusals(_refused)
def press(request: HttpRequest) -> HttpResponse:
    """Play now: the game at once if someone waits, else the waiting page. A browser without a
    profile sends a name with it (the home page asks, as the lobby does)."""
    address = client_address(request)
    visitor = visitor_id(request, create=True)
    if request.POST.get("name") and services.player_of(visitor) is None:
        services.go_online(visitor, request.POST["name"], address=address)
        rotate_session_key(request)
    game = playnow.press(visitor, address=address)
    if game is not None:  # paired at once: the other's page is sent there too
        return redirect("games:play", game_id=game.id)
    return redirect("lobby:play_now")


@require_POST
@answers_refusals(_refused)
def cancel(request: HttpRequest) -> HttpResponse:
    """Stop waiting; back to the home page."""
    playnow.cancel(visitor_id(request), address=client_address(request))
    return redirect("games:home")


@require_POST
@answers_refusals(_refused)
def play_computer(request: HttpRequest) -> HttpResponse:
    """Play the computer at the strength pressed instead of waiting on."""
    strength = request.POST.get("strength", "")
    if strength not in BOTS:
        raise ActionRefused(_("Choose one of the computer's strengths."))
    game = playnow.play_computer(visitor_id(request, create=True), strength)
    return redirect("games:play", game_id=game.id)
