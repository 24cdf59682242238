"""What the tournament pages show, as plain values for templates/tournaments/.

A tournament's page has parts every viewer sees alike (``shared_context``: its status, the
standings, the games under way, the results at the end), rendered once per change for all its
open pages (``tournaments.live``), and parts of one viewer (``viewer_context``: their buttons,
their game). Names of the computer stay lazy (translated when rendered), so that the shared
parts are read once and rendered in each language.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from datetime import timedelta

from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy, pgettext_lazy

from engine.strategy.bots import BOTS
from games import advice, berserk
from games.models import Game
from groups.models import Membership
from history import summaries
from history.models import Summary
from lobby.access import player_of
from tournaments import services, standings
from tournaments.models import Entry, Tournament, TournamentGame

LIST_SIZE = 20  # tournaments in each list of the tournaments page
RECENT = timedelta(days=7)  # how long a finished tournament stays in the public list
PODIUM = 3
# Games listed under way, the leaders' first: a big arena's hundred would double the standings
# pushed to every page at every change (each player's row has its own Watch link).
GAMES_SHOWN = 12

FORMAT_NAMES = {
    Tournament.Format.ARENA: gettext_lazy("Arena"),
    Tournament.Format.SWISS: gettext_lazy("Swiss"),
    Tournament.Format.DUPLICATE: gettext_lazy("Duplicate"),
}
# One tournament's status (the lists' headings, "Upcoming", are plural in Spanish).
STATUS_NAMES = {
    Tournament.Status.UPCOMING: pgettext_lazy("a tournament's status", "Upcoming"),
    Tournament.Status.RUNNING: pgettext_lazy("a tournament's status", "Under way"),
    Tournament.Status.FINISHED: pgettext_lazy("a tournament's status", "Finished"),
    "cancelled": pgettext_lazy("a tournament's status", "Cancelled"),
}
COMPUTER = gettext_lazy("the computer")


def read(tournament_id: str) -> Tournament | None:
    """The tournament of a page's address, or None."""
    return Tournament.objects.select_related("group", "maker").filter(pk=tournament_id).first()


# --- The list and the form ------------------------------------------------------------------------


def groups_of(visitor: str | None) -> list[tuple[str, str]]:
    """(id, name) of the groups this browser's profile is in, for "Who may join"."""
    if not visitor:
        return []
    found = Membership.objects.filter(player__visitor=visitor).select_related("group")
    return [(m.group_id, m.group.name) for m in found.order_by("group__name")]


def form_context(visitor: str | None, form) -> dict:
    """The "new tournament" page."""
    return {"form": form, "me": player_of(visitor), "strengths": BOTS.values()}


def _card(tournament: Tournament) -> dict:
    """A tournament as a list shows it."""
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "format": FORMAT_NAMES.get(tournament.format, tournament.format),
        "variant": tournament.rules.name,  # translated by the template
        "status": STATUS_NAMES.get(tournament.status, tournament.status),
        "status_key": tournament.status,
        "starts_at": tournament.starts_at,
        "players": getattr(tournament, "players", None),
        "group": tournament.group.name if tournament.group_id else "",
    }


def _cards(tournaments) -> list[dict]:
    counted = tournaments.select_related("group").annotate(
        players=Count("entries", filter=~Q(entries__status=Entry.Status.LEFT))
    )
    return [_card(t) for t in counted[:LIST_SIZE]]


def list_context(visitor: str | None) -> dict:
    """The tournaments page: the listed ones upcoming, under way and recent; this profile's
    (made or entered); its groups'."""
    now = timezone.now()
    listed = Tournament.objects.filter(listed=True)
    context = {
        "upcoming": _cards(listed.filter(status=Tournament.Status.UPCOMING).order_by("starts_at")),
        "running": _cards(listed.filter(status=Tournament.Status.RUNNING).order_by("starts_at")),
        "recent": _cards(
            listed.exclude(status__in=[Tournament.Status.UPCOMING, Tournament.Status.RUNNING])
            .filter(starts_at__gte=now - RECENT)
            .order_by("-starts_at")
        ),
        "me": player_of(visitor),
        "yours": [],
        "groups": [],
    }
    me = context["me"]
    if me is not None:
        # By ids: a join on the entries here would count only this player's entry.
        mine = Tournament.objects.filter(Q(maker=me) | Q(entries__player=me)).values("pk")
        context["yours"] = _cards(Tournament.objects.filter(pk__in=mine).order_by("-starts_at"))
        theirs = Tournament.objects.filter(group__memberships__player=me).values("pk")
        context["groups"] = _cards(Tournament.objects.filter(pk__in=theirs).order_by("-starts_at"))
    return context


# --- What every viewer of a tournament's page sees ------------------------------------------------


def number(value: float | None) -> str:
    """1.0 as "1", 1.5 as "1.5", 12.345 as "12.3"."""
    if value is None:
        return ""
    return f"{value:.1f}".removesuffix(".0")


