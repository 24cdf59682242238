"""A tournament's standings as plain rows for its page: worked out from its entries and their
finished games (``TournamentGame``), in a few queries, by the format's own rules
(``tournaments.formats``).

- Arena: points (a win 2, a draw 1, doubled on fire, +1 for a berserk win), then total score.
- Swiss: match points (1, 0.5, 0 a round), then Buchholz, then Sonneborn-Berger.
- Duplicate: points lost against the perfect player over the rounds, fewest first, then score.

``points`` is the format's own measure (an arena's points, a Swiss's match points, a
duplicate's points lost); a player who left keeps their place, marked.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext

from engine.strategy.bots import BOTS
from tournaments.formats import arena, duplicate, swiss
from tournaments.models import Entry, Tournament, TournamentGame


@dataclass(frozen=True)
class Row:
    """One entry's line in the standings."""

    rank: int
    entry_id: int
    name: str
    visitor: str  # "" for the computer
    points: float
    on_fire: bool
    games: int  # finished
    wins: int
    draws: int
    losses: int
    total_score: int
    points_lost: float | None  # None while no game of theirs was valued
    buchholz: float | None  # Swiss only
    sonneborn_berger: float | None  # Swiss only
    paused: bool
    left: bool
    game_id: str | None  # the game they are playing now
    computer: bool


def entry_name(entry: Entry) -> str:
    """An entry's name as pages show it (the computer's by its strength, translated)."""
    if entry.bot:
        bot = BOTS.get(entry.bot)
        return gettext(bot.seat_name) if bot else entry.bot
    return entry.player.name if entry.player else ""


def match_over(results: list[float], best_of: int) -> bool:
    """Whether a Swiss match of these finished games' results (one side's) is decided: best of
    one after a game; best of three once a side has two wins, or after three games."""
    if best_of <= 1:
        return len(results) >= 1
    wins, losses = results.count(1.0), results.count(0.0)
    return wins * 2 > best_of or losses * 2 > best_of or len(results) >= best_of


def swiss_results(
    tournament: Tournament, rows: list[TournamentGame], gone: frozenset[int] = frozenset()
) -> list[swiss.SwissResult]:
    """Each decided match of the tournament, from each side (the computer: opponent None).

    A match one of whose players left (``gone``) is decided by the games played: the one who
    left loses it, unless it was decided already."""
    matches: dict[tuple[int, int], list[TournamentGame]] = defaultdict(list)
    for row in rows:
        if row.finished_at is not None and row.result is not None:
            matches[(row.entry_id, row.round or 0)].append(row)
    results = []
    for games in matches.values():
        scores = [game.result for game in games]
        player, opponent = games[0].entry_id, games[0].opponent_id
        if match_over(scores, tournament.best_of):
            result = swiss.match_result(scores)
        elif player in gone or opponent in gone:
            result = 0.0 if player in gone else 1.0
        else:
            continue
        results.append(swiss.SwissResult(player, opponent, result))
    return results


def standings(tournament: Tournament) -> list[Row]:
    """The tournament's standings, best first (equal places share a rank)."""
    entries = list(tournament.entries.select_related("player").order_by("joined_at", "id"))
    rows = list(TournamentGame.objects.filter(tournament=tournament).order_by("finished_at", "id"))
    by_entry: dict[int, list[TournamentGame]] = defaultdict(list)
    playing: dict[int, str] = {}
    for row in rows:
        if row.finished_at is None:
            playing[row.entry_id] = row.game_id
        else:
            by_entry[row.entry_id].append(row)
    ids = [entry.pk for entry in entries]
    extra: dict[int, tuple[int, float, float | None, float | None]] = {}  # rank, points, bh, sb
    if tournament.format == Tournament.Format.SWISS:
        gone = frozenset(entry.pk for entry in entries if entry.status == Entry.Status.LEFT)
        for place in swiss.standings(ids, swiss_results(tournament, rows, gone)):
            extra[place.id] = (place.rank, place.points, place.buchholz, place.sonneborn_berger)
    elif tournament.format == Tournament.Format.DUPLICATE:
        played = [
            duplicate.DuplicateGame(r.entry_id, r.round or 0, r.points_lost or 0.0, r.score or 0)
            for group in by_entry.values()
            for r in group
        ]
        for place in duplicate.standings(ids, played):
            extra[place.id] = (place.rank, place.points_lost, None, None)
    else:
        order = sorted(
            entries,
            key=lambda e: (-e.points, -sum(r.score or 0 for r in by_entry[e.pk]), e.pk),
        )
        previous: tuple | None = None
        for place, entry in enumerate(order, start=1):
            key = (entry.points, sum(r.score or 0 for r in by_entry[entry.pk]))
            rank = extra[previous[0]][0] if previous and previous[1] == key else place
            extra[entry.pk] = (rank, float(entry.points), None, None)
            previous = (entry.pk, key)
    table = [
        _row(tournament, entry, by_entry[entry.pk], playing, extra[entry.pk]) for entry in entries
    ]
    return sorted(table, key=lambda row: (row.rank, row.entry_id))


def _row(tournament, entry: Entry, games: list[TournamentGame], playing, extra) -> Row:
    rank, points, buchholz, berger = extra
    results = [game.result for game in games if game.result is not None]
    valued = [game.points_lost for game in games if game.points_lost is not None]
    history = [
        arena.ArenaGame(game.result, game.berserk) for game in games if game.result is not None
    ]
    return Row(
        rank=rank,
        entry_id=entry.pk,
        name=entry_name(entry),
        visitor=entry.player.visitor if entry.player else "",
        points=points,
        on_fire=tournament.format == Tournament.Format.ARENA and arena.on_fire(history),
        games=len(games),
        wins=results.count(1.0),
        draws=results.count(0.5),
        losses=results.count(0.0),
        total_score=sum(game.score or 0 for game in games),
        points_lost=round(sum(valued), 2) if valued else None,
        buchholz=buchholz,
        sonneborn_berger=berger,
        paused=entry.status == Entry.Status.PAUSED,
        left=entry.status == Entry.Status.LEFT,
        game_id=playing.get(entry.pk),
        computer=bool(entry.bot),
    )
