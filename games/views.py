"""Thin HTTP views: parse the request, call a service, render a page or its changed fragments."""

from __future__ import annotations

import secrets

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core import panels
from core.answers import refusal_for
from core.errors import error_page
from core.identity import visitor_id
from core.refusals import NOT_YOURS, ActionRefused, NotYourGame, translate_refusal
from engine.analysis import analyse
from engine.rulesets import RuleSet
from games import advice, clock, playback, replays, services, timeouts, winchance
from games.forms import (
    ComputerGameForm,
    LocalGameForm,
    SheetForm,
    SoloGameForm,
    SpeedForm,
    offered_rules,
    read_move,
    variant_choices,
)
from games.models import Game
from games.presenters import page, players, sheets
from games.presenters.analysis import analysis_context
from games.presenters.coach import coach_note
from games.presenters.parts import changed_parts
from games.presenters.winbar import win_line
from games.responses import answered_on_the_game, closed_page, render_fragments


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Start a game (solo, against the computer, pass-the-phone) or continue one."""
    return _home(request, {})


# The home page's panels for starting a game, by the mode their form posts.
PANEL_TITLES = {
    "solo": gettext_lazy("Solo"),
    "computer": gettext_lazy("Against the computer"),
    "local": gettext_lazy("Pass the phone"),
}


def _home(request: HttpRequest, forms_given: dict, status: int = 200) -> HttpResponse:
    games = Game.objects.of_visitor(visitor_id(request) or "").prefetch_related("seats")
    # The online games waiting for this player's turn come first ("Your turn in 2 games").
    awaiting = list(Game.objects.awaiting(visitor_id(request) or "").prefetch_related("seats"))
    waiting = {game.id for game in awaiting}
    others = [game for game in games.in_progress()[:5] if game.id not in waiting]
    in_progress = [
        players.continue_entry(game, visitor_id(request), game.id in waiting)
        for game in awaiting + others[: max(0, 5 - len(awaiting))]
    ]
    # A refused start: said at the top of the page too, where the answer opens (on a phone the
    # form's own panel is far down), with a link to that panel.
    refusal = None
    for mode, form in forms_given.items():
        if form.errors:
            reason = next(str(error) for errors in form.errors.values() for error in errors)
            refusal = {"panel": f"new-{mode}", "title": PANEL_TITLES[mode], "reason": reason}
    ready = advice.is_ready()
    # While the perfect computer works out its strategy, offer the one that can play now.
    strength = {} if ready else {"initial": {"strength": "beginner"}}
    context = {
        "in_progress": in_progress,
        "your_turn_in": len(awaiting),
        "finished": players.finished(games, visitor_id(request)),
        "solo_form": forms_given.get("solo") or SoloGameForm(),
        "computer_form": forms_given.get("computer") or ComputerGameForm(**strength),
        "local_form": forms_given.get("local") or LocalGameForm(),
        "computer_ready": ready,
        # The games only the beginner plays (no perfect player of their rules yet).
        "beginner_only": [gettext(r.name) for r in offered_rules() if not advice.offered(r)],
        "refusal": refusal,
    }
    context |= panels.page_context(panels.HOME_PAGE, request, None)  # the lobby's Play now
    # Under the solo form: the daily challenge's link, naming the day's game.
    context |= panels.page_context(panels.HOME_SOLO, request, None, key="solo_panels")
    return render(request, "games/home.html", context, status=status)


@require_POST
def new_game(request: HttpRequest) -> HttpResponse:
    """Create a game for this browser from one of the home page's forms and open it."""
    mode = request.POST.get("mode", "solo")
    form_class = {"solo": SoloGameForm, "computer": ComputerGameForm, "local": LocalGameForm}.get(
        mode, SoloGameForm
    )
    form = form_class(request.POST)
    if not form.is_valid():
        return _home(request, {mode: form}, status=400)
    rules = form.rules()
    refusals = [r for bot in form.strengths() if (r := advice.bot_refusal(bot, rules))]
    if refusals:
        form.add_error(None, translate_refusal(refusals[0]))
        return _home(request, {mode: form}, status=400)
    if not all(advice.bot_can_play(bot, rules) for bot in form.strengths()):
        form.add_error(None, gettext("The computer is still getting ready: try again in a minute."))
        return _home(request, {mode: form}, status=409)
    try:
        visitor = visitor_id(request, create=True)
    except ActionRefused as refusal:  # posted with a session key just replaced
        # Said in the form's own panel, over the home page with every form kept: not a game's.
        form.add_error(None, translate_refusal(refusal))
        return _home(request, {mode: form}, status=refusal.status)
    if isinstance(form, ComputerGameForm):
        bots = {1: form.cleaned_data["strength"]}
        game = services.start_game(
            visitor, ["", ""], mode=Game.Mode.COMPUTER, bots=bots, rules=rules
        )
    elif isinstance(form, LocalGameForm):
        seats = form.cleaned_data["seats"]
        bots = {i: kind for i, (_, kind) in enumerate(seats) if kind != "person"}
        names = [name for name, _ in seats]
        game = services.start_game(visitor, names, mode=Game.Mode.LOCAL, bots=bots, rules=rules)
    else:
        game = services.start_solo_game(visitor, rules=rules)
    return redirect("games:play", game_id=game.id)


