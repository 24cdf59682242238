"""Thin views of profiles: the profile page, the leaderboard, codes for another device."""

from __future__ import annotations

import unicodedata

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core import panels
from core.addresses import client_address
from core.answers import Refusal, answers_refusals, form_navigation, refusal_for, refused_to
from core.errors import error_page
from core.identity import sign_in_as, visitor_id
from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _
from games.models import Game, Seat
from history import summaries
from history.forms import no_such_game, stats_game
from lobby.models import Player
from lobby.services import player_of
from profiles import blocking, presenters, services

TOLD = "told-profile"  # the tag of the lines a profile page shows once (after a redirect)


@require_safe
def me(request: HttpRequest) -> HttpResponse:
    """This browser's profile page, or how to get one."""
    player = player_of(visitor_id(request))
    if player is None:
        return render(request, "profiles/none.html")
    return redirect("profiles:profile", pk=player.pk)


@require_safe
@answers_refusals(no_such_game)
def profile(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's profile, public; its own player also sees their browsers."""
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        return error_page(
            request, gettext("No such player"), gettext("There is no such player."), 404
        )
    game = stats_game(request.GET)  # whose stats it shows: Yahtzee's unless asked
    return _profile(request, player, game=game)


@require_safe
def find(request: HttpRequest) -> HttpResponse:
    """A player's profile by their name (any case, or a look-alike of it), or the players whose
    names hold what was typed, listed over the leaderboard."""
    name = request.GET.get("name", "")[:100]
    typed = unicodedata.normalize("NFC", " ".join(name.split()))  # as names are kept
    player = Player.objects.named(typed).first() if typed else None
    if player is not None:
        return redirect("profiles:profile", pk=player.pk)
    found = list(Player.objects.named_like(typed)[: presenters.FOUND_SIZE]) if typed else []
    context = presenters.leaderboard_context(visitor_id(request)) | {"found": found, "typed": name}
    if not found:
        context["error"] = gettext("Nobody is called that.") if typed else gettext("Enter a name.")
        return render(request, "profiles/leaderboard.html", context, status=404 if typed else 400)
    return render(request, "profiles/leaderboard.html", context)


@require_safe
def seat_profile(request: HttpRequest, game_id: str) -> HttpResponse:
    """The profile of whoever sits at a game's seat (``?seat=``): the game page's names link
    here, as a seat keeps the name it had then and a name can change hands."""
    position, visitor = request.GET.get("seat", ""), None
    if position.isascii() and position.isdigit() and len(position) <= 2:
        # Online games only: every person's seat of a solo or pass-the-phone game is its
        # owner's browser, and would lead a stranger holding its link to them.
        seats = Seat.objects.filter(
            game_id=game_id[:64], game__mode=Game.Mode.ONLINE, position=int(position), bot=""
        )
        visitor = seats.values_list("visitor", flat=True).first()
    player = Player.objects.filter(visitor=visitor).first() if visitor else None
    if player is None:
        return error_page(
            request, gettext("No such player"), gettext("That seat has no profile."), 404
        )
    return redirect("profiles:profile", pk=player.pk)


def _profile(
    request: HttpRequest,
    player: Player,
    *,
    code: str = "",
    error: str = "",
    status: int = 200,
    game: RuleSet = YAHTZEE,
) -> HttpResponse:
    summaries.fill_missing(player.visitor)  # its stats count games from before summaries too
    context = presenters.profile_context(
        player, visitor_id(request), request.session.session_key, game=game
    )
    told = [m.message for m in messages.get_messages(request) if m.extra_tags == TOLD]
    error = error or refusal_for(request, "profile") or ""
    context |= {"told": told[-1] if told else "", "error": error}
    context |= panels.page_context(panels.PROFILE_PAGE, request, player)  # tournaments played
    if code:
        link = request.build_absolute_uri(reverse("profiles:sign_in_with", args=[code]))
        context |= {
            "code": f"{code[:5]}-{code[5:]}",
            "link": link,
            "qr_svg": segno.make(link, error="m").svg_inline(scale=4),
        }
    return render(request, "profiles/profile.html", context, status=status)


def _refused(request: HttpRequest, refusal: Refusal, **view) -> HttpResponse:
    """A profile's answer to a refusal: said over this browser's profile."""
    player = player_of(visitor_id(request))
    if player is None:
        context = {"error": refusal.message}
        return render(request, "profiles/none.html", context, status=refusal.status)
    if form_navigation(request):
        url = reverse("profiles:profile", args=[player.pk])
        return refused_to(request, url, refusal.message, "profile")
    return _profile(request, player, error=refusal.message, status=refusal.status)


@never_cache  # the code is shown once: never from a cache
@require_POST
@answers_refusals(_refused)
def new_code(request: HttpRequest) -> HttpResponse:
    """A one-time code (and its link and QR code) that signs another browser in to this profile."""
    visitor = visitor_id(request)
    code = services.make_code(visitor, address=client_address(request))
    return _profile(request, player_of(visitor), code=code)


@require_POST
@answers_refusals(_refused)
def sign_out_others(request: HttpRequest) -> HttpResponse:
    """Sign out every other browser of this profile."""
    count = services.sign_out_others(visitor_id(request), request.session)
    if count:
        line = ngettext(
            "Signed out of %(count)s other browser.",
            "Signed out of %(count)s other browsers.",
            count,
        ) % {"count": count}
    else:  # sessions from before browsers were listed are signed out too, uncounted
        line = gettext("Every other browser is signed out now.")
    messages.info(request, line, extra_tags=TOLD)
    return redirect("profiles:me")


# What a block, unblock, favourite or unfavourite says, done and when it had been so already.
MARKED = {
    "block": (
        blocking.block,
        _("You blocked %(name)s: neither of you sees or meets the other now."),
        _("You had already blocked %(name)s."),
    ),
    "unblock": (blocking.unblock, _("You unblocked %(name)s."), _("%(name)s was not blocked.")),
    "favourite": (
        blocking.favourite,
        _("%(name)s is one of your favourites now."),
        _("%(name)s was already one of your favourites."),
    ),
    "unfavourite": (
        blocking.unfavourite,
        _("%(name)s is no longer one of your favourites."),
        _("%(name)s was not one of your favourites."),
    ),
}


@require_POST
@answers_refusals(_refused)
def mark(request: HttpRequest, pk: int, verb: str) -> HttpResponse:
    """Block, unblock, favourite or unfavourite a player; back to their profile, or to one's own
    (``back=me``: the lists of one's blocks and favourites)."""
    service, changed, unchanged = MARKED[verb]
    done = service(visitor_id(request), pk)
    line = gettext(changed if done.changed else unchanged) % {"name": done.other.name}
    messages.info(request, line, extra_tags=TOLD)
    if request.POST.get("back") == "me":
        return redirect("profiles:me")
    return redirect("profiles:profile", pk=done.other.pk)


def _sign_in_refused(request: HttpRequest, refusal: Refusal, code: str = "") -> HttpResponse:
    """The sign-in page's answer to a refused code: said over the form, the code typed kept."""
    if request.method != "POST":  # a link's code
        typed = code
    elif form_navigation(request):
        return refused_to(request, reverse("profiles:sign_in"), refusal.message, "sign-in")
    else:
        typed = request.POST.get("code", "")[:40]
    context = {"me": player_of(visitor_id(request)), "typed": typed, "error": refusal.message}
    return render(request, "profiles/sign_in.html", context, status=refusal.status)


@require_http_methods(["GET", "HEAD", "POST"])
@answers_refusals(_sign_in_refused)
def sign_in(request: HttpRequest, code: str = "") -> HttpResponse:
    """Sign this browser in to a profile with a code made on another device.

    A link (or QR code) with the code asks to confirm first: opening a link changes nothing, so
    a link preview or a scanner that follows it cannot use the code.
    """
    visitor, address = visitor_id(request), client_address(request)
    context = {"me": player_of(visitor), "typed": code}
    if request.method == "POST":
        typed = request.POST.get("code", "")[:40]
        # A browser with no identity yet is given one, so that the limit on guesses per
        # browser counts it too (a code then makes it the profile's: sign_in_as).
        visitor = visitor_id(request, create=True)
        player = services.use_code(typed, visitor, address=address)
        sign_in_as(request, player.visitor)
        messages.info(
            request,
            gettext("This browser is now signed in as %(name)s.") % {"name": player.name},
            extra_tags=TOLD,
        )
        return redirect("profiles:profile", pk=player.pk)
    if code:
        visitor = visitor_id(request, create=True)  # counted as a browser, as above
        context["owner"] = services.code_owner(code, visitor, address=address)
    context["error"] = refusal_for(request, "sign-in") or ""
    return render(request, "profiles/sign_in.html", context)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    """The best established ratings of ranked matches."""
    context = presenters.leaderboard_context(visitor_id(request))
    return render(request, "profiles/leaderboard.html", context)
