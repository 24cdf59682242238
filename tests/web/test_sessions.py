"""The session is the identity: a session key planted in a browser must not share the identity."""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.conf import settings
from django.test import Client

from games.models import Game
from lobby.models import Player, Table
from tests.clients import refusal_text

pytestmark = pytest.mark.django_db

SESSIONS = import_module(settings.SESSION_ENGINE).SessionStore


def session_key(client: Client) -> str:
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def planted(key: str) -> Client:
    """A browser given someone else's session cookie (a link, a shared machine, a subdomain)."""
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client


def started_game(client: Client) -> Game:
    response = client.post("/new/", {"mode": "solo", "multiple_yahtzees": "on"})
    return Game.objects.get(pk=re.search(r"/game/([\w-]+)/", response["Location"])[1])


def test_going_online_gives_the_identity_a_fresh_key():
    attacker = Client()
    game = started_game(attacker)  # the attacker's session now holds an identity...
    key = session_key(attacker)
    victim = planted(key)  # ...which they plant in the victim's browser

    assert victim.post("/online/name/", {"name": "Ana"}).status_code == 302

    assert session_key(victim) != key
    assert SESSIONS(key).get("visitor") is None  # the old key is emptied of the identity
    # The planted key no longer carries the identity that went online...
    assert "Choose a name to go online" in attacker.get("/online/").text
    refused = attacker.post(f"/game/{game.id}/roll/", {"step": 0})
    assert "This game is private" in refusal_text(attacker, refused, 403)  # nor may they see it
    # ...while the player keeps their name and their games.
    assert "You are online as Ana" in victim.get("/online/").text
    assert f"/game/{game.id}/" in victim.get("/").text
    assert victim.post(f"/game/{game.id}/roll/", {"step": 0}).status_code == 302
    assert Player.objects.get().name == "Ana"


def test_choosing_a_name_while_joining_a_table_rotates_the_key_too():
    host = Client()
    host.post("/online/name/", {"name": "Host"})
    host.post("/table/new/")
    code = Table.objects.get().code
    attacker = Client()
    started_game(attacker)
    key = session_key(attacker)
    guest = planted(key)

    assert guest.post(f"/t/{code}/join/", {"name": "Guest"}).status_code == 302

    assert session_key(guest) != key
    assert "Choose a name to go online" in attacker.get("/online/").text
    assert "(you)" in guest.get(f"/t/{code}/").text


def test_a_new_identity_never_takes_a_key_the_browser_was_given():
    store = SESSIONS()
    store["theme"] = "planted"
    store.save()
    browser = planted(store.session_key)

    game = started_game(browser)

    assert session_key(browser) != store.session_key
    assert SESSIONS(store.session_key).get("visitor") is None
    assert browser.post(f"/game/{game.id}/roll/", {"step": 0}).status_code == 302


def test_a_player_keeps_the_key_while_playing():
    """Only taking an identity rotates the key: moves and pages leave it alone."""
    client = Client()
    game = started_game(client)
    key = session_key(client)
    client.post(f"/game/{game.id}/roll/", {"step": 0})
    client.get("/")
    assert session_key(client) == key


def online(client: Client) -> str:
    """What the lobby says of this browser: its name, or that it has none."""
    page = client.get("/online/").text
    return "online as Ana" if "You are online as Ana" in page else "no name"


def test_a_request_sent_with_the_old_key_leaves_the_browser_its_identity():
    """Another tab's playback, sent before the answer that rotated the key came back."""
    browser = Client()
    game = started_game(browser)
    in_flight = planted(session_key(browser))

    browser.post("/online/name/", {"name": "Ana"})
    late = in_flight.get(f"/game/{game.id}/?at=1", headers={"HX-Request": "true"})
    browser.cookies.update(late.cookies)  # the browser takes whatever cookie that answer sets

    # The old key is nobody now: the solo game is private to it (Game.open_to), and the late
    # answer says so without touching the browser's cookie.
    assert late.status_code == 403
    assert settings.SESSION_COOKIE_NAME not in late.cookies
    assert online(browser) == "online as Ana"
    assert f"/game/{game.id}/" in browser.get("/").text


def test_a_second_press_with_the_old_key_does_not_replace_the_identity():
    """Go online pressed twice: the second post carries the key the first one replaced."""
    browser = Client()
    started_game(browser)
    in_flight = planted(session_key(browser))

    browser.post("/online/name/", {"name": "Ana"})
    second = in_flight.post("/online/name/", {"name": "Ana"})
    browser.cookies.update(second.cookies)

    assert second.status_code == 409
    assert "Reload it and try again" in second.text
    assert settings.SESSION_COOKIE_NAME not in second.cookies
    assert online(browser) == "online as Ana"
    assert Player.objects.count() == 1


def test_the_replaced_key_lasts_a_minute_and_holds_no_identity():
    browser = Client()
    started_game(browser)
    key = session_key(browser)
    browser.post("/online/name/", {"name": "Ana"})

    old = SESSIONS(key)
    assert old.get("visitor") is None
    assert 0 < old.get_expiry_age() <= 60
    # Whoever holds it (whoever planted it) cannot take a new identity with it meanwhile.
    assert planted(key).post("/online/name/", {"name": "Mallory"}).status_code == 409
    assert not Player.objects.filter(name="Mallory").exists()


def test_a_new_name_keeps_the_key():
    """Only the first name rotates the key: renaming leaves other tabs' requests alone."""
    browser = Client()
    browser.post("/online/name/", {"name": "Ana"})
    key = session_key(browser)
    assert browser.post("/online/name/", {"name": "Ana Maria"}).status_code == 302
    assert session_key(browser) == key
    assert Player.objects.get().name == "Ana Maria"


def test_a_game_started_with_the_old_key_is_refused_with_its_reason():
    """A home page's Start pressed with a key just replaced (another tab went online): no 500."""
    browser = Client()
    started_game(browser)
    in_flight = planted(session_key(browser))
    browser.post("/online/name/", {"name": "Ana"})  # going online: the key is replaced

    refused = in_flight.post("/new/", {"mode": "solo", "multiple_yahtzees": "on"})

    assert refused.status_code == 409
    assert "Reload it and try again" in refused.text
    assert settings.SESSION_COOKIE_NAME not in refused.cookies
    assert Game.objects.count() == 1  # only the one started before
