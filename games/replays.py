"""Replaying a finished game step by step with the coach, and who may see a game's replay.

Online games are open to anyone with the link, as their watchers are. A solo, computer or
pass-the-phone game is its browser's own until one of its players shares it (``Game.shared``);
the same rule covers every view of a game (``games.responses.closed_page``). A daily challenge's
attempt is replayed and analysed by nobody, its player included, until its day is over.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import reswap

from core.errors import error_page
from core.identity import visitor_id
from games import advice
from games.models import Game
from games.presenters.replay import Positions, replay_context
from games.responses import closed_page


def game_log(game: Game) -> list[tuple[int, str, dict]]:
    """A finished game's log as ``(seat, kind, payload)``, in order, kept in the cache.

    A finished game's log never changes. Loading its few hundred rows as model instances took
    more than half of a replay step's time (2.7x the game page; issue 18 allows 2x).
    """
    key = f"replay-log:{game.pk}:{game.log_length}"
    log = cache.get(key)
    if log is None:
        rows = game.actions.order_by("seq").values_list("seat", "kind", "payload")
        log = [tuple(row) for row in rows]
        cache.set(key, log, timeout=24 * 3600)
    return log


def refusal(request: HttpRequest, game: Game, verb: str) -> HttpResponse | None:
    """The page that says why this browser may not replay or analyse the game yet, or None.

    ``verb`` says which: "replay" or "analyse".
    """
    if (private := closed_page(request, game)) is not None:
        return private
    if game.status != Game.Status.FINISHED:
        if verb == "replay":
            message = gettext("A game can be replayed once it is over.")
        else:
            message = gettext("A game can be analysed once it is over.")
        return error_page(request, gettext("Not yet"), message, 409)
    if game.daily_running:  # today's positions with the perfect player's view: a scout's key
        message = gettext(
            "This is today's daily challenge: its replays and analyses open to everyone, you "
            "too, when the day is over (UTC), so that no practice attempt can show the best "
            "moves on today's dice."
        )
        return error_page(request, gettext("Not yet"), message, 409)
    return None


@require_safe
def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    """A finished game position by position (``?at=n``), with the coach's view of each decision."""
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    if (refused := refusal(request, game, "replay")) is not None:
        return refused
    actions = game_log(game)
    positions = Positions.of(actions)
    at = _position(request.GET.get("at", "0"), positions.last)
    if at is None:
        message = gettext("There is no such position: choose one from 0 to %(last)s.") % {
            "last": positions.last
        }
        response = error_page(request, gettext("No such position"), message, 400)
        # htmx swaps only the message line (error_page's out-of-band part): the board stays.
        return reswap(response, "none") if request.htmx else response
    visitor = visitor_id(request)
    context = replay_context(game, visitor, actions, at) | {
        "live": False,  # a replay listens to nothing
        "analysable": advice.offered(game.rules),
        "owner": game.mode != Game.Mode.ONLINE and game.seat_of(visitor) is not None,
        "public_daily": game.reveal_after is not None and game.open_to(None),
        "replay_url": (url := reverse("games:replay", args=[game.id])),
        "share_url": request.build_absolute_uri(url),
    }
    if request.htmx and not request.htmx.history_restore_request:
        return render(request, "games/replay.html#replay", context)
    return render(request, "games/replay.html", context)


@require_POST
def share(request: HttpRequest, game_id: str) -> HttpResponse:
    """Share this browser's replay of a solo, computer or pass-the-phone game, or stop sharing.

    Sets the flag to what the form says (``share`` 1 or 0), so a double or stale post changes
    nothing more.
    """
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    if game.mode == Game.Mode.ONLINE:
        message = gettext("Online games are open to anyone with the link: nothing to share.")
        return error_page(request, gettext("Nothing to share"), message, 400)
    if game.seat_of(visitor_id(request)) is None:
        message = gettext("Only the browser that played this game can share its replay.")
        return error_page(request, gettext("Not your game"), message, 403)
    if game.status != Game.Status.FINISHED:
        message = gettext("A game can be replayed once it is over.")
        return error_page(request, gettext("Not yet"), message, 409)
    if game.reveal_after is not None and not game.open_to(None):
        message = gettext(
            "This is today's daily challenge: everyone plays its dice today, so its games open "
            "to everyone when the day is over."
        )
        return error_page(request, gettext("Not yet"), message, 409)
    wanted = request.POST.get("share")
    if wanted not in ("0", "1"):
        message = gettext("Say whether to share the replay or stop sharing it.")
        return error_page(request, gettext("Nothing changed"), message, 400)
    Game.objects.filter(pk=game.pk).update(shared=wanted == "1")
    at = _position(request.POST.get("at", "0"), 10_000) or 0
    url = reverse("games:replay", args=[game.id])
    return HttpResponseRedirect(f"{url}?at={at}" if at else url, status=303)


def _position(value: str, last: int) -> int | None:
    """The position asked for, or None when it is not a whole number from 0 to ``last``."""
    if not (value.isascii() and value.isdigit()) or len(value) > 6:
        return None
    at = int(value)
    return at if at <= last else None
