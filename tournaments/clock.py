"""Moving tournaments on: the start, pairings, rounds and the end, when they become due.

Nothing waits in one process's memory: ``advance`` reads what is due from the database and does
it under the tournament's row lock (``select_for_update``; SQLite's transactions here are
IMMEDIATE), so two processes advancing the same tournament at once pair once: the second finds
the players already in their games. It runs after a tournament game's result is committed
(``clock.record``), when the tournament is read (``advance_if_due``), in every socket server's
sweep (``games.timeouts.SWEPT_WITH``, filled in ``TournamentsConfig.ready``) and in
``manage.py tournaments``.

- The start: at ``starts_at``, with fewer than two players it is cancelled and the fees given
  back; else it runs (an arena until ``ends_at``).
- Arena: players waiting (after a game, on joining late, on coming back) are paired at once by
  standing, never with the opponent they just played (``formats.arena.pair_waiting``), nor two
  with a block either way (``lobby.apart``); a
  computer entered by the maker plays whoever is left, never another computer; a person waiting
  alone for ``FILL_AFTER`` plays the maker's computer, if the maker chose one (marked, unrated).
  At ``ends_at`` nobody is paired; the games under way finish and count, then it is over.
- Swiss: when every match of the round is decided, the next round is paired
  (``formats.swiss.pair_round``); a best-of-three match plays its next game meanwhile; an odd
  player plays the computer (the maker's strength, or ``matches.DEFAULT_COMPUTER``).
- Duplicate: each round every player gets a solo game on the round's seed; the round is over when
  every game of it is, and then its dice (the seed) are shown on every game of it.
- The end: the pot to the podium (``results.pay_prizes``), in the transaction that finishes it.

Every tournament game has the tournament's turn timer (``games.clock``), so a round always ends.
Rated tournaments' games between two people are ranked games (``lobby.ranked`` rates them as
they end); a game with the computer never is.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine import dice
from games.models import Game
from lobby.apart import apart_pairs
from tournaments import events, matches, results
from tournaments.formats import arena, swiss
from tournaments.models import Entry, Round, Tournament, TournamentGame
from tournaments.standings import match_over, swiss_results

logger = logging.getLogger(__name__)

FILL_AFTER = timedelta(seconds=20)  # a person waiting alone this long plays the computer
# A duplicate round's dice are shown when the round is over (set then); until then at the latest.
REVEAL_AT_THE_LATEST = timedelta(days=1)


def scaled(length: timedelta) -> timedelta:
    """A length of the tournament's time, sped up as turns are (``settings.TURN_TIMER_SPEED``)."""
    return length / settings.TURN_TIMER_SPEED


def due(tournament: Tournament, now: datetime | None = None) -> bool:
    """Whether ``advance`` may have something to do: a look of one or two indexed reads without
    a lock, so that the pages reading a tournament do not take its lock in turn for nothing.

    Running: an arena whose time is up or in which two wait (or one, as long as the maker's
    computer may take them on); a Swiss or duplicate whose round has no game under way."""
    now = now or timezone.now()
    if tournament.status == Tournament.Status.UPCOMING:
        return tournament.starts_at <= now
    if tournament.status != Tournament.Status.RUNNING:
        return False
    if tournament.format != Tournament.Format.ARENA:
        return not (tournament.round and _under_way(tournament, round=tournament.round))
    if tournament.ends_at is not None and now >= tournament.ends_at:
        return True
    waiting = tournament.entries.filter(status=Entry.Status.ACTIVE, waiting_since__isnull=False)
    first_two = list(waiting.order_by("waiting_since").values_list("waiting_since", flat=True)[:2])
    alone_long = bool(first_two) and first_two[0] <= now - scaled(FILL_AFTER)
    return len(first_two) > 1 or (bool(tournament.computer) and alone_long)


def advance_if_due(tournament: Tournament) -> bool:
    """``advance`` a tournament being read, if something may be due (a page opening on it)."""
    return due(tournament) and advance(tournament.pk)


