"""Tournaments raced from two threads, each on its own database connection: two joins for the
last place, two processes advancing at once, a pairing while a game ends, the end reached twice
at once. One wins, nothing happens twice, the ledger balances.

On SQLite these need the file database (``--sqlite-on-disk``, as the site runs it: WAL, a busy
wait): in memory a connection reading a table another is writing fails at once (SQLITE_LOCKED)
and that, not the race, decides. PostgreSQL's pass (``devstack.throwaway postgres``) runs them.
"""

from __future__ import annotations

import concurrent.futures
import threading
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from core.refusals import ActionRefused
from games.models import Game
from games.names import look_alike_key
from lobby import diamonds
from lobby.models import DiamondEntry, Player
from tests.factories import play_out
from tournaments import clock, services
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.services import TournamentOptions

pytestmark = pytest.mark.django_db(transaction=True)  # each thread commits on its own connection


@pytest.fixture(autouse=True)
def _a_database_that_races():
    name = connection.settings_dict.get("TEST", {}).get("NAME") or ""
    if connection.vendor == "sqlite" and (not name or "memory" in name):
        pytest.skip("SQLite in memory fails a reader beside a writer at once: --sqlite-on-disk")


def profiles(*names: str) -> None:
    for name in names:
        player = Player.objects.create(
            visitor=name.lower(), name=name, name_key=look_alike_key(name)
        )
        diamonds.welcome(player)


def at_once(*calls):
    """Run the calls on two threads that start together; each answer, or the refusal's class."""
    start = threading.Barrier(len(calls))

    def run(call):
        start.wait()
        try:
            return call()
        except ActionRefused as refusal:
            return type(refusal).__name__ + ": " + str(refusal)
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def audit_ok() -> diamonds.Audit:
    report = diamonds.audit()
    assert report.problems == []
    return report


def test_two_joins_for_the_last_place_one_wins():
    profiles("Ana", "Bo", "Cy")
    made = services.create(
        "ana", TournamentOptions(name="Duel", format="arena", minutes=30, capacity=2, entry_fee=50)
    )
    services.join(made.pk, "ana")
    answers = at_once(lambda: services.join(made.pk, "bo"), lambda: services.join(made.pk, "cy"))
    refused = [answer for answer in answers if isinstance(answer, str)]
    assert refused == ["StaleAction: This tournament is full."], answers
    assert Entry.objects.filter(tournament=made).count() == 2
    assert diamonds.named_pot(services.pot_name(made)) == 100
    assert audit_ok().in_play == 100


def running_arena(*names: str) -> Tournament:
    profiles(*names)
    made = services.create(
        "ana", TournamentOptions(name="Night", format="arena", minutes=30, entry_fee=20)
    )
    for name in names:
        services.join(made.pk, name.lower())
    Tournament.objects.filter(pk=made.pk).update(starts_at=timezone.now())
    return made


def one_game_each(made: Tournament) -> None:
    playing = TournamentGame.objects.filter(tournament=made, finished_at__isnull=True)
    entries = list(playing.values_list("entry", flat=True))
    assert len(entries) == len(set(entries)), "an entry paired twice"


def test_two_advances_at_once_pair_once():
    made = running_arena("Ana", "Bo", "Cy", "Di")
    answers = at_once(lambda: clock.advance(made.pk), lambda: clock.advance(made.pk))
    assert sorted(answers) == [False, True]
    assert Game.objects.count() == 2
    one_game_each(made)


def test_a_pairing_while_a_game_ends_pairs_its_players_once():
    made = running_arena("Ana", "Bo", "Cy", "Di", "Ed")
    clock.advance(made.pk)  # two games; one player waits
    game = Game.objects.filter(tournament_games__tournament=made).first()
    play_out_but_last = _almost(game)
    answers = at_once(play_out_but_last, lambda: clock.advance(made.pk))
    assert not any(isinstance(answer, str) for answer in answers), answers
    clock.advance(made.pk)  # what the ending game's own pairing after commit does
    one_game_each(made)
    rows = TournamentGame.objects.filter(game=game)
    assert all(row.finished_at is not None for row in rows) and rows.count() == 2
    waiting = Entry.objects.filter(tournament=made, waiting_since__isnull=False).count()
    playing = TournamentGame.objects.filter(tournament=made, finished_at__isnull=True).count()
    assert waiting + playing == 5 and playing % 2 == 0


def _almost(game: Game):
    """Play the game to its last score; the call that makes that score."""
    from games import services as games

    while True:
        game.refresh_from_db()
        state = game.state()
        seat = game.ordered_seats()[state.current]
        if sum(card.turns_played for card in state.cards) == 2 * 13 - 1:
            break
        games.perform(game.id, seat.visitor, "roll", {"held": list(state.turn.held)}, game.step)
        game.refresh_from_db()
        box = game.state().cards[state.current].open_boxes[0]
        games.perform(game.id, seat.visitor, "score", {"box": box}, game.step)

    def last() -> Game:
        game.refresh_from_db()
        state = game.state()
        visitor = game.ordered_seats()[state.current].visitor
        games.perform(game.id, visitor, "roll", {"held": list(state.turn.held)}, game.step)
        game.refresh_from_db()
        box = game.state().cards[state.current].open_boxes[0]
        return games.perform(game.id, visitor, "score", {"box": box}, game.step)

    return last


def test_the_end_reached_twice_at_once_pays_the_podium_once():
    made = running_arena("Ana", "Bo", "Cy", "Di")
    clock.advance(made.pk)
    Tournament.objects.filter(pk=made.pk).update(ends_at=timezone.now())
    with mock.patch("tournaments.clock.after_game"):  # the end is left for the race below
        for game in Game.objects.filter(tournament_games__tournament=made).distinct():
            play_out(game)
    answers = at_once(lambda: clock.advance(made.pk), lambda: clock.advance(made.pk))
    assert sorted(answers) == [False, True]
    made.refresh_from_db()
    assert made.status == Tournament.Status.FINISHED
    prizes = DiamondEntry.objects.filter(pot=services.pot_name(made), reason="prize")
    assert sum(prizes.values_list("amount", flat=True)) == 80
    assert audit_ok().in_play == 0
