"""Play now in real browsers: two people without profiles press it on the home page (a name
first) within a few seconds and both land in the same game; one alone is offered the computer
after the wait and takes it in one tap; one who closed the waiting page is not paired. On a
phone and a laptop, in English and Spanish. Screenshots go to $SCREENSHOTS_DIR (else the test's
tmp dir)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.online import LAPTOP, LOBBY_WORDS, PHONE, go_online, wait_until
from tests.servers import Server

pytestmark = pytest.mark.django_db(transaction=True)

WAIT_SECONDS = 3  # the server's PLAY_NOW_WAIT_SECONDS: the computer is offered after 3 s
GAME_URL = re.compile(r"/game/[\w-]+/$")
WORDS = {
    "en-GB": {
        **LOBBY_WORDS["en-GB"],
        "play now": "Play now",
        "waiting": "Looking for someone to play…",
        "offer": "Nobody yet: play the computer?",
        "round": "Round 1 of 13",
        "stop": "Stop waiting",
        "back": "You are waiting: back to it",
    },
    "es-ES": {
        **LOBBY_WORDS["es-ES"],
        "play now": "Jugar ya",
        "waiting": "Buscando a alguien con quien jugar…",
        "offer": "Nadie todavía: ¿juegas contra la máquina?",
        "round": "Ronda 1 de 13",
        "stop": "Dejar de esperar",
        "back": "Estás esperando: vuelve a la espera",
    },
}


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path)
    server.env["PLAY_NOW_WAIT_SECONDS"] = str(WAIT_SECONDS)
    with server:
        yield server


def press_play_now(page: Page, base: str, name: str | None, words: dict) -> None:
    """On the home page: a name first if this browser has no profile, then Play now."""
    page.goto(base + "/")
    panel = page.locator("#play-now")
    if name:
        panel.get_by_label(words["name"]).fill(name)
    panel.get_by_role("button", name=words["play now"]).click()


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_two_presses_a_few_seconds_apart_land_in_one_game(
    browser, server, viewport, locale, tmp_path
):
    words = WORDS[locale]
    shots = Path(os.environ.get("SCREENSHOTS_DIR", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    tag = f"playnow-{locale}-{viewport['width']}"
    ana = browser.new_context(viewport=viewport, locale=locale).new_page()
    bo = browser.new_context(viewport=viewport, locale=locale).new_page()

    ana.goto(server.url + "/")
    ana.locator("#play-now").screenshot(path=shots / f"{tag}-0-home-panel.png")
    ana.screenshot(path=shots / f"{tag}-0-home.png", full_page=True)
    press_play_now(ana, server.url, "Ana", words)
    expect(ana.get_by_role("heading", name=words["waiting"])).to_be_visible()
    expect(ana.locator(".countup")).to_have_text(re.compile(r"^0:0[1-9]$"))
    offer = ana.get_by_role("heading", name=words["offer"])
    expect(offer).to_be_hidden()
    ana.screenshot(path=shots / f"{tag}-1-waiting.png", full_page=True)
    # Her home page, in another tab, leads back to the wait instead of a second press.
    home = ana.context.new_page()
    home.goto(server.url + "/")
    expect(home.get_by_role("link", name=words["back"])).to_be_visible()
    home.locator("#play-now").screenshot(path=shots / f"{tag}-1-home-waiting.png")
    home.close()
    # After the wait the computer is offered, on the page as it is (no reload): Ana waits on.
    expect(offer).to_be_visible(timeout=WAIT_SECONDS * 1000 + 5000)
    ana.screenshot(path=shots / f"{tag}-2-offer.png", full_page=True)

    # Bo presses: both pages go to the same game, Ana's by itself.
    press_play_now(bo, server.url, "Bo", words)
    for page in (ana, bo):
        expect(page).to_have_url(GAME_URL)
        expect(page.get_by_role("heading", name=words["round"])).to_be_visible()
    assert ana.url == bo.url
    expect(ana.locator("#status .ranked-mark")).to_have_count(0)  # not rated
    ana.screenshot(path=shots / f"{tag}-3-game.png", full_page=True)


def test_alone_the_computer_is_offered_and_one_tap_plays_it(browser, server):
    words = WORDS["en-GB"]
    page = browser.new_context(viewport=LAPTOP, locale="en-GB").new_page()
    go_online(page, server.url, "Ana", words)
    press_play_now(page, server.url, None, words)  # a profile: no name asked
    # Stopping goes home, where Play now is offered again.
    page.get_by_role("button", name=words["stop"]).click()
    expect(page.locator("#play-now").get_by_role("button", name=words["play now"])).to_be_visible()
    press_play_now(page, server.url, None, words)
    expect(page.get_by_role("heading", name=words["offer"])).to_be_visible(timeout=8000)
    page.get_by_role("button", name="Play: Perfect computer").click()
    expect(page).to_have_url(GAME_URL)
    expect(page.get_by_text("Computer (perfect)").first).to_be_visible()


def test_who_closed_the_waiting_page_is_not_paired(browser, server):
    words = WORDS["en-GB"]
    ana = browser.new_context(viewport=LAPTOP, locale="en-GB").new_page()
    bo = browser.new_context(viewport=LAPTOP, locale="en-GB").new_page()
    go_online(bo, server.url, "Bo", words)
    # When Ana's waiting page's socket is open (the handshake answered), it speaks for her.
    devtools = ana.context.new_cdp_session(ana)
    devtools.send("Network.enable")
    opened = []
    devtools.on("Network.webSocketHandshakeResponseReceived", lambda event: opened.append(event))
    press_play_now(ana, server.url, "Ana", words)
    expect(ana.get_by_role("heading", name=words["waiting"])).to_be_visible()
    online = bo.locator("#online")
    expect(online).to_contain_text("Ana")  # pressing took her online...
    wait_until(ana, lambda: opened, "Ana's waiting page's socket")
    ana.close()
    expect(online).not_to_contain_text("Ana")  # ...closed, she is gone at once
    press_play_now(bo, server.url, None, words)
    expect(bo.get_by_role("heading", name=words["waiting"])).to_be_visible()
    expect(bo.locator(".countup")).to_have_text(re.compile(r"^0:0[3-9]$"))  # still waiting
    assert not GAME_URL.search(bo.url)


def test_without_javascript_the_waiting_page_reloads_into_the_game(browser, server):
    words = WORDS["en-GB"]
    context = browser.new_context(viewport=PHONE, locale="en-GB", java_script_enabled=False)
    ana = context.new_page()
    bo = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    press_play_now(ana, server.url, "Ana", words)
    expect(ana.get_by_role("heading", name=words["waiting"])).to_be_visible()
    press_play_now(bo, server.url, "Bo", words)  # Ana's press and reloads keep her here
    expect(bo).to_have_url(GAME_URL)
    expect(ana).to_have_url(bo.url)  # her page's next reload (every 5 s) goes there
    expect(ana.get_by_role("heading", name=words["round"])).to_be_visible()