def _standing(row: standings.Row, bots: dict[int, str]) -> dict:
    bot = BOTS.get(bots.get(row.entry_id, ""))
    return {
        "rank": row.rank,
        "entry_id": row.entry_id,
        "name": gettext_lazy(bot.seat_name) if bot else row.name,
        "points": number(row.points),
        "on_fire": row.on_fire,
        "games": row.games,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
        "score": row.total_score,
        "points_lost": number(row.points_lost),
        "buchholz": number(row.buchholz),
        "sonneborn_berger": number(row.sonneborn_berger),
        "paused": row.paused,
        "left": row.left,
        "game_id": row.game_id,
        "watch": reverse("games:play", args=[row.game_id]) if row.game_id else "",
        "computer": row.computer,
    }


def _games_under_way(tournament: Tournament, table: list[dict]) -> tuple[list[dict], int]:
    """The games being played, the leaders' first, each with its players' names (one tap to
    watch): the first ``GAMES_SHOWN``, and how many more (each player's row has its own)."""
    names = {row["entry_id"]: row["name"] for row in table}
    ranks = {row["entry_id"]: row["rank"] for row in table}
    playing = TournamentGame.objects.filter(tournament=tournament, finished_at__isnull=True)
    by_game: dict[str, list] = defaultdict(list)
    best: dict[str, int] = {}
    for row in playing.order_by("game_id", "entry_id"):
        if row.entry_id in names and names[row.entry_id] not in by_game[row.game_id]:
            by_game[row.game_id].append(names[row.entry_id])
            best[row.game_id] = min(best.get(row.game_id, ranks[row.entry_id]), ranks[row.entry_id])
        if row.against_computer:
            by_game[row.game_id].append(COMPUTER)
    order = sorted(by_game, key=lambda game_id: (best.get(game_id, 0), game_id))
    shown = [{"id": game_id, "players": by_game[game_id]} for game_id in order[:GAMES_SHOWN]]
    return shown, max(0, len(order) - GAMES_SHOWN)


def _opponent(row: TournamentGame, names: dict[int, object]):
    """Whom a tournament game was played against: an entry's name, the computer, or None (a
    duplicate round's solo game)."""
    if row.opponent_id:
        return names.get(row.opponent_id)
    return COMPUTER if row.against_computer else None


def _results(tournament: Tournament, table: list[dict], names: dict[int, object]) -> list[dict]:
    """At the end: each player's games (against whom, result, score, points lost) and their
    accuracy over them (the mean of their games' summaries, where valued)."""
    finished = TournamentGame.objects.filter(
        tournament=tournament, finished_at__isnull=False
    ).select_related("entry__player")
    games: dict[int, list[dict]] = defaultdict(list)
    seats = []
    for row in finished.order_by("finished_at", "id"):
        visitor = row.entry.player.visitor if row.entry.player_id else ""
        seats.append((row.game_id, visitor))
        games[row.entry_id].append(
            {
                "game_id": row.game_id,
                "round": row.round,
                "opponent": _opponent(row, names),
                "result": row.result,
                "score": row.score,
                "points_lost": number(row.points_lost),
                "visitor": visitor,
            }
        )
    valued = _valuations(seats)
    results = []
    for standing in table:
        played = games.get(standing["entry_id"], [])
        for game in played:  # the perfect player's valuation, where the game has one
            accuracy, loss = valued.get((game["game_id"], game["visitor"]), (None, None))
            game["accuracy"] = accuracy
            if not game["points_lost"] and loss is not None:
                game["points_lost"] = number(loss)
        accuracies = [g["accuracy"] for g in played if g["accuracy"] is not None]
        losses = [float(g["points_lost"]) for g in played if g["points_lost"]]
        results.append(
            standing
            | {
                "played": played,
                "accuracy": number(sum(accuracies) / len(accuracies)) if accuracies else "",
                "points_lost": number(sum(losses)) if losses else standing["points_lost"],
            }
        )
    return results


def _valuations(seats: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[float, float]]:
    """(accuracy, points lost) of each valued (game, visitor) among these seats' summaries."""
    if not seats:
        return {}
    # A seat with no decision of its own (every turn timed out, played by the server) has none.
    found = Summary.objects.filter(
        game_id__in={game for game, _ in seats}, decisions__gt=0
    ).values_list("game_id", "visitor", "accuracy", "loss")
    return {(game, visitor): (accuracy, loss) for game, visitor, accuracy, loss in found}


def value_results(tournament: Tournament, limit: int = 50) -> None:
    """Have the perfect player value up to ``limit`` of a finished tournament's games not valued
    yet (as My games and profiles do when they show them), for its results' accuracy."""
    games = TournamentGame.objects.filter(tournament=tournament).values("game_id")
    summaries.value_missing(Summary.objects.filter(game_id__in=games), limit)


