"""What the profile page and the leaderboard show: plain values for their templates."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext

from engine import rating as ratings
from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _
from games.models import Game, Seat
from history import presenters as history_presenters
from history import stats
from history.models import Summary
from lobby import diamonds
from lobby.models import DiamondEntry, Player
from lobby.presenters import rating_view
from lobby.services import player_of
from profiles.models import Block, Browser, Favourite

LAST_GAMES = 10
LEADERBOARD_SIZE = 50
FOUND_SIZE = 20  # players listed whose names hold what was searched for
STATEMENT_SIZE = 10
# The chart draws the last rated games only: a longer line is unreadable on a phone, and a
# profile with thousands of them would make every view of its page read them all (a profile of
# 1,700 rated games, bench_profiles.py: 6.9x the home page's time with all, about 1x with these).
CHART_GAMES = 100
# What a statement line says of each movement.
REASON_WORDS = {
    DiamondEntry.Reason.GRANT: _("Welcome grant"),
    DiamondEntry.Reason.TOP_UP: _("Daily top-up"),
    DiamondEntry.Reason.STAKE: _("Stake"),
    DiamondEntry.Reason.WINNINGS: _("Won the pot"),
    DiamondEntry.Reason.SHARE: _("Tie: half the pot"),
    DiamondEntry.Reason.ENTRY: _("Tournament entry fee"),
    DiamondEntry.Reason.PRIZE: _("Tournament prize"),
    DiamondEntry.Reason.REFUND: _("Entry fee given back"),
}
# The rating chart's drawing area, in the SVG's own units (it scales to the page's width).
CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN = 600, 160, 12


def chart(changes: list[tuple[float, float]]) -> dict | None:
    """The rating over the player's rated games, ``(before, after)`` each, as SVG coordinates:
    one point before the first game and one after each, evenly spaced; None before any."""
    if not changes:
        return None
    values = [changes[0][0]] + [after for _before, after in changes]
    low, high = min(values), max(values)
    span = max(high - low, 100.0)  # a flat or short history still reads as a gentle line
    middle = (low + high) / 2
    low, high = middle - span / 2, middle + span / 2
    inner_w, inner_h = CHART_WIDTH - 2 * CHART_MARGIN, CHART_HEIGHT - 2 * CHART_MARGIN
    step = inner_w / (len(values) - 1)
    points = [
        (CHART_MARGIN + index * step, CHART_MARGIN + (high - value) / (high - low) * inner_h)
        for index, value in enumerate(values)
    ]
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
        "last": {"x": f"{points[-1][0]:.1f}", "y": f"{points[-1][1]:.1f}"},
        "first_value": round(values[0]),
        "last_value": round(values[-1]),
        "best": round(max(values)),
        "games": len(changes),
    }


RESULTS = {1.0: "won", 0.5: "drew", 0.0: "lost"}  # a summary's result, as a key of RESULT_WORDS
RESULT_WORDS = {
    "won": _("Won"),
    "drew": _("Draw"),
    "lost": _("Lost"),
    "left": _("Left"),
}


def last_games(player: Player, limit: int = LAST_GAMES) -> list[dict]:
    """The profile's last finished online games, newest first, with their results.

    Read from the summaries (history.Summary, worked out from each game's log) on their index
    of (visitor, finished_at), with the opponents' names and the rating changes in one query
    each: the games and seats as model instances took 6.3 ms of a 47 ms page (bench_stats.py).
    """
    rows = list(
        Summary.objects.of_visitor(player.visitor)
        .filter(mode=Game.Mode.ONLINE)
        .values("game_id", "finished_at", "total", "result", "forfeited", "ranked", "rules_key")[
            :limit
        ]
    )
    ids = [row["game_id"] for row in rows]
    opponents: dict[str, list[str]] = {}
    names = Seat.objects.filter(game_id__in=ids).exclude(visitor=player.visitor)
    for game_id, name in names.order_by("position").values_list("game_id", "name"):
        opponents.setdefault(game_id, []).append(name)
    changes = {
        game_id: ratings.change(ratings.Rating(before), ratings.Rating(after))
        for game_id, before, after in player.rating_changes.filter(game_id__in=ids).values_list(
            "game_id", "value_before", "value_after"
        )
    }
    words = {key: gettext(word) for key, word in RESULT_WORDS.items()}
    for row in rows:
        row["result"] = "left" if row["forfeited"] else RESULTS[row["result"]]
        row["result_word"] = words[row["result"]]
        row["opponents"] = ", ".join(opponents.get(row["game_id"], ()))
        row["game"] = history_presenters.other_game(row["rules_key"])
        row["change"] = changes.get(row["game_id"], "")
    return rows


def profile_context(
    player: Player, viewer: str | None, session_key: str | None, *, game: RuleSet = YAHTZEE
) -> dict:
    """A profile page: public parts for everyone, the browsers for the profile's own; the stats
    of one ``game``."""
    now = timezone.now()
    is_me = viewer is not None and viewer == player.visitor
    context = {
        "player": player,
        "rating": rating_view(player, now),
        "chart": chart(
            list(
                player.rating_changes.order_by("-created_at", "-id").values_list(
                    "value_before", "value_after"
                )[:CHART_GAMES]
            )[::-1]
        ),
        "games": last_games(player),
        "sections": stats.sections(player.visitor, game.key),
        "stats_games": history_presenters.stats_games(player.visitor, game),
        "is_me": is_me,
        "grant": diamonds.WELCOME_GRANT,
        "floor": diamonds.FLOOR,
    }
    context["diamonds"] = diamonds.balance(player) if is_me else player.diamonds
    me = player if is_me else player_of(viewer)
    if me is not None and not is_me:  # the Block and Favourite buttons say which way they go
        context["blocked"] = Block.objects.filter(blocker=me, blocked=player).exists()
        context["favourite"] = Favourite.objects.filter(player=me, of=player).exists()
    context["can_mark"] = me is not None and not is_me
    if is_me:
        context["blocks"] = list(Block.objects.filter(blocker=player).select_related("blocked"))
        context["my_favourites"] = list(
            Favourite.objects.filter(player=player).select_related("of").order_by("of__name_key")
        )
        context["statement"] = [
            {"entry": entry, "what": gettext(REASON_WORDS[entry.reason])}
            for entry in player.diamond_entries.all()[:STATEMENT_SIZE]
        ]
        context["browsers"] = [
            {"browser": browser, "current": browser.session_key == session_key}
            for browser in Browser.objects.filter(player=player)
        ]
    return context


def leaderboard_context(viewer: str | None) -> dict:
    """The best established ratings, then the best provisional ones (not placed: too little is
    known of them), and where this viewer stands even when far down."""
    now = timezone.now()
    board = Player.objects.established()
    top = list(board[:LEADERBOARD_SIZE])
    rows = [
        {"place": place, "player": p, "rating": rating_view(p, now), "me": p.visitor == viewer}
        for place, p in enumerate(top, start=1)
    ]
    provisional = [
        {"player": p, "rating": rating_view(p, now), "me": p.visitor == viewer}
        for p in Player.objects.provisional()[:LEADERBOARD_SIZE]
    ]
    me = player_of(viewer)
    mine = None
    if me is not None and not any(row["me"] for row in rows + provisional):
        if board.filter(pk=me.pk).exists():
            ahead = board.filter(rating_value__gt=me.rating_value).count()
            mine = {"place": ahead + 1, "player": me, "rating": rating_view(me, now), "me": True}
        else:
            mine = {"place": None, "player": me, "rating": rating_view(me, now), "me": True}
    return {
        "rows": rows,
        "provisional": provisional,
        "mine": mine,
        "established": ratings.PROVISIONAL_DEVIATION,
    }
