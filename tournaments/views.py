"""Thin views of the tournament pages: the list, the "new tournament" form, a tournament's page
and its buttons (join, leave, pause, come back, berserk; the maker's start and computer).

Every button is a plain form that posts and redirects back to the tournament's page, which
shows the truth when loaded; with htmx the answer is the page's live parts as out-of-band
swaps. A refusal is answered in one place (``core.answers``): said over the page, with its 4xx.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.addresses import client_address
from core.answers import Refusal, answers_refusals, form_navigation, refusal_for, refused_to
from core.errors import error_page
from core.identity import rotate_session_key, visitor_id
from engine.rules import IllegalMove
from lobby import services as lobby
from lobby.presenters import qr_svg
from tournaments import clock, presenters, services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

# The parts of the tournament's page an htmx answer carries (templates/tournaments/tournament.html).
LIVE_PARTS = ("error", "controls", "you", "status", "standings", "games", "results")
# What adding the computer changes: not the maker's own buttons (a strength being chosen stays).
SHARED_PARTS = ("error", "status", "standings", "games", "results")


@require_safe
def tournaments(request: HttpRequest) -> HttpResponse:
    """The tournaments: listed ones upcoming, under way and recent; yours; your groups'."""
    return render(request, "tournaments/list.html", presenters.list_context(visitor_id(request)))


def _form_page(request: HttpRequest, form: TournamentForm, error: str = "", status: int = 200):
    context = presenters.form_context(visitor_id(request), form) | {"error": error}
    return render(request, "tournaments/new.html", context, status=status)


def _new_refused(request: HttpRequest, refusal: Refusal, **view) -> HttpResponse:
    """The form again, as it was filled, with why the tournament was not made."""
    form = TournamentForm(request.POST, groups=presenters.groups_of(visitor_id(request)))
    form.is_valid()
    return _form_page(request, form, refusal.message, refusal.status)


@require_http_methods(["GET", "HEAD", "POST"])
@answers_refusals(_new_refused)
def new(request: HttpRequest) -> HttpResponse:
    """The "new tournament" form; posted, the tournament is made and its page shown."""
    visitor = visitor_id(request)
    groups = presenters.groups_of(visitor)
    if request.method != "POST":
        initial = {"group": request.GET.get("group", "")[:12]}
        return _form_page(request, TournamentForm(initial=initial, groups=groups))
    form = TournamentForm(request.POST, groups=groups)
    if not form.is_valid():
        return _form_page(request, form, gettext("Check the form: see the lines marked."), 400)
    tournament = services.create(visitor, form.options())
    return redirect("tournaments:tournament", tournament_id=tournament.pk)


def _place(tournament_id: str) -> str:
    """Where a tournament page's refusals are told (``refused_to``)."""
    return f"tournament-{tournament_id}"


@require_safe
def tournament(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """A tournament's page: countdown, standings, games, your buttons; the podium at the end."""
    tournament = presenters.read(tournament_id)
    if tournament is not None:
        clock.advance_if_due(tournament)  # its start, a pairing... when nothing else did it
        if tournament.status == Tournament.Status.FINISHED:
            presenters.value_results(tournament)  # the results' accuracy
    error = refusal_for(request, _place(tournament_id)) or ""
    return _page(request, tournament_id, error)


def _page(
    request: HttpRequest,
    tournament_id: str,
    error: str = "",
    status: int = 200,
    parts: tuple[str, ...] = LIVE_PARTS,
) -> HttpResponse:
    tournament = presenters.read(tournament_id)
    if tournament is None:
        return error_page(
            request, gettext("No such tournament"), gettext("There is no such tournament."), 404
        )
    if error and status >= 400 and form_navigation(request):  # a refused plain form post
        url = reverse("tournaments:tournament", args=[tournament_id])
        return refused_to(request, url, error, _place(tournament_id))
    link = request.build_absolute_uri(reverse("tournaments:tournament", args=[tournament_id]))
    context = presenters.page_context(tournament, visitor_id(request))
    context |= {"error": error, "link": link, "live": True}
    if request.htmx:
        html = "".join(
            render_to_string(
                f"tournaments/tournament.html#{part}", context | {"oob": True}, request
            )
            for part in parts
        )
        return HttpResponse(html, status=status)
    context["qr_svg"] = qr_svg(link)  # drawn with the whole page only
    return render(request, "tournaments/tournament.html", context, status=status)


def _refused(request: HttpRequest, refusal: Refusal, tournament_id: str, **view) -> HttpResponse:
    """A tournament's answer to a refusal: said over its page."""
    return _page(request, tournament_id, refusal.message, refusal.status)


def _back(
    request: HttpRequest, tournament_id: str, parts: tuple[str, ...] = LIVE_PARTS
) -> HttpResponse:
    """After a button: the page again (htmx: those of its live parts that it changes)."""
    if request.htmx:
        return _page(request, tournament_id, parts=parts)
    return redirect("tournaments:tournament", tournament_id=tournament_id)


@require_POST
@answers_refusals(_refused)
def join(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """Join (choosing a name first if this browser has none)."""
    visitor = visitor_id(request, create=True)
    name = request.POST.get("name", "")
    if name and lobby.player_of(visitor) is None:
        lobby.go_online(visitor, name, address=client_address(request))
        rotate_session_key(request)
    services.join(tournament_id, visitor)
    return _back(request, tournament_id)


# The buttons that only name what to do: leave (a game under way is lost, the tournament goes
# on), pause an arena (not paired for a while) and come back, the maker's start now.
STEPS = {
    "leave": services.leave,
    "pause": services.pause,
    "come-back": services.come_back,
    "start": services.start_now,
}


@require_POST
@answers_refusals(_refused)
def step(request: HttpRequest, tournament_id: str, verb: str) -> HttpResponse:
    """Leave, pause, come back, or (the maker) start now."""
    STEPS[verb](tournament_id, visitor_id(request))
    return _back(request, tournament_id)


@require_POST
@answers_refusals(_refused, also=(IllegalMove,))
def berserk(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """Berserk in one's arena game before its first roll; back to where the button was (the
    game's page or the tournament's)."""
    game = services.go_berserk(tournament_id, visitor_id(request))
    if request.POST.get("back") == "game":
        return redirect("games:play", game_id=game.id)
    return _back(request, tournament_id)


@require_POST
@answers_refusals(_refused)
def add_computer(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """The maker enters the computer as a player."""
    services.add_computer(tournament_id, visitor_id(request), request.POST.get("strength", ""))
    return _back(request, tournament_id, SHARED_PARTS)
