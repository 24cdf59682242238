"""Competitive games cannot be held hostage (issue 29): ranked and diamond matches always have a
turn clock, and every seat of an online game may resign, once, for itself, with a confirmation."""

from __future__ import annotations

import re

import pytest

from games import clock, services, timeouts
from games.models import Action, Game
from lobby import diamonds, ranked
from lobby.models import Challenge, DiamondEntry, Player, QueueEntry, RatingChange, Table
from tests.clients import (
    FORM_POST,
    HTMX,
    client_for,
    here,
    online,
    online_game,
    refusal_text,
)
from tests.factories import at

pytestmark = pytest.mark.django_db


def ranked_match():
    """Ana and Bo, paired by the ranked queue; the game and both clients."""
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    Player.objects.update(online_until=Player.objects.get(visitor="ana").online_until)
    for who in ("ana", "bo"):
        QueueEntry.objects.create(player=Player.objects.get(visitor=who))
    [game] = ranked.pair_waiting()
    return game, ana, bo


def diamond_match(stake: int = 50):
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    ana.post("/online/challenge/", {"player": Player.objects.get(visitor="bo").pk, "stake": stake})
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    return Game.objects.get(), ana, bo


def clients_by_seat(game, ana, bo):
    first = {"ana": ana, "bo": bo}[game.ordered_seats()[0].visitor]
    return (first, bo if first is ana else ana)


# The turn clock, always on.


@pytest.mark.parametrize("match", [ranked_match, diamond_match])
def test_ranked_and_diamond_matches_always_have_a_turn_clock(match):
    game, ana, _bo = match()
    assert game.turn_seconds == clock.COMPETITIVE_TURN_SECONDS == 60
    assert game.turn_deadline is not None
    page = ana.get(f"/game/{game.id}/").text
    assert "Time left for this turn:" in page
    assert re.search(r'class="countdown" data-deadline="[^"]+">(1:00|0:59)<', page)
    spanish = ana.get(f"/game/{game.id}/", headers={"Accept-Language": "es"}).text
    assert "Tiempo que queda de este turno:" in spanish


def test_a_friendly_challenge_keeps_no_clock():
    game, ana, _bo = online_game()
    assert (
        game.turn_seconds is None
        and "Time left for this turn" not in ana.get(f"/game/{game.id}/").text
    )


def test_a_player_who_never_moves_in_a_ranked_match_loses_it_in_three_turns():
    game, _ana, _bo = ranked_match()
    staller = game.ordered_seats()[0].visitor
    while Game.objects.get(pk=game.pk).status == Game.Status.PLAYING:
        with at(game, 61):  # nobody moves: every turn runs out, the sweep plays it
            assert timeouts.sweep() == 1
    game.refresh_from_db()
    assert game.forfeited == [0]  # the first to let three run out lost; the other won
    changes = dict(RatingChange.objects.values_list("player__visitor", "score"))
    assert changes[staller] == 0.0 and sorted(changes.values()) == [0.0, 1.0]


# Resigning.


@pytest.mark.parametrize("path", [FORM_POST, HTMX])
def test_resigning_a_ranked_match_asks_first_then_loses_it_and_rates_it(path):
    game, ana, bo = ranked_match()
    first, second = clients_by_seat(game, ana, bo)
    for step, seat in enumerate(game.ordered_seats()):  # a box each: the game will be rated
        services.perform(game.id, seat.visitor, "roll", {}, 2 * step)
        services.perform(game.id, seat.visitor, "score", {"box": "chance"}, 2 * step + 1)
    assert Game.objects.get(pk=game.pk).log_length == 4
    # Not the current seat: a player may resign whoever's turn it is.
    page = second.get(f"/game/{game.id}/").text
    assert "Resign…" in page and f'action="/game/{game.id}/resign/"' in page
    asked = second.get(f"/game/{game.id}/resign/", {"seat": "1"})
    assert asked.status_code == 200
    first_name = game.ordered_seats()[0].name
    assert "Resign this game?" in asked.text and "It counts as a loss in your rating." in asked.text
    assert f"{first_name} wins, and the game is over." in asked.text
    assert Game.objects.get(pk=game.pk).log_length == 4  # asking changes nothing
    done = second.post(f"/game/{game.id}/resign/", {"seat": "1"}, headers=path)
    assert done.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.forfeited == [1]
    assert list(Action.objects.filter(game=game).values_list("seat", "kind"))[-1] == (1, "resign")
    # Rated once, in the resign's transaction: the resigner lost.
    scores = dict(RatingChange.objects.values_list("player__visitor", "score"))
    assert scores == {game.ordered_seats()[0].visitor: 1.0, game.ordered_seats()[1].visitor: 0.0}
    seen = first.get(f"/game/{game.id}/").text
    assert "You win!" in seen and f"{game.ordered_seats()[1].name} resigned." in seen
    assert "You resigned." in second.get(f"/game/{game.id}/").text


def test_resigning_a_diamond_match_pays_the_pot_to_the_other_once():
    game, ana, bo = diamond_match(50)
    assert diamonds.pot(game) == 100
    page = ana.get(f"/game/{game.id}/resign/").text
    assert "The pot of 100 diamonds goes to Bo." in page
    position = game.seat_of("ana").position
    assert ana.post(f"/game/{game.id}/resign/", {"seat": position}).status_code == 302
    again = ana.post(f"/game/{game.id}/resign/", {"seat": position}, headers=HTMX)
    assert again.status_code == 409 and "The game is over." in again.text
    game.refresh_from_db()
    assert diamonds.pot(game) == 0
    assert dict(Player.objects.values_list("visitor", "diamonds")) == {"ana": 450, "bo": 550}
    assert DiamondEntry.objects.filter(game=game, reason="winnings").count() == 1
    assert diamonds.audit().problems == []
    assert "You take the pot: 100 diamonds." in bo.get(f"/game/{game.id}/").text
    spanish = ana.get(f"/game/{game.id}/", headers={"Accept-Language": "es"}).text
    assert "Te has rendido." in spanish


