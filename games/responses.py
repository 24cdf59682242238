"""What the apps answer with when a request cannot be done: the game and the reason it was
refused (the site's error pages are ``core.errors``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from core.answers import Refusal, answers_refusals, form_navigation, refused_to
from core.errors import error_page
from core.identity import visitor_id
from engine.rules import IllegalMove
from games import playback
from games.models import Game
from games.presenters.page import game_context, render_parts


def refused_page(request: HttpRequest, refusal: Refusal, game_id: str, **view) -> HttpResponse:
    """The game as it is now, with why the action was refused (or "no such game"): the answer
    of the game's views to a refusal (``answered_on_the_game``).

    htmx and scripts get the redrawn game with the refusal's 4xx status; a browser's plain form
    post (no JavaScript) is sent on to the game page, which says why (``refused_to``).
    """
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        return render(request, "games/not_found.html", {"error": refusal.message}, status=404)
    if (private := closed_page(request, game)) is not None:  # a stranger's post shows nothing
        return private
    if form_navigation(request):
        url = reverse("games:play", args=[game_id])
        return refused_to(request, url, refusal.message, f"game-{game_id}")
    speed = playback.speed_of(request)
    context = game_context(game, visitor_id(request), error=refusal.message, speed=speed)
    if request.htmx:
        return render_fragments(request, context, ["game"], status=refusal.status)
    return render(request, "games/play.html", context, status=refusal.status)


# The game's views: a refusal, or a move the rules do not allow, shows the game and why.
answered_on_the_game = answers_refusals(refused_page, also=(IllegalMove,))


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


def render_fragments(
    request: HttpRequest, context: dict, names: list[str], status: int = 200
) -> HttpResponse:
    """Render the named partials of the game page as out-of-band swaps (plus the message line)."""
    if "game" not in names and "messages" not in names:
        names = [*names, "messages"]
    return HttpResponse(render_parts(context, names, request), status=status)