@require_safe
def play(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game page; ``?select=box`` shows what that box would score and asks to confirm.

    ``?at=n`` (htmx only) shows the game after n logged actions, to play moves back step by step.
    """
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    if clock.overdue(game) and timeouts.enforce(game.id):  # its turn ran out: played first
        game = Game.objects.prefetch_related("seats").get(pk=game_id)
    visitor = visitor_id(request)
    if (private := closed_page(request, game)) is not None:
        return private
    at = _int_or_none(request.GET.get("at")) if request.htmx else None
    hint = request.GET.get("hint") == "1"
    if hint and not advice.offered(game.rules):
        return error_page(request, gettext("No coach"), no_coach(game.rules), 404)
    select = request.GET.get("select")
    speed = playback.speed_of(request)
    error = None if request.htmx else refusal_for(request, f"game-{game.id}")
    context = page.game_context(
        game, visitor, select=select, at=at, hint=hint, speed=speed, error=error
    )
    if request.htmx:
        changed = ["game"] if at is not None else ["coach"] if hint else ["card"]
        if select and _int_or_none(request.GET.get("step")) not in (None, game.step):
            # A box chosen on a page whose dice are not the game's now (another tab or device
            # moved since): the whole game comes, or the card would preview dice the page
            # does not show, and its Score button would score them.
            changed = ["game"]
        return render_fragments(request, context, changed)
    context["tab"] = secrets.token_urlsafe(8)
    context |= panels.page_context(panels.GAME_PAGE, request, game)  # the chat of an online game
    # Above the game: a tournament game's tournament (its link back, berserk).
    context |= panels.page_context(panels.GAME_HEADER, request, game, key="header_panels")
    return render(request, "games/play.html", context)


@require_POST
@answered_on_the_game
def act(request: HttpRequest, game_id: str, kind: str) -> HttpResponse:
    """Roll, hold or score: apply the action, then show what changed (or why nothing did)."""
    move = read_move(kind, request.POST)
    tab = request.headers.get("X-Tab", "")[:32] or None
    game = services.perform(
        game_id, visitor_id(request), move.kind, move.params, move.step, tab=tab
    )
    if not request.htmx:
        return HttpResponseRedirect(reverse("games:play", args=[game.id]))
    if kind == "score" and game.log_length > (mine := _last_own_action(game, request)):
        # Others moved after this score (the computer): play their moves back from here, at the
        # browser's speed (at "instant" the context is the game as it is now).
        speed = playback.speed_of(request)
        context = page.game_context(game, visitor_id(request), at=mine, speed=speed)
        return render_fragments(request, context, ["game"])
    context = page.game_context(game, visitor_id(request))
    return render_fragments(request, context, list(changed_parts(kind)))


def _last_own_action(game: Game, request: HttpRequest) -> int:
    """The log position of this browser's latest action in the game."""
    seats = [s.position for s in game.ordered_seats() if s.visitor == visitor_id(request)]
    last = game.actions.filter(seat__in=seats).order_by("-seq").values_list("seq", flat=True)
    return last.first() or 0


@require_POST
def choose_speed(request: HttpRequest, game_id: str) -> HttpResponse:
    """Keep how fast the computer's turns play back for this browser (from a game's page)."""
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    if (private := closed_page(request, game)) is not None:
        return private
    form = SpeedForm(request.POST)
    saved = form.is_valid()
    if saved:
        playback.remember(request, playback.SPEEDS[form.cleaned_data["speed"]])
        if not request.htmx:
            return HttpResponseRedirect(reverse("games:play", args=[game.id]))
    speed = playback.speed_of(request)
    context = page.game_context(game, visitor_id(request), speed=speed)
    context |= {"speed_saved": saved, "speed_error": form.errors.get("speed")}
    status = 200 if saved else 400
    if request.htmx:
        # Only the line under the choices: the radio the player just moved keeps its focus.
        return HttpResponse(page.render_parts(context, ["speed_status"], request), status=status)
    context["tab"] = secrets.token_urlsafe(8)
    return render(request, "games/play.html", context, status=status)


@require_POST
@answered_on_the_game
def leave_out(request: HttpRequest, game_id: str) -> HttpResponse:
    """Online: go on without a player whose grace period ran out, or end the game."""
    absent = _int_or_none(request.POST.get("seat"))
    end = request.POST.get("end") == "1"
    services.leave_out(game_id, visitor_id(request), absent, end=end)
    return HttpResponseRedirect(reverse("games:play", args=[game_id]))


@require_http_methods(["GET", "HEAD", "POST"])
@answered_on_the_game
def resign(request: HttpRequest, game_id: str) -> HttpResponse:
    """Online: give the game up. The page's Resign asks here first (a page that says what it
    costs, with the button that confirms); the confirmation posts, and the game is lost."""
    if request.method == "POST":
        position = _int_or_none(request.POST.get("seat"))
        services.resign(game_id, visitor_id(request), position)
        return HttpResponseRedirect(reverse("games:play", args=[game_id]))
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    visitor = visitor_id(request)
    seat = game.seat_of(visitor)
    position = _int_or_none(request.GET.get("seat"))
    if position is None and seat is not None:
        position = seat.position
    services.check_resign(game, visitor, position)
    return render(request, "games/resign.html", page.resign_context(game, position))


@require_POST
@answered_on_the_game
def play_again(request: HttpRequest, game_id: str) -> HttpResponse:
    """A new game with the same seats and options as this one (for the people who played it)."""
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    visitor = visitor_id(request)
    if game.seat_of(visitor) is None or game.mode == Game.Mode.ONLINE:
        raise NotYourGame(NOT_YOURS)
    seats = game.ordered_seats()
    again = services.start_game(
        visitor,
        [seat.name for seat in seats],
        mode=game.mode,
        bots={seat.position: seat.bot for seat in seats if seat.bot},
        rules=game.rules,
    )
    return redirect("games:play", game_id=again.id)


@require_safe
def analysis(request: HttpRequest, game_id: str) -> HttpResponse:
    """Every decision a person made in a finished game, valued by the optimal strategy."""
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    if (refused := replays.refusal(request, game, "analyse")) is not None:
        return refused
    people = [seat for seat in game.ordered_seats() if not seat.bot]
    wanted = _int_or_none(request.GET.get("seat"))
    seat = next((s for s in people if s.position == wanted), people[0])
    if not advice.offered(game.rules):
        return error_page(request, gettext("No coach"), no_coach(game.rules), 404)
    advisor = advice.advisor(game.rules)
    if advisor is None:
        message = gettext("The coach is getting ready: try again in a minute.")
        return error_page(request, gettext("Not yet"), message, 503)
    actions = [(a.seat, a.kind, a.payload) for a in game.actions.order_by("seq")]
    seats = len(game.ordered_seats())
    model = winchance.model(game.rules, wait=True) if seats == 2 else None  # None: points only
    result = analyse(
        actions, seats=seats, seat=seat.position, rules=game.rules, advisor=advisor, model=model
    )
    context = analysis_context(game, seat, result, visitor_id(request)) | {
        "people": people,
        "coach_note": coach_note(game.rules),
    }
    context["win_line"] = win_line(game, actions, visitor_id(request))  # two players' chances
    return render(request, "games/analysis.html", context)


@require_safe
def score_sheet(request: HttpRequest, game_id: str | None = None) -> HttpResponse:
    """A printable score sheet: blank, or the card of a game."""
    game = None
    if game_id is not None:
        game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
        if (private := closed_page(request, game)) is not None:
            return private
    form = SheetForm(request.GET)
    if not form.is_valid():
        reason = next(str(error) for errors in form.errors.values() for error in errors)
        return error_page(request, gettext("No such game"), reason, 400)
    context = sheets.sheet_context(game, visitor_id(request), form.cleaned_data["variant"])
    context["variants"] = variant_choices()
    return render(request, "games/sheet.html", context)


@require_safe
def guide(request: HttpRequest) -> HttpResponse:
    """How to play, every box with an example, odds and strategy."""
    return render(request, "games/guide.html", sheets.guide_context())


def no_coach(rules: RuleSet) -> str:
    """Why a game of this rule set has no hints, odds or analysis."""
    message = gettext(
        "%(game)s has no coach yet: the perfect player of its rules is not worked out."
    )
    return message % {"game": gettext(rules.name)}


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