def test_in_a_game_of_three_the_others_play_on_after_a_resignation():
    ana, bo, cy = online("ana", "Ana"), online("bo", "Bo"), online("cy", "Cy")
    ana.post("/table/new/")
    code = Table.objects.get().code
    for guest in (bo, cy):
        guest.post(f"/t/{code}/join/")
    ana.post(f"/t/{code}/start/")
    game = Game.objects.get()
    assert "The others play on without you." in bo.get(f"/game/{game.id}/resign/").text
    assert bo.post(f"/game/{game.id}/resign/", {"seat": "1"}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.forfeited == [1]
    twice = bo.post(f"/game/{game.id}/resign/", {"seat": "1"}, headers=HTMX)
    assert twice.status_code == 409 and "You have already left this game." in twice.text
    assert "Resign…" not in bo.get(f"/game/{game.id}/").text
    assert Game.objects.get(pk=game.pk).log_length == 1


@pytest.mark.parametrize("path", [FORM_POST, HTMX])
@pytest.mark.parametrize(
    ("who", "seat", "status", "message"),
    [
        ("stranger", "0", 403, "This game is not yours"),
        ("ana", "x", 400, "Say which seat resigns: yours."),
        ("ana", "", 400, "Say which seat resigns: yours."),
        ("other", "theirs", 403, "You can resign only your own seat."),
        ("ana", "7", 403, "You can resign only your own seat."),
    ],
)
def test_bad_resignations_are_refused_and_change_nothing(who, seat, status, message, path):
    game, ana, bo = online_game()
    clients = {"ana": ana, "other": ana, "stranger": client_for("stranger")}
    if seat == "theirs":
        seat = str(game.seat_of("bo").position)
    before = (Game.objects.get(pk=game.pk).log_length, game.forfeited)
    response = clients[who].post(f"/game/{game.id}/resign/", {"seat": seat}, headers=path)
    assert message in refusal_text(clients[who], response, status)
    game.refresh_from_db()
    assert (game.log_length, game.forfeited, game.status) == (*before, Game.Status.PLAYING)


def test_a_game_not_online_or_not_there_cannot_be_resigned():
    player = client_for("solo")
    player.post("/new/", {"mode": "solo"})
    solo = Game.objects.get()
    refused = player.post(f"/game/{solo.id}/resign/", {"seat": "0"}, headers=HTMX)
    assert refused.status_code == 400 and "Only an online game can be resigned." in refused.text
    assert player.get(f"/game/{solo.id}/resign/").status_code == 400
    assert "Resign" not in player.get(f"/game/{solo.id}/").text
    assert player.post("/game/nosuchgame/resign/", {"seat": "0"}).status_code == 404
    assert player.get("/game/nosuchgame/resign/").status_code == 404
    assert Action.objects.count() == 0


def test_a_watcher_and_a_finished_game_are_not_offered_resign(settings):
    game, ana, bo = online_game()
    watcher = client_for("watcher")
    assert "Resign…" not in watcher.get(f"/game/{game.id}/").text
    assert watcher.get(f"/game/{game.id}/resign/").status_code == 403
    ana.post(f"/game/{game.id}/resign/", {"seat": game.seat_of("ana").position})
    assert "Resign…" not in bo.get(f"/game/{game.id}/").text
    late = bo.get(f"/game/{game.id}/resign/", headers=FORM_POST)
    assert late.status_code == 303  # a link followed: the game page says why, once
    assert "The game is over." in bo.get(late["Location"]).text


def test_resigning_a_ranked_match_before_anyone_scored_is_rated_all_the_same():
    """A game left before each player scored is not rated (nothing was played); a resignation
    is: else resigning at once would undo any pairing a player disliked, at no cost."""
    game, ana, bo = ranked_match()
    first, second = clients_by_seat(game, ana, bo)
    asked = second.get(f"/game/{game.id}/resign/", {"seat": "1"}).text
    assert "It counts as a loss in your rating." in asked
    second.post(f"/game/{game.id}/resign/", {"seat": "1"})
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    scores = dict(RatingChange.objects.values_list("player__visitor", "score"))
    assert scores == {game.ordered_seats()[0].visitor: 1.0, game.ordered_seats()[1].visitor: 0.0}
    assert "Not rated" not in first.get(f"/game/{game.id}/").text


def test_the_rematch_of_a_diamond_match_keeps_no_competitive_clock():
    """Review of issue 29: the rematch copied the match's 60 s clock into a friendly game."""
    game, ana, bo = diamond_match(50)
    ana.post(f"/game/{game.id}/resign/", {"seat": game.seat_of("ana").position})
    here(game, "ana", "bo")  # both pages open on the finished game
    assert ana.post(f"/game/{game.id}/rematch/").status_code == 302
    assert bo.post(f"/game/{game.id}/rematch/").status_code == 302
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert rematch.turn_seconds is None and rematch.turn_deadline is None
    assert not rematch.stake and not rematch.ranked
