"""The "new tournament" form offers the game; the tournament's page, the list and the group's
page name it; a game the form does not offer, and a duplicate of a game the perfect player does
not know, are refused over the form in the page's language, nothing made."""

from __future__ import annotations

import re

import pytest

from engine.rulesets import RULE_SETS, YATZY
from games import advice
from groups import services as groups
from groups.models import Group
from lobby.models import Player
from tests.clients import online
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("maxi_unsolved")]

ES = {"HTTP_ACCEPT_LANGUAGE": "es"}


@pytest.fixture(autouse=True)
def no_background_builds(monkeypatch):
    monkeypatch.setattr(advice, "_solve_in_background", lambda *args: None)


def form(**fields) -> dict:
    """What the "new tournament" form posts, as a browser fills it by default."""
    return {
        "name": "Nordic night",
        "format": "arena",
        "variant": "official",
        "group": "",
        "start": "now",
        "minutes": "30",
        "rounds": "5",
        "best_of": "1",
        "turn_seconds": "60",
        "entry_fee": "0",
        "capacity": "32",
        "computer": "",
        "listed": "on",
    } | fields


def test_the_form_offers_the_games_and_a_yatzy_arena_says_so_on_its_page_and_the_list():
    ana = online("ana", "Ana")
    page = ana.get("/tournaments/new/").text
    select = re.search(r'<select name="variant"[^>]*>(.*?)</select>', page, re.S).group(1)
    keys = re.findall(r'<option value="([^"]+)"', select)
    assert keys == [key for key in RULE_SETS if key != "no-multiple"]
    assert ana.post("/tournaments/new/", form(variant="yatzy")).status_code == 302
    made = Tournament.objects.get()
    assert made.rules is YATZY
    assert "Arena · Yatzy" in ana.get(f"/tournament/{made.pk}/").text
    assert "Arena · Yatzy · " in ana.get("/tournaments/").text
    assert "Arena · Yatzy · " in ana.get("/tournaments/", **ES).text
    services.join(made.pk, "ana")
    profile = ana.get(f"/p/{Player.objects.get(visitor='ana').pk}/").text
    assert "Arena · Yatzy · " in profile  # the tournaments played


def test_a_groups_page_names_its_tournaments_game():
    ana = online("ana", "Ana")
    ana.post("/groups/new/", {"name": "Nordics"})
    group = Group.objects.get()
    online("bo", "Bo")
    groups.join_group("bo", group.invite_code)
    ana.post("/tournaments/new/", form(variant="yatzy-in-order", group=group.pk))
    assert "Arena · Yatzy, in order · 0 players" in ana.get(f"/groups/{group.pk}/").text
    spanish = ana.get(f"/groups/{group.pk}/", **ES).text
    assert "Arena · Yatzy, en orden · 0 jugadores" in spanish


@pytest.mark.parametrize(
    ("fields", "english", "spanish"),
    [
        (
            {"variant": "checkers"},
            "Choose a game from the list: “checkers” is not one of them.",
            "Elige un juego de la lista: «checkers» no es uno de ellos.",
        ),
        (
            {"variant": "no-multiple"},
            "Choose a game from the list: “no-multiple” is not one of them.",
            "Elige un juego de la lista: «no-multiple» no es uno de ellos.",
        ),
        (
            {"variant": "maxi", "format": "duplicate"},
            "who cannot play Maxi Yatzy yet: choose another game or format.",
            "que aún no sabe jugar a Maxi Yatzy: elige otro juego u otro formato.",
        ),
        (
            {"variant": "maxi-saved", "computer": "optimal"},
            "The computer plays Maxi Yatzy, saved rolls only as the beginner",
            "La máquina juega a Maxi Yatzy, tiradas guardadas solo como principiante",
        ),
        (
            {"variant": "maxi", "computer": "to-win"},
            "The computer plays Maxi Yatzy only as the beginner: choose the beginner.",
            "La máquina juega a Maxi Yatzy solo como principiante: elige al principiante.",
        ),
        (
            {"variant": "yatzy", "rated": "on"},
            "A rated tournament is played in Yahtzee: choose Yahtzee or unrated.",
            "Un torneo puntuable se juega a Yahtzee: elige Yahtzee o sin puntuar.",
        ),
    ],
)
def test_a_game_a_tournament_cannot_have_is_refused_over_the_form(fields, english, spanish):
    ana = online("ana", "Ana")
    answer = ana.post("/tournaments/new/", form(**fields))
    assert answer.status_code == 400 and english in answer.text
    assert 'value="Nordic night"' in answer.text  # the form as it was filled
    answer = ana.post("/tournaments/new/", form(**fields), **ES)
    assert answer.status_code == 400 and spanish in answer.text
    assert not Tournament.objects.exists()


def test_the_maker_of_a_maxi_arena_is_offered_only_the_computer_that_can_play_it():
    ana = online("ana", "Ana")
    ana.post("/tournaments/new/", form(variant="maxi"))
    page = ana.get(f"/tournament/{Tournament.objects.get().pk}/").text
    select = re.search(r'<select id="strength" name="strength">(.*?)</select>', page, re.S)
    assert re.findall(r'<option value="([^"]+)"', select.group(1)) == ["beginner"]
