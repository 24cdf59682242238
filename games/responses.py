"""What the apps answer with when a request cannot be done: the game and the reason it was
refused (the site's error pages are ``core.errors``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from core.errors import error_page
from core.identity import visitor_id
from core.refusals import translate_refusal
from games import playback
from games.models import Game
from games.presenters.page import game_context, render_parts


def refused_page(request: HttpRequest, game_id: str, refusal: Exception) -> HttpResponse:
    """The game as it is now, with why the action was refused (or "no such game").

    htmx and scripts get the redrawn game with the refusal's 4xx status; a browser's plain form
    post (no JavaScript) is sent on to the game page, which says why (``refused_to``).
    """
    status = getattr(refusal, "status", 400)
    error = translate_refusal(refusal)
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        return render(request, "games/not_found.html", {"error": error}, status=404)
    if (private := closed_page(request, game)) is not None:  # a stranger's post shows nothing
        return private
    if form_navigation(request):
        return refused_to(request, reverse("games:play", args=[game_id]), error, f"game-{game_id}")
    context = game_context(game, visitor_id(request), error=error, speed=playback.speed_of(request))
    if request.htmx:
        return render_fragments(request, context, ["game"], status=status)
    return render(request, "games/play.html", context, status=status)


def closed_page(request: HttpRequest, game: Game) -> HttpResponse | None:
    """The 403 page for a browser that may not see this game (``Game.open_to``), or None.

    One rule for every view of a game (its page, printable card, replay, analysis, dice check):
    a solo, computer or pass-the-phone game is its browser's own until shared, a daily
    challenge's attempt its player's until the day is over; online games are open to all.
    """
    if game.open_to(visitor_id(request)):
        return None
    if game.reveal_after is not None:
        message = gettext(
            "This is someone's attempt at the daily challenge: everyone plays its dice today, so "
            "it opens to others when the day is over."
        )
    else:
        message = gettext(
            "This game is private: only the browser that played it can see it, unless its "
            "player shares it."
        )
    return error_page(request, gettext("Private game"), message, 403)


def form_navigation(request: HttpRequest) -> bool:
    """Whether a browser sent this post as a page load (a plain form, without JavaScript).

    Browsers say so in ``Sec-Fetch-Mode``; htmx's requests, scripts and old browsers do not.
    """
    return not request.htmx and request.headers.get("Sec-Fetch-Mode") == "navigate"


def refused_to(request: HttpRequest, url: str, error: str, place: str) -> HttpResponse:
    """Post/redirect/get for a refused form navigation: the page at ``url`` says why, once.

    Shown at the post's own address, the answer left the browser there: a reload posted the form
    again and a bookmark or a shared link answered 405 (issue 16). Other requests (htmx, scripts)
    keep the refusal's 4xx answer. ``place`` names the page that tells it, and no other page does.
    """
    messages.error(request, error, extra_tags=f"refused-{place}")
    return HttpResponseRedirect(url, status=303)


def refusal_for(request: HttpRequest, place: str) -> str | None:
    """The refusal a redirected plain post left for this page (``refused_to``), read once."""
    told = [m.message for m in messages.get_messages(request) if m.extra_tags == f"refused-{place}"]
    return told[-1] if told else None


def render_fragments(
    request: HttpRequest, context: dict, names: list[str], status: int = 200
) -> HttpResponse:
    """Render the named partials of the game page as out-of-band swaps (plus the message line)."""
    if "game" not in names and "messages" not in names:
        names = [*names, "messages"]
    return HttpResponse(render_parts(context, names, request), status=status)
