"""Thin views of the online lobby and private tables."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST, require_safe

from core import panels
from core.addresses import client_address
from core.answers import Refusal, answers_refusals, form_navigation, refusal_for, refused_to
from core.identity import rotate_session_key, visitor_id
from core.refusals import ActionRefused, NotFound
from engine.words import _
from games.models import Game
from games.responses import answered_on_the_game
from lobby import presenters, ranked, services
from lobby.forms import posted_rules


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """Choose a name, see who is online, challenge them, answer challenges, open a table."""
    error = refusal_for(request, "lobby") or ""
    # A refused name comes back in the address (see _lobby), to stay in the field.
    return _lobby(request, error, typed_name=request.GET.get("name", "")[:100] if error else "")


def _lobby(
    request: HttpRequest, error: str = "", status: int = 200, typed_name: str = ""
) -> HttpResponse:
    if error and status >= 400 and form_navigation(request):  # a refused plain form post
        query = f"?{urlencode({'name': typed_name})}" if typed_name else ""
        return refused_to(request, reverse("lobby:lobby") + query, error, "lobby")
    context = presenters.lobby_context(visitor_id(request)) | {
        "your_turn": presenters.your_turn(visitor_id(request)),
        "error": error,
        "live": True,
        "typed_name": typed_name,  # a refused name stays in the field, to correct it
    }
    if request.htmx:
        # Only the live parts change: answer with them (and the error line) as swaps by id.
        parts = ("error", "ranked", "online", "challenges") if context["me"] else ("error",)
        html = "".join(
            render_to_string(f"lobby/lobby.html#{p}", context | {"oob": True}, request)
            for p in parts
        )
        return HttpResponse(html, status=status)
    return render(request, "lobby/lobby.html", context, status=status)


def _lobby_refused(request: HttpRequest, refusal: Refusal, **view) -> HttpResponse:
    """The lobby's answer to a refusal: said over the lobby; a refused name (the name form's
    field) stays in the field, to correct it."""
    return _lobby(request, refusal.message, refusal.status, request.POST.get("name", "")[:100])


@require_POST
@answers_refusals(_lobby_refused)
def choose_name(request: HttpRequest) -> HttpResponse:
    """Go online under a display name."""
    name = request.POST.get("name", "")
    visitor = visitor_id(request, create=True)
    first_name = services.player_of(visitor) is None
    services.go_online(visitor, name, address=client_address(request))
    if first_name:  # a new identity online; a rename keeps the key (see rotate_session_key)
        rotate_session_key(request)
    return redirect("lobby:lobby")


@require_POST
@answers_refusals(_lobby_refused)
def challenge(request: HttpRequest) -> HttpResponse:
    """Challenge an online player."""
    try:
        opponent = int(request.POST.get("player", ""))
    except ValueError:
        raise ActionRefused(_("There is no such player.")) from None
    try:
        stake = int(request.POST.get("stake") or 0)
    except ValueError:
        stake = -1  # refused as a stake not offered
    services.challenge(
        visitor_id(request),
        opponent,
        stake=stake,
        pace=request.POST.get("pace", ""),
        rules=posted_rules(request.POST),
        address=client_address(request),
    )
    return _lobby(request) if request.htmx else redirect("lobby:lobby")


@require_POST
@answers_refusals(_lobby_refused)
def answer(request: HttpRequest, challenge_id: int, verb: str) -> HttpResponse:
    """Accept, decline or cancel a challenge."""
    made = services.answer(visitor_id(request), challenge_id, verb)
    if made.game:
        return _after(request, "games:play", game_id=made.game.id)
    return _lobby(request) if request.htmx else redirect("lobby:lobby")


@require_POST
@answers_refusals(_lobby_refused)
def join_queue(request: HttpRequest) -> HttpResponse:
    """Play ranked: wait in the queue for an opponent of about the same rating."""
    game = ranked.join(visitor_id(request), address=client_address(request))
    if game is not None:  # paired at once: the opponent's pages are sent there too
        return _after(request, "games:play", game_id=game.id)
    return _lobby(request) if request.htmx else redirect("lobby:lobby")


@require_POST
@answers_refusals(_lobby_refused)
def leave_queue(request: HttpRequest) -> HttpResponse:
    """Stop waiting for a ranked opponent."""
    ranked.leave(visitor_id(request), address=client_address(request))
    return _lobby(request) if request.htmx else redirect("lobby:lobby")


@require_POST
@answers_refusals(_lobby_refused)
def new_table(request: HttpRequest) -> HttpResponse:
    """Open a private table and go to its page to share it."""
    table = services.create_table(
        visitor_id(request), address=client_address(request), rules=posted_rules(request.POST)
    )
    return redirect("lobby:table", code=table.code)


@require_POST
@answers_refusals(_lobby_refused)
def join_by_code(request: HttpRequest) -> HttpResponse:
    """The lobby's "join with a code" form: take a seat at that table and show it."""
    code = "".join(request.POST.get("code", "").split()).upper()[:8]
    services.join_table(visitor_id(request), code, address=client_address(request))
    return redirect("lobby:table", code=code)


