"""The turn timer: decided on the server from stored times (a frozen clock, a fresh process)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest
from django.utils import timezone

from core.refusals import StaleAction
from games import services, timeouts
from games.models import Action, Game
from games.presenters.replay import Positions
from lobby.models import Table
from tests.clients import HTMX, online
from tests.factories import AL, BO, at, timed_game

pytestmark = pytest.mark.django_db


def kinds(game: Game) -> list[tuple[int, str]]:
    return [(a.seat, a.kind) for a in Action.objects.filter(game=game)]


def test_a_turn_at_59_seconds_is_not_timed_out():
    game = timed_game()
    with at(game, 59):
        assert timeouts.sweep() == 0
        assert not timeouts.enforce(game.id)
    game.refresh_from_db()
    assert game.log_length == 0 and game.current_seat == 0


def test_at_61_seconds_the_server_plays_the_turn_and_logs_it():
    game = timed_game()
    with at(game, 61) as now:
        assert timeouts.sweep() == 1
        assert timeouts.sweep() == 0  # idempotent: the turn is played once
    game.refresh_from_db()
    logged = kinds(game)
    assert logged[0] == (0, "timeout")
    assert logged[-1] == (0, "score") and {seat for seat, _ in logged} == {0}
    assert game.current_seat == 1
    # Al's turn starts when Bo's was played, with a full minute.
    assert game.turn_started_at == now.return_value
    assert game.turn_deadline == now.return_value + timedelta(seconds=60)
    assert game.seats.get(position=0).timeouts == 1
    assert game.replayed_state() == game.state()


def test_a_late_move_is_refused_as_stale_after_the_turn_is_played():
    game = timed_game()
    with at(game, 61), pytest.raises(StaleAction):
        services.perform(game.id, BO, "roll", {}, game.step)
    game.refresh_from_db()
    assert kinds(game)[0] == (0, "timeout") and game.current_seat == 1


def test_a_move_the_sweep_beat_to_it_says_the_time_ran_out():
    game = timed_game()
    shown = game.step
    with at(game, 61):
        assert timeouts.sweep() == 1
    with pytest.raises(StaleAction, match="The time for this turn ran out"):
        services.perform(game.id, BO, "roll", {}, shown)
    al_shown = Game.objects.get(pk=game.pk).step
    services.perform(game.id, AL, "roll", {}, al_shown)
    with pytest.raises(StaleAction, match="moved on since this page"):
        services.perform(game.id, AL, "roll", {}, al_shown)  # a double click: not a timeout


def test_a_move_in_time_counts_and_the_clock_restarts():
    game = timed_game()
    with at(game, 30):
        services.perform(game.id, BO, "roll", {}, 0)
    game.refresh_from_db()
    assert game.step == 1
    # A roll is not a new turn: the clock goes on from the turn's start.
    with at(game, 61):
        assert timeouts.enforce(game.id)
    game.refresh_from_db()
    logged = kinds(game)
    assert logged[:2] == [(0, "roll"), (0, "timeout")]  # the rest of the turn, from the roll on
    assert game.current_seat == 1


def play_out_timeouts(game: Game, turns: int) -> None:
    """Let ``turns`` turns in a row run out, whoever's they are."""
    for _ in range(turns):
        with at(game, 61):
            assert timeouts.enforce(game.id)


def test_the_third_timeout_in_a_row_of_two_players_loses_the_game():
    game = timed_game()
    play_out_timeouts(game, 5)  # Bo, Al, Bo, Al, Bo
    game.refresh_from_db()
    assert game.forfeited == [0]
    assert game.seats.get(position=0).timeouts == 3
    logged = kinds(game)
    assert logged[-1] == (0, "resign") and logged.count((0, "resign")) == 1
    # Al is left alone: the game is over and Al wins, not made to play on alone.
    assert game.status == Game.Status.FINISHED and game.state().results() == (0.0, 1.0)
    assert game.turn_deadline is None and not timeouts.sweep()
    assert game.replayed_state() == game.state()


def test_the_third_timeout_in_a_row_of_three_players_leaves_the_others_playing():
    game = timed_game(third=True)
    play_out_timeouts(game, 7)  # Bo, Al, Cy, Bo, Al, Cy, Bo
    game.refresh_from_db()
    assert game.forfeited == [0] and game.status == Game.Status.PLAYING
    assert game.current_seat == 1  # Al and Cy play on
    assert game.replayed_state() == game.state()


def test_a_move_made_in_time_resets_the_count():
    game = timed_game(third=True)
    play_out_timeouts(game, 6)  # Bo, Al, Cy, Bo, Al, Cy: two each
    game.refresh_from_db()
    with at(game, 10):
        game = services.perform(game.id, BO, "roll", {}, game.step)
        box = next(iter(game.state().options()))
        services.perform(game.id, BO, "score", {"box": box}, game.step)
    assert Game.objects.get(pk=game.pk).seats.get(position=0).timeouts == 0
    play_out_timeouts(game, 2)  # Al's third: Al leaves; Cy's third: Cy leaves, and Bo wins
    game.refresh_from_db()
    assert game.forfeited == [1, 2] and game.status == Game.Status.FINISHED
    assert game.seats.get(position=0).timeouts == 0


