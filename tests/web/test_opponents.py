"""Games against the computer and pass-the-phone games, through the views and the service."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from engine.rules import CATEGORIES
from games import advice
from games.models import Game
from tests.clients import client_for, refusal_text, url
from tests.factories import VISITOR, act

pytestmark = pytest.mark.django_db


def start(client: Client, **data) -> Game:
    response = client.post("/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.get(pk=response["Location"].split("/")[2])


def play_to_the_end(game: Game, rng: random.Random) -> None:
    """The person plays random legal moves; the computer answers inside the same requests."""
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return
        act(game, "roll", dice=[rng.randint(1, 6) for _ in range(5)])
        game.refresh_from_db()
        box = rng.choice(sorted(game.state().options()))
        act(game, "score", box=box)


@pytest.mark.parametrize("strength", ["optimal", "to-win", "club", "beginner"])
def test_a_whole_game_against_each_computer(strength, strategy_tables, win_models):
    game = start(client_for(), mode="computer", strength=strength)
    assert [(s.bot, s.visitor) for s in game.ordered_seats()] == [("", VISITOR), (strength, "")]
    play_to_the_end(game, random.Random(7))
    game.refresh_from_db()
    state = game.state()
    assert all(card.is_full for card in state.cards)
    assert game.replayed_state() == state  # the computer's moves are in the log, and legal
    computer_moves = game.actions.filter(seat=1)
    assert computer_moves.filter(kind="score").count() == 13
    assert computer_moves.filter(kind="roll").count() >= 13
    page = client_for().get(f"/game/{game.id}/").text
    totals = [card.total for card in state.cards]
    if totals[0] == totals[1]:
        assert "A tie!" in page
    else:
        names = {
            "optimal": "Computer (perfect)",
            "to-win": "Computer (playing to win)",
            "club": "Computer (club player)",
            "beginner": "Computer (beginner)",
        }
        won = totals[0] > totals[1]
        assert ("You win!" if won else f"Winner: {names[strength]}") in page
        assert "Winner: You" not in page


def test_the_computer_answers_within_the_players_request(strategy_tables):
    game = start(client_for(), mode="computer", strength="optimal")
    client = client_for()
    client.post(url(game, "roll"), {"step": 0, "held": "00000"})
    game.refresh_from_db()
    response = client.post(url(game, "score"), {"step": 1, "box": "chance"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.current_seat == 0
    state = game.state()
    assert state.cards[0].turns_played == 1
    assert state.cards[1].turns_played == 1
    kinds = list(game.actions.filter(seat=1).values_list("kind", flat=True))
    assert kinds[0] == "roll" and kinds[-1] == "score"
    page = client.get(f"/game/{game.id}/").text
    assert "Computer (perfect)" in page


def test_computer_strengths_wait_for_the_table(monkeypatch, tmp_path):
    monkeypatch.setenv("YAHTZEE_STRATEGY_DIR", str(tmp_path))  # no table there
    # The server would have it built in the background (tests/services/test_strategy_tables.py):
    # not here.
    monkeypatch.setattr(advice, "_solve_in_background", lambda *args: None)
    client = client_for()
    page = client.get("/").text
    assert "getting ready" in page
    # The strength offered first is one that can play now.
    checked = re.findall(r'<input type="radio" name="strength" value="(\w+)" checked>', page)
    assert checked == ["beginner"]
    refused = client.post("/new/", {"mode": "computer", "strength": "optimal"})
    assert refused.status_code == 409
    assert "still getting ready" in refused.content.decode()
    assert not Game.objects.exists()
    game = start(client, mode="computer", strength="beginner")
    play_to_the_end(game, random.Random(3))
    assert game.replayed_state().finished


def test_unknown_strength_is_refused():
    response = client_for().post("/new/", {"mode": "computer", "strength": "godlike"})
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_pass_the_phone_for_three():
    client = client_for()
    game = start(client, mode="local", name_1="Ana", name_2=" Bo  ", name_4="Cy")
    assert [s.name for s in game.ordered_seats()] == ["Ana", "Bo", "Cy"]
    page = client.get(f"/game/{game.id}/").text
    assert "Ana, your turn" in page
    for name in ["Ana", "Bo", "Cy"]:
        # Each name heads its column (in a span that shortens it: see site.css).
        assert f'"name">{name}</span></th>' in page or f"▶&nbsp;</span>{name}</span></th>" in page
    for expected_next in ["Bo", "Cy", "Ana"]:
        game.refresh_from_db()
        client.post(url(game, "roll"), {"step": game.step, "held": "00000"})
        client.post(url(game, "score"), {"step": game.step + 1, "box": "chance"})
        assert f"{expected_next}, your turn" in client.get(f"/game/{game.id}/").text
    game.refresh_from_db()
    assert [card.turns_played for card in game.state().cards] == [1, 1, 1]
    # Around one phone each move keeps its player's name ("You" would be anyone holding it).
    client.post(url(game, "roll"), {"step": game.step, "held": "00000"})
    assert re.search(r"Ana rolled \d \d \d \d \d\.", client.get(f"/game/{game.id}/").text)


def test_against_the_computer_the_players_own_moves_say_you(strategy_tables):
    client = client_for()
    game = start(client, mode="computer", strength="beginner")
    client.post(url(game, "roll"), {"step": 0, "held": "00000"})
    assert re.search(
        r"You rolled \d \d \d \d \d\. 2 rolls left\.", client.get(f"/game/{game.id}/").text
    )
    client.post(url(game, "score"), {"step": 1, "box": "chance"})
    page = client.get(f"/game/{game.id}/").text
    # its moves since yours
    assert "Computer (beginner) rolled" in page and "You scored" not in page


def test_pass_the_phone_with_a_computer_seat(strategy_tables):
    client = client_for()
    game = start(client, mode="local", name_1="Ana", kind_2="beginner", name_3="Bo")
    seats = game.ordered_seats()
    assert [(s.name, s.bot) for s in seats] == [("Ana", ""), ("", "beginner"), ("Bo", "")]
    client.post(url(game, "roll"), {"step": 0, "held": "00000"})
    client.post(url(game, "score"), {"step": 1, "box": "chance"})
    game.refresh_from_db()
    assert game.current_seat == 2  # the computer played seat 2 in between
    assert [card.turns_played for card in game.state().cards] == [1, 1, 0]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name_1": "Ana"}, "at least two players"),
        ({"name_1": "Ana", "name_2": "ana"}, "different name"),
        ({"name_1": "Ana", "name_2": "x" * 25}, "24 characters at most"),
        ({"name_1": "Ana", "name_2": "Bo\x07"}, "control characters"),
        ({"kind_1": "optimal", "kind_2": "beginner"}, "must be a person"),
        ({"name_1": "Ana", "name_2": "Bo", "kind_3": "robot"}, "Select a valid choice"),
    ],
)
def test_pass_the_phone_names_are_checked(data, message):
    response = client_for().post("/new/", {"mode": "local", **data})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_names_are_shown_as_text():
    client = client_for()
    game = start(client, mode="local", name_1="<b>Ana</b>", name_2="Bo & Co")
    page = client.get(f"/game/{game.id}/").text
    assert "&lt;b&gt;Ana&lt;/b&gt;" in page
    assert "<b>Ana</b>" not in page
    assert "Bo &amp; Co" in page


def test_play_again_keeps_the_seats():
    client = client_for()
    game = start(client, mode="local", name_1="Ana", name_2="Bo")
    response = client.post(f"/game/{game.id}/again/")
    assert response.status_code == 302
    again = Game.objects.exclude(pk=game.pk).get()
    assert [s.name for s in again.ordered_seats()] == ["Ana", "Bo"]
    stranger = client_for("stranger")
    refused = stranger.post(f"/game/{game.id}/again/")
    assert "This game is private" in refusal_text(stranger, refused, 403)  # nor may they see it
    assert Game.objects.count() == 2
    assert len(CATEGORIES) == 13


def test_the_computers_turn_is_played_back_step_by_step(strategy_tables):
    import re

    game = start(client_for(), mode="computer", strength="optimal")
    client = client_for()
    htmx = {"HX-Request": "true"}
    client.post(url(game, "roll"), {"step": 0, "held": "00000"}, headers=htmx)
    response = client.post(url(game, "score"), {"step": 1, "box": "chance"}, headers=htmx)
    game.refresh_from_db()
    computer_moves = game.actions.filter(seat=1).count()
    steps = []
    while next_step := re.search(
        r'hx-get="([^"]+\?at=(\d+))" hx-trigger="load delay:\d+ms"', response.text
    ):
        assert 'id="roll-button"' not in response.text  # nobody can act during the playback
        steps.append(int(next_step.group(2)))
        response = client.get(next_step.group(1).replace("&amp;", "&"), headers=htmx)
        assert response.status_code == 200
    assert steps == list(range(3, 3 + computer_moves))
    assert 'id="roll-button"' in response.text
    told = response.text
    assert "Computer (perfect) scored" in told or "Computer (perfect) rolled" in told
    page = client.get(f"/game/{game.id}/").text  # without JavaScript: the story in words
    assert "Computer (perfect) rolled" in page
    assert re.search(r"Computer \(perfect\) scored \d+ points? in", page)


def test_the_computer_opens_a_pass_the_phone_game_when_it_sits_first():
    client = client_for()
    game = start(client, mode="local", kind_1="beginner", name_2="Ana")
    game.refresh_from_db()
    assert game.current_seat == 1
    assert game.state().cards[0].turns_played == 1
    page = client.get(f"/game/{game.id}/").text
    assert "Ana, your turn" in page and "Computer (beginner) rolled" in page
    assert client.post(url(game, "roll"), {"step": game.step, "held": "00000"}).status_code == 302
