"""A rematch in two browsers against the real server: none is offered to a player who is gone,
the player offered one can decline it, and the offerer sees so at once (with JavaScript) or on
the next load (without). Screenshots go to $SCREENSHOTS_DIR (else the test's tmp dir)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.online import LAPTOP, LOBBY_WORDS, PHONE, go_online
from tests.servers import Server
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en-GB": {
        **LOBBY_WORDS["en-GB"],
        "challenge": "Challenge {}",
        "sent": "Waiting for {} to answer",
        "accept": "Accept",
        "end": "End the game",
        "over": "Game over",
        "here": "Bo: here",
        "gone": "No rematch: {} left the game.",
        "rematch": "Rematch",
        "asked": "Accept the rematch ({} asked)",
        "decline": "Decline",
        "declined": "{} declined the rematch.",
        "you_declined": "You declined the rematch.",
        "waiting": "Rematch asked: waiting for the others to accept.",
    },
    "es-ES": {
        **LOBBY_WORDS["es-ES"],
        "challenge": "Retar a {}",
        "sent": "Esperando la respuesta de {}",
        "accept": "Aceptar",
        "end": "Terminar la partida",
        "over": "Fin de la partida",
        "here": "Bo: aquí",
        "gone": "Sin revancha: {} se ha ido de la partida.",
        "rematch": "Revancha",
        "asked": "Aceptar la revancha (pedida por {})",
        "decline": "Rechazar",
        "declined": "{} ha rechazado la revancha.",
        "you_declined": "Has rechazado la revancha.",
        "waiting": "Revancha pedida: esperando a que los demás acepten.",
    },
}


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path)
    server.env["AWAY_GRACE_SECONDS"] = "2"
    with server:
        yield server


def game_bo_left(browser, base: str, viewport: dict, locale: str, *, bo_js: bool = True):
    """Ana challenges Bo, Bo accepts and closes the game; Ana ends it. Ana's page, Bo's context
    and the game's address."""
    words = WORDS[locale]
    ana = browser.new_context(viewport=viewport, locale=locale).new_page()
    bo_context = browser.new_context(viewport=viewport, locale=locale, java_script_enabled=bo_js)
    bo = bo_context.new_page()
    go_online(ana, base, "Ana", words)
    go_online(bo, base, "Bo", words)
    ana.goto(base + "/online/")  # without JavaScript, Bo's name comes with a reload
    ana.get_by_role("button", name=words["challenge"].format("Bo")).click()
    # Ana's challenge is sent by htmx: the click returns before the server has it. A page without
    # JavaScript (Bo's) sees it only on a load after that, so wait for Ana's page to say it is sent.
    expect(ana.get_by_text(words["sent"].format("Bo"))).to_be_visible()
    bo.goto(base + "/online/")
    bo.get_by_role("button", name=words["accept"], exact=True).click()
    # The accept's answer takes Bo to the game: its address is read once he is there.
    expect(bo).to_have_url(re.compile(r"/game/[\w-]+/$"))
    expect(ana).to_have_url(bo.url)
    if bo_js:  # Bo's page is live (its socket counted) before he closes it
        expect(ana.locator("#status")).to_contain_text(words["here"])
    bo.close()
    end = ana.get_by_role("button", name=words["end"])
    # A seat whose page never opened (Bo without JavaScript) is "joining" for its first 15 s
    # (games.presenters.players.ARRIVING), then away for the grace period: then Ana may end it.
    expect(end).to_be_visible(timeout=30_000)
    end.click()
    expect(ana.get_by_role("heading", name=words["over"])).to_be_visible()
    return ana, bo_context, ana.url


@pytest.mark.parametrize(
    "viewport,locale", [(PHONE, "en-GB"), (LAPTOP, "es-ES")], ids=["phone-en", "laptop-es"]
)
def test_a_rematch_is_offered_only_to_a_player_here_and_can_be_declined(
    browser, server, viewport, locale, tmp_path
):
    words = WORDS[locale]
    shots = Path(os.environ.get("SCREENSHOTS_DIR", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    tag = f"rematch-{locale}-{viewport['width']}"
    ana, bo_context, game_url = game_bo_left(browser, server.url, viewport, locale)

    # Bo has gone: no rematch is offered to him, and Ana's page says why.
    expect(ana.get_by_text(words["gone"].format("Bo"))).to_be_visible()
    expect(ana.get_by_role("button", name=words["rematch"], exact=True)).to_have_count(0)
    ana.screenshot(path=shots / f"{tag}-1-gone.png", full_page=True)

    # Bo opens the game again: the button comes back on Ana's page, live.
    bo = bo_context.new_page()
    bo.goto(game_url)
    ana.get_by_role("button", name=words["rematch"], exact=True).click()
    expect(ana.get_by_text(words["waiting"])).to_be_visible()
    expect(bo.get_by_role("button", name=words["asked"].format("Ana"))).to_be_visible()
    bo.screenshot(path=shots / f"{tag}-2-offered.png", full_page=True)

    # Bo declines: Ana's page says so at once, and neither is offered the rematch again.
    bo.get_by_role("button", name=words["decline"], exact=True).click()
    expect(bo.get_by_text(words["you_declined"])).to_be_visible()
    expect(ana.get_by_text(words["declined"].format("Bo"))).to_be_visible()
    expect(ana.get_by_text(words["waiting"])).to_have_count(0)
    for page in (ana, bo):
        expect(page.get_by_role("button", name=words["rematch"], exact=True)).to_have_count(0)
    ana.screenshot(path=shots / f"{tag}-3-declined.png", full_page=True)
    bo.screenshot(path=shots / f"{tag}-4-bo-declined.png", full_page=True)


def test_a_rematch_declined_reaches_an_offerer_without_javascript(browser, server):
    """Bo plays without JavaScript: he asks by a plain form, Ana declines on her live page, and
    his next load of the game says so."""
    words = WORDS["en-GB"]
    ana, bo_context, game_url = game_bo_left(browser, server.url, LAPTOP, "en-GB", bo_js=False)
    bo = bo_context.new_page()
    bo.goto(game_url)
    rematch = bo.get_by_role("button", name=words["rematch"], exact=True)

    # Ana counts as here once her live page's socket is in again after the game's end (a load
    # between two of its connections read her as gone): without JavaScript, Bo reloads to see.
    def offered() -> bool:
        if rematch.count():
            return True
        bo.reload()
        return False

    wait_until(offered, "Ana's page to count as here", timeout=30, pause=lambda: None)
    rematch.click()
    expect(bo.get_by_text(words["waiting"])).to_be_visible()
    ana.get_by_role("button", name=words["decline"], exact=True).click()
    expect(ana.get_by_text(words["you_declined"])).to_be_visible()
    bo.reload()
    expect(bo.get_by_text(words["declined"].format("Ana"))).to_be_visible()
    expect(bo.get_by_role("button", name=words["rematch"], exact=True)).to_have_count(0)