def advance(tournament_id: str, now: datetime | None = None) -> bool:
    """Do what is due in the tournament now; True if anything changed (its pages are told)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or not due(tournament, now):
            return False
        now = now or timezone.now()
        if tournament.status == Tournament.Status.UPCOMING:
            changed = _start(tournament, now)
        elif tournament.format == Tournament.Format.ARENA:
            changed = _arena(tournament, now)
        elif tournament.format == Tournament.Format.SWISS:
            changed = _swiss(tournament, now)
        else:
            changed = _duplicate(tournament, now)
        if changed:
            events.announce_tournament(tournament.pk)
    return changed


def record(sender, game: Game, state, **kwargs) -> None:
    """A game is finishing (``games.events.game_finishing``, in its last action's transaction):
    write what it counts in its tournament, if it is one's, and move the tournament on after the
    commit (pairing its players again, or the next round)."""
    tournament_id = results.write_results(game, state)
    if tournament_id is not None:
        transaction.on_commit(lambda: _advance_after(tournament_id))


def _advance_after(tournament_id: str) -> None:
    """After a result's commit: move the tournament on, which tells its pages; if nothing else
    changed, tell them of the result alone (one redraw a game's end, not two). A failure is
    left for the sweep to retry."""
    try:
        changed = advance(tournament_id)
    except Exception:
        logger.exception("Could not move tournament %s on after a game", tournament_id)
        changed = False
    if not changed:
        events.announce_tournament(tournament_id)


def sweep() -> int:
    """Advance every tournament that may be due (``manage.py tournaments``, the socket servers'
    sweep); how many changed. One that fails is logged and left for the next sweep."""
    now = timezone.now()
    changed = 0
    due_now = Tournament.objects.filter(
        Q(status=Tournament.Status.UPCOMING, starts_at__lte=now)
        | Q(status=Tournament.Status.RUNNING)
    )
    for tournament in list(due_now):
        try:
            changed += advance_if_due(tournament)
        except Exception:
            logger.exception("Could not move tournament %s on", tournament.pk)
    return changed


def _active(tournament: Tournament) -> list[Entry]:
    return list(
        tournament.entries.filter(status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("-points", "joined_at", "id")
    )


def _start(tournament: Tournament, now: datetime) -> bool:
    players = _active(tournament)
    if len(players) < 2:  # a tournament of one: nobody to play
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
        results.refund_fees(tournament)
        return True
    tournament.status = Tournament.Status.RUNNING
    if tournament.format == Tournament.Format.ARENA:
        tournament.ends_at = now + scaled(timedelta(minutes=tournament.minutes or 0))
        tournament.entries.filter(status=Entry.Status.ACTIVE).update(waiting_since=now)
    tournament.save(update_fields=["status", "ends_at"])
    if tournament.format == Tournament.Format.SWISS:
        _swiss(tournament, now)
    elif tournament.format == Tournament.Format.DUPLICATE:
        _duplicate(tournament, now)
    else:
        _arena(tournament, now)
    return True


def _finish(tournament: Tournament, now: datetime) -> bool:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    tournament.entries.update(waiting_since=None)
    results.pay_prizes(tournament)
    return True


def _under_way(tournament: Tournament, **filters) -> set[int]:
    """The entries playing a game of the tournament now."""
    return set(
        tournament.games.filter(finished_at__isnull=True, **filters).values_list(
            "entry_id", flat=True
        )
    )


def _arena(tournament: Tournament, now: datetime) -> bool:
    if tournament.ends_at is not None and now >= tournament.ends_at:
        if _under_way(tournament):
            return bool(
                tournament.entries.filter(waiting_since__isnull=False).update(waiting_since=None)
            )
        return _finish(tournament, now)
    busy = _under_way(tournament)
    active = _active(tournament)  # by points: the standing that pairs close players
    ready = [e for e in active if e.waiting_since is not None and e.pk not in busy]
    if not ready:
        return False
    last = _last_opponents(tournament, [entry.pk for entry in ready])
    ranks = {entry.pk: rank for rank, entry in enumerate(active, start=1)}
    waiting = [arena.Waiting(e.pk, ranks[e.pk], last.get(e.pk)) for e in ready]
    pairs, left = arena.pair_waiting(waiting)
    by_id = {entry.pk: entry for entry in ready}
    apart = apart_pairs(entry.player_id for entry in ready if entry.player_id)
    for a, b in list(pairs):
        # Two computers never play each other; two players with a block either way never meet.
        players = frozenset((by_id[a].player_id, by_id[b].player_id))
        if (by_id[a].bot and by_id[b].bot) or players in apart:
            pairs.remove((a, b))
            left += [a, b]
    people = [by_id[pk] for pk in left if not by_id[pk].bot]
    computers = [by_id[pk] for pk in left if by_id[pk].bot]
    for person in list(people):
        computer = next((c for c in computers if last.get(person.pk) != c.pk), None)
        if computer is not None:
            computers.remove(computer)
            people.remove(person)
            pairs.append((person.pk, computer.pk))
    for a, b in pairs:
        _start_match(tournament, by_id[a], by_id[b])
    filled = [
        person
        for person in people
        if tournament.computer and person.waiting_since <= now - scaled(FILL_AFTER)
    ]
    for person in filled:
        _start_match(tournament, person, None)
    return bool(pairs or filled)


def _last_opponents(tournament: Tournament, entries: list[int]) -> dict[int, int | None]:
    """These entries' opponents in their last finished games (None: the maker's computer)."""
    last: dict[int, int | None] = {}
    rows = tournament.games.filter(entry__in=entries, finished_at__isnull=False).order_by(
        "finished_at", "id"
    )
    for entry_id, opponent_id in rows.values_list("entry_id", "opponent_id"):
        last[entry_id] = opponent_id
    return last


def _start_match(
    tournament: Tournament, a: Entry, b: Entry | None, round_number: int | None = None
) -> Game:
    """``matches.start``, and the result of a game the computers played out at once."""
    game = matches.start(tournament, a, b, round_number)
    if game.status == Game.Status.FINISHED:
        record(None, game=game, state=game.state())
    return game


def _swiss(tournament: Tournament, now: datetime) -> bool:
    if tournament.round and _under_way(tournament, round=tournament.round):
        return False
    if tournament.round:
        rows = list(tournament.games.filter(round=tournament.round).order_by("finished_at", "id"))
        matches: dict[tuple[int, int | None], list[TournamentGame]] = {}
        for row in rows:
            matches.setdefault((row.entry_id, row.opponent_id), []).append(row)
        entries = {entry.pk: entry for entry in tournament.entries.select_related("player")}
        gone = _gone(entries.values())
        again = [
            (entry_id, opponent_id)
            for (entry_id, opponent_id), games_played in matches.items()
            if (opponent_id is None or entry_id < opponent_id)
            and not {entry_id, opponent_id} & gone  # who left has lost the match
            and not match_over([g.result for g in games_played], tournament.best_of)
        ]
        for entry_id, opponent_id in again:
            opponent = entries[opponent_id] if opponent_id is not None else None
            _start_match(tournament, entries[entry_id], opponent, tournament.round)
        if again:
            return True
        if tournament.round >= (tournament.rounds or 0):
            return _finish(tournament, now)
    return _swiss_round(tournament)


def _gone(entries) -> frozenset[int]:
    return frozenset(entry.pk for entry in entries if entry.status == Entry.Status.LEFT)


def _swiss_round(tournament: Tournament) -> bool:
    players = _active(tournament)
    rows = list(tournament.games.all())
    points: dict[int, float] = {}
    for result in swiss_results(tournament, rows, _gone(tournament.entries.all())):
        points[result.player] = points.get(result.player, 0.0) + result.result
    met: dict[int, set[int]] = {}
    had_computer: set[int] = set()
    for row in rows:
        if row.opponent_id is not None:
            met.setdefault(row.entry_id, set()).add(row.opponent_id)
        elif row.against_computer:
            had_computer.add(row.entry_id)
    pairs, odd = swiss.pair_round(
        [
            swiss.SwissPlayer(
                entry.pk,
                points.get(entry.pk, 0.0),
                entry.player.rating_value if entry.player else 0.0,
                frozenset(met.get(entry.pk, ())),
                entry.pk in had_computer,
            )
            for entry in players
        ]
    )
    tournament.round += 1
    tournament.save(update_fields=["round"])
    Round.objects.create(tournament=tournament, number=tournament.round)
    by_id = {entry.pk: entry for entry in players}
    for a, b in pairs:
        _start_match(tournament, by_id[a], by_id[b], tournament.round)
    if odd is not None:
        _start_match(tournament, by_id[odd], None, tournament.round)
    return True


def _duplicate(tournament: Tournament, now: datetime) -> bool:
    if tournament.round:
        if _under_way(tournament, round=tournament.round):
            return False
        Round.objects.filter(tournament=tournament, number=tournament.round).update(finished_at=now)
        # The round is over: its dice (the seed) are shown on every game of it.
        Game.objects.filter(
            tournament_games__tournament=tournament, tournament_games__round=tournament.round
        ).update(reveal_after=now)
        if tournament.round >= (tournament.rounds or 0):
            return _finish(tournament, now)
    tournament.round += 1
    tournament.save(update_fields=["round"])
    seed = dice.new_seed()
    Round.objects.create(tournament=tournament, number=tournament.round, seed=seed)
    for entry in _active(tournament):
        game = matches.start_solo(tournament, entry, seed, now + REVEAL_AT_THE_LATEST)
        if game.status == Game.Status.FINISHED:  # the computer played its game as it was made
            record(None, game=game, state=game.state())
    return True
