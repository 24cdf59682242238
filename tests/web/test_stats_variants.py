"""Stats kept per game: My games and the profile show Yahtzee's stats by default and another
game's on ``?game=``, offered once it has been played to the end; an unknown game is refused in
the page's language; My games names a row's game; a group's standings average Yahtzee's scores
only, while counting every game's results."""

from __future__ import annotations

import pytest

from engine.rulesets import MAXI_YATZY, YAHTZEE, YATZY
from games import services as games
from groups import services as groups
from groups.models import Group
from history import stats
from history.models import Summary
from lobby.models import Challenge, Player
from tests.clients import client_for, online
from tests.factories import VISITOR, play_out

pytestmark = pytest.mark.django_db

ES = {"Accept-Language": "es"}


def solo(rules, visitor: str = VISITOR):
    return play_out(games.start_solo_game(visitor, rules=rules))


def test_my_games_shows_the_last_games_stats_and_the_others_on_asking():
    yatzy, yahtzee = solo(YATZY), solo(YAHTZEE)
    totals = {game.rules: game.ordered_seats()[0].card().total for game in (yahtzee, yatzy)}
    client = client_for()
    page = client.get("/me/games/").text  # Yahtzee's, the game played last
    assert '<a href="?game=official#stats" aria-current="page">Yahtzee</a>' in page
    assert '<a href="?game=yatzy#stats">Yatzy</a>' in page
    assert "Solo stats · Yahtzee</h2>" in page  # named: the player has played another
    assert stats.stats(VISITOR, "solo").games == 1
    assert stats.stats(VISITOR, "solo").best == totals[YAHTZEE]
    asked = client.get("/me/games/?game=yatzy").text
    assert "Solo stats · Yatzy</h2>" in asked
    assert "<dt>Yatzy per game</dt>" in asked and "<dt>Yahtzees per game</dt>" in page
    assert '<a href="?game=yatzy#stats" aria-current="page">Yatzy</a>' in asked
    assert stats.stats(VISITOR, "solo", "yatzy").best == totals[YATZY]
    assert "Solo · Yatzy" in page  # the list names the game of each row
    spanish = client.get("/me/games/?game=yatzy", headers=ES).text
    assert "Estadísticas en solitario · Yatzy</h2>" in spanish
    assert "<dt>Yatzy por partida</dt>" in spanish


def test_only_yahtzee_offers_no_choice():
    solo(YAHTZEE)
    page = client_for().get("/me/games/").text
    assert "stats-games" not in page and "Solo stats</h2>" in page  # no other game: not named


def test_my_games_opens_on_the_game_played_last():
    """A browser whose games were Yatzy was shown Yahtzee's empty stats ("No solo game played
    to the end yet") under its Yatzy game (a first-time player's walk)."""
    solo(YAHTZEE)
    solo(YATZY)
    page = client_for().get("/me/games/").text
    assert '<a href="?game=yatzy#stats" aria-current="page">Yatzy</a>' in page
    assert "Solo stats · Yatzy</h2>" in page and "Over 1 game played to the end." in page
    assert "Solo stats · Yahtzee</h2>" in client_for().get("/me/games/?game=official").text


@pytest.mark.parametrize("path", ["/me/games/", "profile"])
def test_an_unknown_game_is_refused_in_both_languages(path):
    online(VISITOR, "Ana")
    if path == "profile":
        path = f"/p/{Player.objects.get().pk}/"
    client = client_for()
    answer = client.get(path + "?game=chess")
    assert answer.status_code == 400
    assert "Choose a game from the list: “chess” is not one of them." in answer.text
    answer = client.get(path + "?game=chess", headers=ES)
    assert answer.status_code == 400
    assert "Elige un juego de la lista: «chess» no es uno de ellos." in answer.text


def test_a_profile_shows_each_games_stats_apart():
    online(VISITOR, "Ana")
    solo(YAHTZEE)
    solo(YATZY)
    solo(YATZY)
    url = f"/p/{Player.objects.get().pk}/"
    page = client_for("someone else").get(url).text
    assert '<a href="?game=yatzy#stats">Yatzy</a>' in page
    yatzy = client_for("someone else").get(url + "?game=yatzy").text
    assert "Solo stats · Yatzy</h2>" in yatzy
    assert "Over 2 games played to the end." in yatzy
    assert "Over 1 game played to the end." in page


def test_a_groups_standings_count_every_games_result_and_average_yahtzee_only():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    ana.post("/groups/new/", {"name": "Friday dice"})
    group = Group.objects.get()
    groups.join_group("bo", group.invite_code)
    played = []
    for variant in ("official", "yatzy"):
        ana.post("/online/challenge/", {"player": Player.objects.get(visitor="bo").pk,
                                        "variant": variant})  # fmt: skip
        challenge = Challenge.objects.get(status="pending")
        bo.post(f"/online/challenge/{challenge.pk}/accept/")
        played.append(play_out(Challenge.objects.get(pk=challenge.pk).game))
    ana_yahtzee = Summary.objects.get(game=played[0], visitor="ana")
    assert Summary.objects.get(game=played[1], visitor="ana").rules_key == "yatzy"
    line = next(line for line in groups_standings(group) if line.player.visitor == "ana")
    assert line.games == 2 and line.wins + line.draws + line.losses == 2
    assert line.average == ana_yahtzee.total
    page = ana.get(f"/groups/{group.pk}/").text
    assert "Results count every game; the average, Yahtzee games only." in page
    profile = bo.get(f"/p/{Player.objects.get(visitor='ana').pk}/").text
    assert profile.count('<span class="note">Yatzy</span>') == 1  # its last games name it


def groups_standings(group):
    from groups.standings import standings

    return standings([membership.player for membership in group.memberships.all()])


@pytest.mark.django_db(transaction=True)
def test_the_summaries_from_before_take_their_games_rule_set():
    """history 0002: a summary written before it counts under its game's rule set."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import timezone

    before = [("history", "0001_summaries"), ("games", "0013_rules_key")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Game, Seat = old.get_model("games", "Game"), old.get_model("games", "Seat")
    OldSummary = old.get_model("history", "Summary")
    for key in ("official", "no-multiple"):
        game = Game.objects.create(id=key, mode="solo", rules_key=key)
        seat = Seat.objects.create(game=game, position=0, visitor="ana")
        OldSummary.objects.create(
            seat=seat, game=game, visitor="ana", mode="solo", finished_at=timezone.now(),
            total=200, upper_bonus=False, yahtzees=0, result=1.0,
        )  # fmt: skip
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    kept = dict(Summary.objects.values_list("game_id", "rules_key"))
    assert kept == {"official": "official", "no-multiple": "no-multiple"}


@pytest.mark.usefixtures("maxi_unsolved")
def test_games_the_perfect_player_does_not_know_keep_none_from_being_valued(
    monkeypatch, strategy_tables
):
    """Many unvalued games of a game without a table are passed over: the Yahtzee game behind
    them is valued, and they are not read again on every view."""
    from games import advice
    from history import summaries

    monkeypatch.setattr(advice, "_solve_in_background", lambda *args: None)
    yahtzee = solo(YAHTZEE)
    for _ in range(3):
        solo(MAXI_YATZY)
    assert not advice.is_ready(MAXI_YATZY)
    assert summaries.value_missing(Summary.objects.all(), limit=2) == 1
    assert Summary.objects.get(game=yahtzee).decisions is not None
    assert Summary.objects.filter(rules_key="maxi", decisions__isnull=True).count() == 3
    assert summaries.value_missing(Summary.objects.all(), limit=2) == 0
