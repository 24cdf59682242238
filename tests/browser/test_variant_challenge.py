"""A challenge in Yatzy between two browsers, in English and in Spanish: the lobby offers the
game, the challenged player sees which game it is, and both play a Yatzy card (15 boxes, one
pair among them) a few moves, each seeing the other's."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.online import LOBBY_WORDS, go_online
from tests.servers import Server

WORDS = {
    "en-GB": {
        "challenge": "Challenge Bo",
        "challenged": "Ana challenges you",
        "accept": "Accept",
        "round": "Round {} of 15",
        "pair": "One pair",
        "pick": "would score",
        "score": r"^Score \d+$",
        "scored": "{} scored",
    },
    "es-ES": {
        "challenge": "Retar a Bo",
        "challenged": "Ana te reta",
        "accept": "Aceptar",
        "round": "Ronda {} de 15",
        "pair": "Pareja",
        "pick": "valdría",
        "score": r"^Anotar \d+$",
        "scored": "{} anota",
    },
}


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def take_turn(me: Page, other: Page, name: str, words: dict) -> None:
    """Roll once, score the first box offered; the other page sees the score."""
    me.locator("#roll-button").click()
    me.get_by_role("link", name=re.compile(words["pick"])).first.click()
    me.get_by_role("button", name=re.compile(words["score"])).click()
    expect(other.locator("#messages")).to_contain_text(words["scored"].format(name))
    expect(me.locator("#roll-button")).to_have_count(0)  # the turn has passed
    cells = "#card th, #card td"
    expect(other.locator(cells)).to_have_text(me.locator(cells).all_text_contents())


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_a_challenge_in_yatzy_is_played_by_two_browsers(browser, server, locale):
    words, lobby = WORDS[locale], LOBBY_WORDS[locale]
    ana = browser.new_context(locale=locale).new_page()
    bo = browser.new_context(locale=locale).new_page()
    go_online(ana, server.url, "Ana", lobby)
    go_online(bo, server.url, "Bo", lobby)
    ana.locator("#challenge-variant").select_option("yatzy")
    ana.get_by_role("button", name=words["challenge"]).click()
    challenge = bo.get_by_role("listitem").filter(has_text=words["challenged"])
    expect(challenge).to_contain_text("· Yatzy")
    challenge.get_by_role("button", name=words["accept"]).click()
    for page in (ana, bo):
        expect(page.get_by_role("heading", name=words["round"].format(1))).to_be_visible()
        expect(page.locator("#card")).to_contain_text(words["pair"])
    for _round in range(2):
        take_turn(ana, bo, "Ana", words)
        take_turn(bo, ana, "Bo", words)
    for page in (ana, bo):
        expect(page.get_by_role("heading", name=words["round"].format(3))).to_be_visible()