def test_a_game_that_fails_does_not_hold_up_the_sweep_of_the_others(caplog):
    broken, fine = timed_game(), timed_game()
    play = timeouts.play_timed_out_turn

    def fail_for_one(game, roll=None):
        if game.id == broken.id:
            raise RuntimeError("broken")
        play(game, roll)

    with at(fine, 61), mock.patch.object(timeouts, "play_timed_out_turn", fail_for_one):
        assert timeouts.sweep() == 1
    assert (0, "timeout") in kinds(fine) and not kinds(broken)
    assert f"Could not play the overdue turn of game {broken.id}" in caplog.text


def test_a_game_without_a_timer_never_times_out():
    players = [SimpleNamespace(name="Bo", visitor=BO), SimpleNamespace(name="Al", visitor=AL)]
    game = services.start_online_game(players)
    assert game.turn_deadline is None
    later = timezone.now() + timedelta(days=30)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert timeouts.sweep() == 0


def test_a_finished_game_has_no_deadline():
    game = timed_game()
    play_out_timeouts(game, 5)  # Bo leaves; Al plays on alone
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING:
        play_out_timeouts(game, 1)
        game.refresh_from_db()
    assert game.turn_deadline is None
    assert game.replayed_state() == game.state()


@pytest.mark.django_db(transaction=True)
def test_a_fresh_process_plays_the_overdue_turn(tmp_path: Path):
    """Across a restart: the deadline is read from the database by a new process."""
    database = tmp_path / "timer.sqlite3"
    env = os.environ | {"SQLITE_PATH": str(database)}
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True)
    script = (
        "from types import SimpleNamespace as P; from datetime import timedelta;"
        "from games import services; from games.models import Game;"
        "g = services.start_online_game([P(name='Bo', visitor='b'), P(name='Al', visitor='a')],"
        " turn_seconds=30);"
        "Game.objects.filter(pk=g.pk).update(turn_deadline=g.turn_deadline - timedelta(seconds=31))"
    )
    subprocess.run([*manage, "shell", "--no-imports", "-c", script], env=env, check=True)
    ran = subprocess.run([*manage, "timeouts"], env=env, check=True, capture_output=True, text=True)
    assert ran.stdout.strip() == "1 timed-out turn(s) played."
    check = (
        "from games.models import Game; g = Game.objects.get();"
        "print(g.current_seat, g.actions.first().kind, g.replayed_state() == g.state())"
    )
    shown = subprocess.run(
        [*manage, "shell", "--no-imports", "-c", check],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    assert shown.stdout.split() == ["1", "timeout", "True"]


def table_of_two():
    """A private table with a host and a guest seated, not started."""
    host = online("host", "Host")
    host.post("/table/new/")
    table = Table.objects.get()
    guest = online("guest", "Guest")
    assert guest.post(f"/t/{table.code}/join/").status_code == 302
    return host, guest, table


def test_the_host_chooses_the_timer_when_starting_a_table():
    host, guest, table = table_of_two()
    page = host.get(f"/t/{table.code}/").text
    assert '<option value="60">60 seconds a turn</option>' in page
    assert host.post(f"/t/{table.code}/start/", {"timer": "60"}).status_code == 302
    game = Game.objects.get()
    assert game.turn_seconds == 60 and game.turn_deadline is not None
    seen = guest.get(f"/game/{game.id}/").text
    assert "Time left for this turn:" in seen and "1:00" in seen
    assert f'data-deadline="{game.turn_deadline.isoformat()}"' in seen


def test_a_table_started_without_a_timer_has_none():
    host, _guest, table = table_of_two()
    assert host.post(f"/t/{table.code}/start/").status_code == 302
    game = Game.objects.get()
    assert game.turn_seconds is None
    assert "Time left for this turn" not in host.get(f"/game/{game.id}/").text


@pytest.mark.parametrize("timer", ["45", "0", "-30", "６０", "sixty", "86400"])
def test_a_timer_not_offered_is_refused_and_nothing_starts(timer):
    host, _guest, table = table_of_two()
    refused = host.post(f"/t/{table.code}/start/", {"timer": timer})
    assert refused.status_code == 400
    assert "Choose what the table offers" in refused.text
    assert not Game.objects.exists()
    table.refresh_from_db()
    assert table.game_id is None


def test_a_timer_on_a_started_or_finished_game_or_by_a_guest_is_refused():
    host, guest, table = table_of_two()
    assert guest.post(f"/t/{table.code}/start/", {"timer": "30"}).status_code == 403
    assert host.post(f"/t/{table.code}/start/", {"timer": "30"}).status_code == 302
    game = Game.objects.get()
    again = host.post(f"/t/{table.code}/start/", {"timer": "120"})
    assert again.status_code == 409 and "already started" in again.text
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, turn_deadline=None)
    finished = host.post(f"/t/{table.code}/start/", {"timer": "120"})
    assert finished.status_code == 409 and "already started" in finished.text
    game.refresh_from_db()
    assert game.turn_seconds == 30 and Game.objects.count() == 1


