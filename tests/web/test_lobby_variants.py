"""Challenges, private tables and a group's tables in a variant: the forms offer every game but
"multiple Yahtzees off", the lobby and the table's page name it, the game is made with it, its
rematch keeps it; an unknown variant, "multiple Yahtzees off" and a diamond match in another game
than Yahtzee are refused in the page's language, nothing changed. Ranked and diamond matches say
that they are Yahtzee."""

from __future__ import annotations

import re

import pytest

from engine.rulesets import MAXI_YATZY, YAHTZEE, YATZY, YATZY_IN_ORDER
from games.models import Game
from groups import services as groups
from groups.models import Group
from lobby import services
from lobby.models import Challenge, Player, Table
from tests.clients import FORM_POST, client_for, here, online, refusal_text

pytestmark = pytest.mark.django_db

SPANISH = {"Accept-Language": "es"}


def pk(visitor: str) -> int:
    return Player.objects.get(visitor=visitor).pk


def offered(page: str, field_id: str) -> list[str]:
    """The variants a select of the page offers, by key."""
    select = re.search(rf'<select id="{field_id}" name="variant">(.*?)</select>', page, re.S)
    return re.findall(r'<option value="([^"]+)"', select.group(1))


def test_the_lobby_offers_every_game_but_multiple_yahtzees_off_for_challenges_and_tables():
    page = online("ana", "Ana").get("/online/").text
    games = ["official", "official-in-order", "yatzy", "yatzy-in-order", "maxi", "maxi-saved"]
    assert offered(page, "challenge-variant") == games
    assert offered(page, "table-variant") == games
    assert "Ranked games are always Yahtzee" in page
    assert "Diamond matches are always Yahtzee." in page
    spanish = client_for("ana").get("/online/", headers=SPANISH).text
    assert ">Maxi Yatzy, tiradas guardadas</option>" in spanish
    assert "Las partidas clasificatorias son siempre de Yahtzee" in spanish


def test_a_challenge_in_yatzy_is_named_in_the_lobby_and_makes_a_yatzy_game_and_rematch():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    posted = ana.post("/online/challenge/", {"player": pk("bo"), "variant": "yatzy"})
    assert posted.status_code == 302
    assert Challenge.objects.get().rules is YATZY
    assert "Ana challenges you" in bo.get("/online/").text
    assert '<span class="variant-name">· Yatzy</span>' in bo.get("/online/").text
    assert '<span class="variant-name">· Yatzy</span>' in ana.get("/online/").text
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    game = Game.objects.get()
    assert game.rules is YATZY
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    here(game, "ana", "bo")
    services.rematch("ana", game)
    services.rematch("bo", game)
    assert Game.objects.exclude(pk=game.pk).get().rules is YATZY


def test_a_challenge_naming_no_game_is_yahtzee_and_says_nothing_of_it():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    ana.post("/online/challenge/", {"player": pk("bo")})
    assert "variant-name" not in bo.get("/online/").text
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    assert Game.objects.get().rules is YAHTZEE


@pytest.mark.parametrize("path", ["/online/challenge/", "/table/new/"])
@pytest.mark.parametrize(
    ("variant", "english", "spanish"),
    [
        (
            "chess",
            "Choose a game from the list: “chess” is not one of them.",
            "Elige un juego de la lista: «chess» no es uno de ellos.",
        ),
        (
            "no-multiple",
            "Choose a game from the list: “no-multiple” is not one of them.",
            "Elige un juego de la lista: «no-multiple» no es uno de ellos.",
        ),
    ],
)
def test_a_game_not_offered_is_refused_in_both_languages_and_changes_nothing(
    path, variant, english, spanish
):
    ana = online("ana", "Ana")
    online("bo", "Bo")
    post = {"player": pk("bo"), "variant": variant}
    assert english in refusal_text(ana, ana.post(path, post), 400)
    said = refusal_text(ana, ana.post(path, post, headers=FORM_POST | SPANISH), 400)
    assert spanish in said
    assert not Challenge.objects.exists() and not Table.objects.exists()
    assert not Game.objects.exists()


def test_a_diamond_match_in_another_game_is_refused_and_changes_nothing():
    ana = online("ana", "Ana")
    online("bo", "Bo")
    post = {"player": pk("bo"), "variant": "maxi", "stake": 10}
    said = refusal_text(ana, ana.post("/online/challenge/", post), 400)
    assert "A match for diamonds is played in Yahtzee: choose Yahtzee." in said
    spanish = refusal_text(ana, ana.post("/online/challenge/", post, headers=SPANISH), 400)
    assert "Una partida por diamantes se juega a Yahtzee: elige Yahtzee." in spanish
    assert not Challenge.objects.exists()
    assert ana.post("/online/challenge/", post | {"variant": "official"}).status_code == 302


def test_a_table_in_maxi_yatzy_says_so_on_its_page_and_starts_a_maxi_game():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    opened = ana.post("/table/new/", {"variant": "maxi"})
    table = Table.objects.get()
    assert opened["Location"] == f"/t/{table.code}/"
    assert table.rules is MAXI_YATZY
    assert "Game: Maxi Yatzy" in bo.get(f"/t/{table.code}/").text
    assert "Juego: Maxi Yatzy" in bo.get(f"/t/{table.code}/", headers=SPANISH).text
    bo.post(f"/t/{table.code}/join/")
    started = ana.post(f"/t/{table.code}/start/", {"pace": "live", "timer": "off"})
    assert started.status_code == 302
    game = Game.objects.get()
    assert game.rules is MAXI_YATZY and game.seats.count() == 2


def test_a_groups_table_in_yatzy_in_order_is_named_on_the_group_page_and_in_the_lobby():
    ana = online("ana", "Ana")
    online("bo", "Bo")
    ana.post("/groups/new/", {"name": "Friday dice"})
    group = Group.objects.get()
    groups.join_group("bo", group.invite_code)
    page = ana.get(f"/groups/{group.pk}/").text
    assert "yatzy-in-order" in offered(page, "group-table-variant")
    assert ana.post(f"/groups/{group.pk}/table/", {"variant": "yatzy-in-order"}).status_code == 302
    assert Table.objects.get().rules is YATZY_IN_ORDER
    named = '<span class="variant-name">· Yatzy, in order</span>'
    assert named in client_for("bo").get(f"/groups/{group.pk}/").text
    assert named in client_for("bo").get("/online/").text
    refused = ana.post(f"/groups/{group.pk}/table/", {"variant": "go"})
    assert refused.status_code == 400 and Table.objects.count() == 1
