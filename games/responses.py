"""What both apps answer with when a request cannot be done: the game and the reason it was
refused, or a page in the site's look that says what went wrong (404, 500, CSRF, 405)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from games import playback, services
from games.identity import visitor_id
from games.models import Game
from games.presenters.page import game_context, render_parts
from games.services import translate_refusal


def refused_page(request: HttpRequest, game_id: str, refusal: Exception) -> HttpResponse:
    """The game as it is now, with why the action was refused (or "no such game")."""
    status = getattr(refusal, "status", 400)
    error = translate_refusal(refusal)
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        return render(request, "games/not_found.html", {"error": error}, status=404)
    context = game_context(game, visitor_id(request), error=error, speed=playback.speed_of(request))
    if request.htmx:
        return render_fragments(request, context, ["game"], status=status)
    return render(request, "games/play.html", context, status=status)


def render_fragments(
    request: HttpRequest, context: dict, names: list[str], status: int = 200
) -> HttpResponse:
    """Render the named partials of the game page as out-of-band swaps (plus the message line)."""
    if "game" not in names and "messages" not in names:
        names = [*names, "messages"]
    return HttpResponse(render_parts(context, names, request), status=status)


def error_page(request: HttpRequest, title: str, message: str, status: int) -> HttpResponse:
    """A page in the site's look that says what went wrong."""
    context = {"title": title, "message": message}
    return render(request, "error_page.html", context, status=status)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 in the site's look."""
    return error_page(
        request, gettext("Page not found"), gettext("There is nothing at this address."), 404
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """500 in the site's look; every move made before it is still saved."""
    return error_page(
        request,
        gettext("Something went wrong"),
        gettext("The server could not answer. Your game is saved: reload the page to go on."),
        500,
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form from an expired or foreign page: say so instead of Django's technical page."""
    return error_page(
        request,
        gettext("This page has expired"),
        gettext(services.EXPIRED),
        403,
    )
