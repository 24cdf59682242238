"""Thin HTTP views: parse the request, call a service, render a page or its changed fragments."""

from __future__ import annotations

import secrets

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games import presenters, services
from games.models import Game
from games.rules import IllegalMove

VISITOR_KEY = "visitor"


def visitor_id(request: HttpRequest, *, create: bool = False) -> str | None:
    """The random id that links this browser's session to its seats."""
    visitor = request.session.get(VISITOR_KEY)
    if visitor is None and create:
        visitor = request.session[VISITOR_KEY] = secrets.token_urlsafe(16)
    return visitor


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Start a solo game or continue one in progress."""
    visitor = visitor_id(request)
    games = Game.objects.of_visitor(visitor).prefetch_related("seats") if visitor else []
    in_progress = [g for g in games if g.status == Game.Status.PLAYING][:5]
    finished = [g for g in games if g.status == Game.Status.FINISHED][:5]
    context = {"in_progress": in_progress, "finished": finished}
    return render(request, "games/home.html", context)


@require_POST
def new_game(request: HttpRequest) -> HttpResponse:
    """Create a solo game for this browser and open it."""
    visitor = visitor_id(request, create=True)
    multiple = request.POST.get("multiple_yahtzees", "on") in {"on", "1", "true"}
    game = services.start_solo_game(visitor, multiple_yahtzees=multiple)
    return redirect("games:play", game_id=game.id)


@require_GET
def play(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game page; ``?select=box`` shows what that box would score and asks to confirm."""
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    context = presenters.game_context(game, visitor_id(request), select=request.GET.get("select"))
    if request.htmx:
        return _fragments(request, context, ["card"])
    return render(request, "games/play.html", context)


@require_POST
def act(request: HttpRequest, game_id: str, kind: str) -> HttpResponse:
    """Roll, hold or score: apply the action, then show what changed (or why nothing did)."""
    try:
        params = _action_params(kind, request.POST)
        step = _int_or_none(request.POST.get("step"))
        game = services.perform(game_id, visitor_id(request), kind, params, step)
    except (services.ActionRefused, IllegalMove) as refusal:
        return _refused(request, game_id, refusal)
    if not request.htmx:
        return HttpResponseRedirect(reverse("games:play", args=[game.id]))
    context = presenters.game_context(game, visitor_id(request))
    changed = {"roll": ["dice", "card", "status"], "hold": ["dice"], "score": ["game"]}[kind]
    return _fragments(request, context, changed)


@require_GET
def score_sheet(request: HttpRequest, game_id: str | None = None) -> HttpResponse:
    """A printable score sheet: blank, or the card of a game."""
    game = None
    if game_id is not None:
        game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    return render(request, "games/sheet.html", presenters.sheet_context(game))


@require_GET
def guide(request: HttpRequest) -> HttpResponse:
    """How to play, every box with an example, odds and strategy."""
    return render(request, "games/guide.html", presenters.guide_context())


def _action_params(kind: str, data) -> dict:
    if kind == "roll":
        seen = data.get("held")
        if seen is None:
            return {}
        if len(seen) != 5 or set(seen) - {"0", "1"}:
            raise IllegalMove("Say whether to hold or release the die.")
        return {"held": [c == "1" for c in seen]}
    if kind == "hold":
        held = {"1": True, "0": False}.get(data.get("held", ""))
        return {"die": _int_or_none(data.get("die")), "held": held}
    return {"box": data.get("box", "")}


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _refused(request: HttpRequest, game_id: str, refusal: Exception) -> HttpResponse:
    status = getattr(refusal, "status", 400)
    error = _translate(refusal)
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        return render(request, "games/not_found.html", {"error": error}, status=404)
    context = presenters.game_context(game, visitor_id(request), error=error)
    if request.htmx:
        return _fragments(request, context, ["game"], status=status)
    return render(request, "games/play.html", context, status=status)


def _translate(refusal: Exception) -> str:
    """The refusal's message in the visitor's language."""
    template = getattr(refusal, "template", None)
    if template is None:
        return str(refusal)
    params = {key: gettext(value) for key, value in refusal.params.items()}
    return gettext(template) % params if params else gettext(template)


def _fragments(
    request: HttpRequest, context: dict, names: list[str], status: int = 200
) -> HttpResponse:
    """Render the named partials of the game page as out-of-band swaps (plus the message line)."""
    names = [*names, "messages"] if "game" not in names else names
    context = context | {"oob": names}
    html = "".join(render_to_string(f"games/play.html#{n}", context, request) for n in names)
    return HttpResponse(html, status=status)


def _error_page(request: HttpRequest, title: str, message: str, status: int) -> HttpResponse:
    context = {"title": title, "message": message}
    return render(request, "error_page.html", context, status=status)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 in the site's look."""
    return _error_page(
        request, gettext("Page not found"), gettext("There is nothing at this address."), 404
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """500 in the site's look; every move made before it is still saved."""
    return _error_page(
        request,
        gettext("Something went wrong"),
        gettext("The server could not answer. Your game is saved: reload the page to go on."),
        500,
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form from an expired or foreign page: say so instead of Django's technical page."""
    return _error_page(
        request,
        gettext("This page has expired"),
        gettext("This page is too old to act on. Reload it and try again: nothing was changed."),
        403,
    )