def podium_of(table: list[dict]) -> list[dict]:
    """The people on the podium, placed among the people (as the prizes are): the computer
    never wins a prize, so a computer ahead of them does not push them down."""
    people = [row for row in table if not row["computer"] and not row["left"] and row["games"]]
    placed = [
        row | {"place": 1 + sum(1 for other in people if other["rank"] < row["rank"])}
        for row in people
    ]
    return [row for row in placed if row["place"] <= PODIUM]


def shared_context(tournament: Tournament) -> dict:
    """The parts of the page every viewer sees alike: status, standings, games, results."""
    drawn = time.time()  # before the read: a redraw read later is newer (tournament.js)
    now = timezone.now()
    rows = standings.standings(tournament)
    bots = dict(tournament.entries.exclude(bot="").values_list("pk", "bot"))
    table = [_standing(row, bots) for row in rows]
    names = {row["entry_id"]: row["name"] for row in table}
    over = tournament.status not in (Tournament.Status.UPCOMING, Tournament.Status.RUNNING)
    finished = tournament.status == Tournament.Status.FINISHED
    podium = podium_of(table) if finished else []
    games, more_games = ([], 0) if over else _games_under_way(tournament, table)
    return {
        "tournament": tournament,
        "format_name": FORMAT_NAMES.get(tournament.format, tournament.format),
        "status_name": STATUS_NAMES.get(tournament.status, tournament.status),
        "standings": table,
        "over": over,
        "games_under_way": games,
        "more_games": more_games,
        "podium": podium,
        "results": _results(tournament, table, names) if finished else [],
        "player_states": {row.visitor: player_state(row) for row in rows if row.visitor},
        "players": sum(1 for row in table if not row["left"]),
        "pot": sum(tournament.entries.values_list("fee", flat=True)),
        "now": now,
        "time_left": _time_left(tournament, now),
        "drawn": f"{drawn:.6f}",
    }


def player_state(row: standings.Row) -> str:
    """What a player's own parts of the page show of them: their game, paused or left."""
    return f"{row.game_id or ''}|{'left' if row.left else 'paused' if row.paused else 'in'}"


def countdown(seconds: float) -> str:
    """Seconds as page.js's countdowns show them: m:ss, or h:mm:ss from an hour on."""
    left = max(0, math.ceil(seconds))
    hours, minutes, seconds = left // 3600, left % 3600 // 60, left % 60
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def _time_left(tournament: Tournament, now) -> str:
    """What the countdown to the start (upcoming) or to an arena's end (under way) shows first."""
    if tournament.status == Tournament.Status.UPCOMING:
        until = tournament.starts_at
    elif tournament.status == Tournament.Status.RUNNING and tournament.ends_at:
        until = tournament.ends_at
    else:
        return ""
    return countdown((until - now).total_seconds())


# --- What one viewer sees -------------------------------------------------------------------------


def berserk_open(tournament_game: TournamentGame, visitor: str) -> bool:
    """Whether this player may still go berserk in their game (the domain checks it again)."""
    if tournament_game.berserk:
        return False
    game = tournament_game.game
    seat = game.seat_of(visitor)
    if seat is None or seat.berserk or game.status != Game.Status.PLAYING:
        return False
    return not berserk.has_rolled(game, seat)


def viewer_context(tournament: Tournament, visitor: str | None) -> dict:
    """This viewer's own parts: their entry, buttons and game."""
    me = player_of(visitor)
    entry = tournament.entries.filter(player=me).first() if me else None
    if entry is not None and entry.status == Entry.Status.LEFT:
        entry = None
    current = services.current_game(entry) if entry else None
    over = services.is_over(tournament)
    is_maker = me is not None and tournament.maker_id == me.pk
    return {
        "tournament": tournament,
        "me": me,
        "entry": entry,
        "my_entry_id": entry.pk if entry else "",
        "current": current,
        "over": over,
        "may_join": not over and entry is None,
        "is_maker": is_maker,
        "may_start": is_maker and tournament.status == Tournament.Status.UPCOMING,
        "may_add_computer": is_maker and not over,
        # The strengths that can play the tournament's game (``services.check_computer``).
        "strengths": [b for b in BOTS.values() if advice.bot_offered(b.id, tournament.rules)],
        "arena": tournament.format == Tournament.Format.ARENA,
        "berserk_open": bool(
            current and tournament.berserk and visitor and berserk_open(current, visitor)
        ),
    }


def page_context(tournament: Tournament, visitor: str | None) -> dict:
    """The whole page, and what its own parts were drawn for (``drawn_for``: its socket's
    consumer redraws them on connecting only if that changed meanwhile)."""
    shared = shared_context(tournament)
    state = shared["player_states"].get(visitor or "", "")
    drawn_for = urlencode({"status": tournament.status, "state": state})
    return shared | viewer_context(tournament, visitor) | {"drawn_for": drawn_for}
