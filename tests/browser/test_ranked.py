"""Two people play ranked in two browsers: the wait counts up, leaving works, pairing takes both
pages to one game marked ranked, and its end shows each player's change; on a phone and a
laptop, in English and Spanish. Screenshots go to $SCREENSHOTS_DIR (else the test's tmp dir)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.online import LAPTOP, LOBBY_WORDS, PHONE, go_online
from tests.servers import Server

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en-GB": {
        **LOBBY_WORDS["en-GB"],
        "play": "Play ranked",
        "waiting": "Looking for an opponent…",
        "leave": "Leave the queue",
        "ranked": "Ranked",
        "end": "End the game",
        "over": "Game over",
        "rating": "rating {}",
        "roll": r"^Roll",
        "would": "would score",
        "score": r"^Score \d+$",
    },
    "es-ES": {
        **LOBBY_WORDS["es-ES"],
        "play": "Jugar clasificatoria",
        "waiting": "Buscando rival…",
        "leave": "Salir de la cola",
        "ranked": "Clasificatoria",
        "end": "Terminar la partida",
        "over": "Fin de la partida",
        "rating": "puntuación {}",
        "roll": r"^Tirar",
        "would": "valdría",
        "score": r"^Anotar \d+$",
    },
}


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path)
    server.env["AWAY_GRACE_SECONDS"] = "2"
    with server:
        yield server


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_two_players_queue_land_in_one_ranked_game_and_see_their_change(
    browser, server, viewport, locale, tmp_path
):
    words = WORDS[locale]
    shots = Path(os.environ.get("SCREENSHOTS_DIR", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    tag = f"ranked-{locale}-{viewport['width']}"
    ana_browser = browser.new_context(viewport=viewport, locale=locale)
    bo_browser = browser.new_context(viewport=viewport, locale=locale)
    ana, bo = ana_browser.new_page(), bo_browser.new_page()
    go_online(ana, server.url, "Ana", words)
    go_online(bo, server.url, "Bo", words)

    # Ana waits, the wait counts up; she leaves the queue and comes back.
    ana.screenshot(path=shots / f"{tag}-0-lobby.png", full_page=True)
    ana.get_by_role("button", name=words["play"]).click()
    waiting = ana.locator("#ranked").get_by_role("status")
    expect(waiting).to_contain_text(words["waiting"])
    count = ana.locator("#ranked .countup")
    expect(count).to_have_text(re.compile(r"^0:0[1-9]$"), timeout=3000)
    ana.get_by_role("button", name=words["leave"]).click()
    expect(ana.get_by_role("button", name=words["play"])).to_be_visible()
    expect(ana.locator("#ranked .countup")).to_have_count(0)
    ana.get_by_role("button", name=words["play"]).click()
    expect(count).to_have_text(re.compile(r"^0:0[1-9]$"), timeout=3000)
    ana.screenshot(path=shots / f"{tag}-1-waiting.png", full_page=True)

    # Bo joins: both pages are taken to the same game, marked ranked.
    bo.get_by_role("button", name=words["play"]).click()
    for page in (ana, bo):
        expect(page).to_have_url(re.compile(r"/game/[\w-]+/$"))
        expect(page.locator("#status .ranked-mark")).to_have_text(words["ranked"])
    assert ana.url == bo.url
    game_url = ana.url
    ana.screenshot(path=shots / f"{tag}-2-game.png", full_page=True)

    # Each plays a turn (a game ended before that is not rated: nothing was played).
    roll = re.compile(words["roll"])
    for _seat in range(2):
        mover = whose_turn([ana, bo], roll)
        mover.get_by_role("button", name=roll).click()
        mover.get_by_role("link", name=re.compile(words["would"])).first.click()
        mover.get_by_role("button", name=re.compile(words["score"])).click()
        expect(mover.get_by_role("button", name=roll)).to_have_count(0)

    # Bo goes for good: once his time to come back is up, Ana ends the game and wins it.
    bo.close()
    end = ana.get_by_role("button", name=words["end"])
    expect(end).to_be_visible(timeout=15_000)
    end.click()
    expect(ana.get_by_role("heading", name=words["over"])).to_be_visible()
    ranking = ana.locator(".ranking")
    expect(ranking.locator(".rating-change.up")).to_have_text("+20")
    expect(ranking.locator(".rating-change.down")).to_have_text("-20")
    expect(ranking).to_contain_text(words["rating"].format("1520?"))
    expect(ana.locator("#status .ranked-mark")).to_have_text(words["ranked"])
    ana.screenshot(path=shots / f"{tag}-3-ana-won.png", full_page=True)

    # Bo comes back to the game's page: he sees his own loss.
    bo = bo_browser.new_page()
    bo.goto(game_url)
    expect(bo.locator(".ranking")).to_contain_text(words["rating"].format("1480?"))
    bo.screenshot(path=shots / f"{tag}-4-bo-lost.png", full_page=True)
    ana_browser.close()
    bo_browser.close()


def test_a_whole_ranked_game_rates_both_players(browser, server):
    """Two people play every turn of a ranked game; its end shows both changes, which the
    profiles keep."""
    words = WORDS["en-GB"]
    pages = []
    for name in ("Ana", "Bo"):
        page = browser.new_context(viewport=LAPTOP, locale="en-GB").new_page()
        go_online(page, server.url, name, words)
        page.get_by_role("button", name=words["play"]).click()
        pages.append(page)
    for page in pages:
        expect(page).to_have_url(re.compile(r"/game/[\w-]+/$"))
    for _round in range(13):
        for _seat in range(2):
            mover = whose_turn(pages)
            mover.get_by_role("button", name=ROLL).click()
            mover.get_by_role("link", name=re.compile("would score")).first.click()
            mover.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
            expect(mover.get_by_role("button", name=ROLL)).to_have_count(0)
    changes = []
    for page in pages:
        expect(page.get_by_role("heading", name=words["over"])).to_be_visible()
        changes.append(page.locator(".ranking .rating-change").all_text_contents())
    assert changes[0] == changes[1] and len(changes[0]) == 2  # both pages show both changes
    assert sorted(changes[0]) in (["+20", "-20"], ["±0", "±0"])
    pages[0].goto(server.url + "/me/")
    expect(pages[0].locator(".rating-chart polyline")).to_have_count(1)


ROLL = re.compile(r"^Roll")


def whose_turn(pages: list[Page], roll: re.Pattern = ROLL) -> Page:
    """The page that has a Roll button (the other's comes with the push of the last score)."""
    for _ in range(100):
        for page in pages:
            if page.get_by_role("button", name=roll).count():
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("no page shows a Roll button")
