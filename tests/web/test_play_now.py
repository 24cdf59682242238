"""Play now's pages (lobby.playnow_views): the home page's button (a name first without a
profile), the waiting page with and without JavaScript, the computer offered after the wait,
stopping; in English and Spanish; every bad input refused with its reason, nothing changed."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from lobby import playnow
from lobby.models import Player, PlayNowEntry
from tests.clients import FORM_POST, HTMX, client_for, online, refusal_text

pytestmark = pytest.mark.django_db


def press(client, **data):
    return client.post("/play-now/press/", data)


def test_the_home_page_asks_a_browser_without_a_profile_for_a_name_first():
    page = client_for("newcomer").get("/").text
    panel = page[page.index('id="play-now"') :]
    assert "Play now" in panel and 'name="name"' in panel[: panel.index("</section>")]
    named = online("ana", "Ana").get("/").text
    panel = named[named.index('id="play-now"') :]
    assert 'name="name"' not in panel[: panel.index("</section>")]
    assert "within 20 seconds" in panel


def test_a_name_and_a_press_make_a_profile_and_wait():
    client = client_for("newcomer")
    response = press(client, name="Newcomer")
    assert response.status_code == 302 and response["Location"] == "/play-now/"
    assert Player.objects.get(visitor="newcomer").name == "Newcomer"
    page = client.get("/play-now/").text
    assert "Looking for someone to play…" in page and 'data-since="' in page
    assert 'ws-connect="/ws/play-now/"' in page
    # Without JavaScript the page reloads itself; the computer is not offered yet.
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in page
    assert re.search(r'id="computer-offer"[^>]*data-after-deadline="[^"]+" hidden', page)
    # The home page leads back to the wait rather than offering to press again.
    home = client.get("/").text
    assert "You are waiting: back to it" in home and 'action="/play-now/press/"' not in home


def test_the_second_press_goes_to_the_game_and_the_first_page_follows():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    assert press(ana)["Location"] == "/play-now/"
    response = press(bo)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/game/{game.id}/"
    # Ana's page (its reload without JavaScript) goes there too.
    response = ana.get("/play-now/")
    assert response.status_code == 302 and response["Location"] == f"/game/{game.id}/"


def test_after_the_wait_the_computer_is_offered_at_every_strength_default_first(settings):
    settings.PLAY_NOW_WAIT_SECONDS = 0
    ana = online("ana", "Ana")
    press(ana)
    page = ana.get("/play-now/").text
    offer = page[page.index('id="computer-offer"') :]
    assert not re.match(r'id="computer-offer"[^>]*hidden', offer)
    assert "Nobody else has pressed Play now in 0 seconds" in offer
    buttons = re.findall(r'<button type="submit" name="strength" value="(\w+)"', offer)
    assert buttons[0] == "optimal" and sorted(buttons) == ["beginner", "club", "optimal"]
    response = ana.post("/play-now/computer/", {"strength": "club"})
    game = Game.objects.get()
    assert response["Location"] == f"/game/{game.id}/"
    assert game.mode == Game.Mode.COMPUTER and game.seats.get(position=1).bot == "club"
    assert playnow.waiting_since("ana") is None


def test_stopping_goes_home():
    ana = online("ana", "Ana")
    press(ana)
    response = ana.post("/play-now/cancel/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert PlayNowEntry.objects.count() == 0
    page = ana.get("/play-now/").text  # not waiting: the page offers to press
    assert "You are not waiting" in page and 'action="/play-now/press/"' in page
    assert "ws-connect" not in page and "refresh" not in page


def test_the_waiting_page_in_spanish():
    ana = online("ana", "Ana")
    ana.cookies["django_language"] = "es"
    assert "Jugar ya" in ana.get("/").text
    press(ana)
    page = ana.get("/play-now/").text
    assert "Buscando a alguien con quien jugar…" in page and "Dejar de esperar" in page
    assert "Nadie todavía: ¿juegas contra la máquina?" in page
    response = ana.post("/play-now/press/")
    assert response.status_code == 409
    assert "Ya estás esperando a alguien con quien jugar." in response.text


# Bad input: each refused with its reason on the waiting page, nothing changed.


@pytest.mark.parametrize("headers", [{}, HTMX, FORM_POST], ids=["script", "htmx", "form"])
def test_pressing_twice_is_refused(headers):
    ana = online("ana", "Ana")
    press(ana)
    since = playnow.waiting_since("ana")
    response = ana.post("/play-now/press/", headers=headers)
    page = refusal_text(ana, response, 409)
    assert "You are already waiting for someone to play." in page
    assert "Looking for someone to play…" in page  # still waiting, as before
    assert playnow.waiting_since("ana") == since


@pytest.mark.parametrize("headers", [{}, FORM_POST], ids=["script", "form"])
def test_pressing_in_a_game_is_refused(headers):
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    press(ana), press(bo)
    game = Game.objects.get()
    response = ana.post("/play-now/press/", headers=headers)
    page = refusal_text(ana, response, 403)
    assert "You are in a game: finish it first." in page
    assert f'href="/game/{game.id}/"' in page  # its link
    assert Game.objects.count() == 1 and playnow.waiting_since("ana") is None


def test_a_press_without_a_name_or_with_a_taken_one_is_refused():
    online("ana", "Ana")
    client = client_for("newcomer")
    page = refusal_text(client, client.post("/play-now/press/"), 403)
    assert "Choose a name first." in page
    page = refusal_text(client, press(client, name="Ana"), 400)
    assert "taken" in page
    assert not Player.objects.filter(visitor="newcomer").exists()
    assert PlayNowEntry.objects.count() == 0


def test_stopping_when_not_waiting_is_refused():
    ana = online("ana", "Ana")
    page = refusal_text(ana, ana.post("/play-now/cancel/", headers=FORM_POST), 409)
    assert "You are not waiting for a game." in page


def test_a_strength_not_offered_is_refused_and_the_wait_goes_on():
    ana = online("ana", "Ana")
    press(ana)
    for strength in ("", "grandmaster"):
        response = ana.post("/play-now/computer/", {"strength": strength})
        assert response.status_code == 400
        assert "Choose one of the computer&#x27;s strengths." in response.text
    assert Game.objects.count() == 0 and playnow.waiting_since("ana") is not None


def test_the_computer_is_refused_once_paired():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    press(ana), press(bo)
    response = ana.post("/play-now/computer/", {"strength": "beginner"}, headers=FORM_POST)
    page = refusal_text(ana, response, 409)
    assert "your game with them has started" in page
    assert Game.objects.count() == 1


@pytest.mark.parametrize("path", ["/play-now/press/", "/play-now/cancel/", "/play-now/computer/"])
def test_the_actions_take_a_post(path):
    assert online("ana", "Ana").get(path).status_code == 405