def _no_table(request: HttpRequest, refusal: Refusal, **view) -> HttpResponse:
    """The table page with no table, only why (no such table, or too many look-ups)."""
    context = {"error": refusal.message}
    return render(request, "lobby/table.html", context, status=refusal.status)


def _table_refused(request: HttpRequest, refusal: Refusal, code: str) -> HttpResponse:
    """The table's answer to a refusal: said over the table. Past the limits, no table: the
    other refusals, shown over the table's page, would tell a guesser which codes are in use."""
    if isinstance(refusal.cause, services.TooMany):
        return _no_table(request, refusal)
    return _table(request, code, refusal.message, refusal.status)


@require_safe
@answers_refusals(_no_table)
def table(request: HttpRequest, code: str) -> HttpResponse:
    """A private table: its seats, its link, code and QR code; join or start it."""
    if code != code.upper():  # codes are read aloud and typed on phones: any case will do
        return redirect("lobby:table", code=code.upper())
    services.look_up_table(visitor_id(request), code, address=client_address(request))
    return _table(request, code)


def _table(request: HttpRequest, code: str, error: str = "", status: int = 200) -> HttpResponse:
    link = request.build_absolute_uri(reverse("lobby:table", args=[code]))
    context = presenters.table_context(code, visitor_id(request), absolute_url=link)
    if context is None:
        # A post to a table that is not there (any more): its refusal says why.
        if error:
            return render(request, "lobby/table.html", {"error": error}, status=status)
        return _no_table(request, Refusal.of(NotFound(services.NO_TABLE)))
    if error and status >= 400 and form_navigation(request):  # as in _lobby
        return refused_to(request, reverse("lobby:table", args=[code]), error, f"table-{code}")
    error = error or refusal_for(request, f"table-{code}") or ""
    if context["table"].game_id and context["seated"] and not error:
        return redirect("games:play", game_id=context["table"].game_id)
    context |= {"error": error, "link": link, "live": True}
    context |= panels.page_context(panels.TABLE_PAGE, request, code)  # the table's chat
    return render(request, "lobby/table.html", context, status=status)


@require_POST
@answers_refusals(_table_refused)
def join_table(request: HttpRequest, code: str) -> HttpResponse:
    """Take a seat at the table (choosing a name first if needed)."""
    address = client_address(request)
    visitor = visitor_id(request, create=True)
    services.look_up_table(visitor, code, address=address)  # see start_table
    if request.POST.get("name") and services.player_of(visitor) is None:
        services.go_online(visitor, request.POST["name"], address=address)
        rotate_session_key(request)
    services.join_table(visitor, code, address=address)
    return redirect("lobby:table", code=code)


@require_POST
@answers_refusals(_table_refused)
def start_table(request: HttpRequest, code: str) -> HttpResponse:
    """The host starts the game."""
    visitor, address = visitor_id(request), client_address(request)
    # A wrong code is refused (and counted) before anything else, and a refusal past the limits
    # shows no table (``_table_refused``).
    services.look_up_table(visitor, code, address=address)
    timer = request.POST.get("timer", "")
    pace = request.POST.get("pace", "")
    game = services.start_table(visitor, code, address=address, timer=timer, pace=pace)
    return _after(request, "games:play", game_id=game.id)


@require_POST
@answered_on_the_game
def rematch(request: HttpRequest, game_id: str) -> HttpResponse:
    """Offer or accept a rematch of a finished online game."""
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    table = services.rematch(visitor_id(request), game)
    table.refresh_from_db()
    if table.game_id:
        return redirect("games:play", game_id=table.game_id)
    return redirect("games:play", game_id=game.id)


@require_POST
@answered_on_the_game
def decline_rematch(request: HttpRequest, game_id: str) -> HttpResponse:
    """Decline a rematch offered by another player of a finished online game."""
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    services.decline_rematch(visitor_id(request), game)
    return redirect("games:play", game_id=game.id)


def _after(request: HttpRequest, name: str, **kwargs) -> HttpResponse:
    """Redirect; htmx follows with a full page load (HX-Redirect)."""
    url = reverse(name, kwargs=kwargs)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)
