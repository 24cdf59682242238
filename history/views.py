"""Thin views of history: My games, with the stats of a browser that has no profile."""

from __future__ import annotations

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from core.answers import answers_refusals
from core.errors import error_page
from core.identity import visitor_id
from history import presenters, stats, summaries
from history.forms import no_such_game, stats_game
from lobby.services import player_of


@require_safe
@answers_refusals(no_such_game)
def games(request: HttpRequest) -> HttpResponse:
    """This browser's finished games, newest first, a page at a time, of one kind or all."""
    visitor = visitor_id(request)
    mode = request.GET.get("mode") or "all"
    if mode not in presenters.FILTERS:
        message = gettext("There is no such kind of game to show.")
        return error_page(request, gettext("No such filter"), message, 400)
    summaries.fill_missing(visitor)  # games from before summaries, or not valued yet
    # Unless asked, the stats of the game played last (a browser that plays Yatzy sees Yatzy's).
    game = stats_game(request.GET, lambda: stats.last_game_played(visitor or ""))
    found = presenters.games_of(visitor, mode).select_related("game")
    paginator = Paginator(found.prefetch_related("game__seats"), presenters.PAGE_SIZE)
    try:
        page = paginator.page(request.GET.get("page") or 1)
    except PageNotAnInteger:
        message = gettext("A page is a number.")
        return error_page(request, gettext("No such page"), message, 400)
    except EmptyPage:
        message = gettext("There are not that many pages of games.")
        return error_page(request, gettext("No such page"), message, 404)
    player = player_of(visitor)
    context = {
        "page": page,
        "rows": [presenters.row(summary) for summary in page],
        "filters": presenters.filters(mode),
        "mode": mode,
        "player": player,
        # With a profile the stats are on its page; without one, here.
        "sections": stats.sections(visitor, game.key) if visitor and player is None else [],
        "stats_games": presenters.stats_games(visitor, game) if visitor and player is None else [],
    }
    return render(request, "history/games.html", context)