def test_the_page_of_an_overdue_game_plays_the_turn_first_and_says_so():
    host, guest, table = table_of_two()
    host.post(f"/t/{table.code}/start/", {"timer": "30"})
    game = Game.objects.get()
    with at(game, 31):
        page = guest.get(f"/game/{game.id}/").text
    assert "Host ran out of time." in page
    game.refresh_from_db()
    assert game.current_seat == 1 and kinds(game)[0] == (0, "timeout")


def test_a_late_move_posted_is_a_409_with_the_game_as_it_is():
    host, _guest, table = table_of_two()
    host.post(f"/t/{table.code}/start/", {"timer": "30"})
    game = Game.objects.get()
    with at(game, 31):
        late = host.post(f"/game/{game.id}/roll/", {"step": "0"}, headers=HTMX)
    assert late.status_code == 409
    assert "The time for this turn ran out" in late.text
    game.refresh_from_db()
    assert game.current_seat == 1


def test_the_message_lines_say_who_ran_out_of_time_and_who_left():
    host, guest, table = table_of_two()
    host.post(f"/t/{table.code}/start/", {"timer": "60"})
    game = Game.objects.get()
    play_out_timeouts(game, 1)
    own = host.get(f"/game/{game.id}/").text
    assert re.search(r"Time ran out: \d+ points? in [\w ]+ (was|were) scored for you\.", own)
    assert "Host ran out of time." in guest.get(f"/game/{game.id}/").text
    play_out_timeouts(game, 4)  # Guest, Host, Guest, Host: the host's third
    seen = guest.get(f"/game/{game.id}/").text
    assert "Host ran out of time three turns in a row and has left." in seen
    # The guest is left alone: the game is over, and the guest won it.
    assert Game.objects.get(pk=game.pk).forfeited == [0]
    assert "Game over" in seen and "You win!" in seen
    replay = guest.get(f"/game/{game.id}/replay/?at=0").text
    assert "Ran out of time: the server plays the rest of the turn" in replay
    actions = [(a.seat, a.kind, a.payload) for a in Action.objects.filter(game=game)]
    leaving = Positions.of(actions).last - 1  # the position before the end: the host leaves
    replay = guest.get(f"/game/{game.id}/replay/?at={leaving}").text
    assert "Leaves the game: three turns in a row ran out of time" in replay


def test_a_table_at_your_own_pace_gives_a_day_a_turn_and_nobody_is_away(settings):
    settings.AWAY_GRACE_SECONDS = 0  # live, both would be away at once
    host, guest, table = table_of_two()
    assert host.post(f"/t/{table.code}/start/", {"pace": "own", "timer": "30"}).status_code == 302
    game = Game.objects.get()
    assert game.pace == Game.Pace.OWN and game.turn_seconds == 24 * 60 * 60
    page = guest.get(f"/game/{game.id}/").text
    assert "is away" not in page and "Continue without" not in page
    assert "Host</a>: plays later" in page
    assert "At your own pace: this turn can wait" in page and "Time left for this turn" not in page
    assert re.search(r'class="countdown" data-deadline="[^"]+">2[34]:\d\d:\d\d<', page)
    refused = guest.post(f"/game/{game.id}/leave-out/", {"seat": "0"})
    assert refused.status_code == 409
    game.refresh_from_db()
    assert game.forfeited == [] and game.log_length == 0
    with at(game, 24 * 60 * 60 - 1):
        assert not timeouts.enforce(game.id)
    with at(game, 24 * 60 * 60 + 1):
        assert timeouts.enforce(game.id)  # a turn not taken in a day is played for the player


def test_a_pace_not_offered_is_refused():
    host, _guest, table = table_of_two()
    refused = host.post(f"/t/{table.code}/start/", {"pace": "slow"})
    assert refused.status_code == 400 and "Choose what the table offers" in refused.text
    assert not Game.objects.exists()


def test_home_and_lobby_say_your_turn_in_n_games_and_list_them_first():
    host, guest, first = table_of_two()
    host.post(f"/t/{first.code}/start/", {"pace": "own"})
    host.post("/table/new/")
    second = Table.objects.exclude(pk=first.pk).get()
    guest.post(f"/t/{second.code}/join/")
    host.post(f"/t/{second.code}/start/", {"pace": "own"})
    # Host's turn in both; Guest waits in both.
    home = host.get("/").text
    assert "Your turn in 2 games" in home
    assert home.count('class="continue-state">Your turn') == 2  # in the buttons, not under them
    assert "Your turn in" not in guest.get("/").text
    game = Game.objects.get(table=first)
    game = services.perform(game.id, "host", "roll", {}, game.step)
    box = next(iter(game.state().options()))
    services.perform(game.id, "host", "score", {"box": box}, game.step)
    assert "Your turn in 1 game" in host.get("/").text
    lobby = guest.get("/online/").text
    assert "Your turn in 1 game" in lobby and f"/game/{game.id}/" in lobby
    home = guest.get("/").text
    listed = re.findall(r'href="/game/([\w-]+)/"', home)
    assert listed[0] == game.id  # the game waiting for Guest comes first
