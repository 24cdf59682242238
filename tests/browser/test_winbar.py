"""A whole game against the computer that plays to win, watching the win-probability bar move,
in English on a phone and in Spanish on a laptop; screenshots for a person to look at."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from games.models import Game
from tests.browser.online import start_online_game, wait_until
from tests.servers import Server

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(os.environ.get("WINBAR_SHOTS", "/tmp/shots-winbar"))
WORDS = {
    "en": {
        "strength": "Computer playing to win",
        "play": "Play the computer",
        "roll": "Roll",
        "roll_button": r"^Roll",
        "again": "Roll again (2 left)",
        "round": "Round {n} of 13",
        "would": "would score",
        "score": r"^Score \d+$",
        "over": "Game over",
        "title": "Chance to win:",
        "share": re.compile(r"(\d+)\s?%"),
    },
    "es": {
        "strength": "Máquina que juega a ganar",
        "play": "Jugar contra la máquina",
        "roll": "Tirar",
        "roll_button": r"^(Tirar|Volver a tirar)",
        "again": "Volver a tirar (quedan 2)",
        "round": "Ronda {n} de 13",
        "would": "valdría",
        "score": r"^Anotar \d+$",
        "over": "Fin de la partida",
        "title": "Probabilidad de ganar:",
        "share": re.compile(r"(\d+)\s?%"),
    },
}
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}


@pytest.fixture(autouse=True)
def _fast_playback(settings):
    settings.PLAYBACK_SPEED = 4


def shares(page: Page, words: dict) -> tuple[int, int]:
    """The two percents the bar says, first seat first."""
    text = page.locator("#winbar .winbar-text").inner_text()
    assert text.startswith(words["title"])
    first, second = (int(n) for n in words["share"].findall(text))
    return first, second


@pytest.mark.parametrize(("language", "size"), [("en", "phone"), ("es", "laptop")])
def test_a_game_against_the_computer_playing_to_win_with_the_bar(
    browser: Browser, base, language, size, win_models
):
    words = WORDS[language]
    context = browser.new_context(viewport=SIZES[size], locale=language)
    page = context.new_page()
    page.goto(base + "/")
    SHOTS.mkdir(parents=True, exist_ok=True)
    strength = page.get_by_role("radio", name=re.compile(words["strength"]))
    strength.check()
    strength.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"home-{language}-{size}.png")
    page.get_by_role("button", name=words["play"]).click()
    roll = page.get_by_role("button", name=re.compile(words["roll_button"]))
    seen = []
    for turn in range(13):
        expect(page.get_by_role("heading", name=words["round"].format(n=turn + 1))).to_be_visible()
        expect(roll).to_have_text(words["roll"], timeout=20_000)  # the computer's turn is over
        seen.append(shares(page, words))
        roll.click()
        expect(roll).to_have_text(words["again"])
        seen.append(shares(page, words))
        if turn in (0, 6):
            page.screenshot(path=SHOTS / f"game-{language}-{size}-round{turn + 1}.png")
        page.get_by_role("link", name=re.compile(words["would"])).first.click()
        page.get_by_role("button", name=re.compile(words["score"])).click()
    expect(page.get_by_role("heading", name=words["over"])).to_be_visible(timeout=20_000)
    page.screenshot(path=SHOTS / f"game-{language}-{size}-over.png")
    assert all(first + second == 100 for first, second in seen)
    assert len(set(seen)) > 5  # it moved with the rolls and the scores
    game = Game.objects.get()
    assert game.ordered_seats()[1].bot == "to-win"
    # The replay and the analysis show them too, once it is over.
    page.goto(base + f"/game/{game.id}/replay/?at=3")
    assert sum(shares(page, words)) == 100
    page.screenshot(path=SHOTS / f"replay-{language}-{size}.png", full_page=True)
    page.goto(base + f"/game/{game.id}/analysis/")
    expect(page.locator("svg.win-chart")).to_be_visible()
    page.screenshot(path=SHOTS / f"analysis-{language}-{size}.png", full_page=True)
    context.close()


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def test_a_watcher_sees_the_bar_move_live(browser: Browser, server, win_models):
    """Ana and Bo play online; a watcher's page, never reloaded once the bar is there, is
    pushed each roll's and score's chances (the players themselves go without)."""
    base = server.url
    ana = browser.new_context(viewport=SIZES["laptop"]).new_page()
    bo = browser.new_context(viewport=SIZES["phone"]).new_page()
    start_online_game(ana, bo, base)
    watcher = browser.new_context(viewport=SIZES["phone"]).new_page()
    watcher.goto(ana.url)
    bar = watcher.locator("#winbar .winbar-text")

    def shown() -> bool:  # the server loads its model on a thread when first asked
        if bar.count():
            return True
        watcher.reload()
        return False

    wait_until(watcher, shown, "the watcher's bar", timeout=60)
    expect(ana.locator("#winbar .winbar-text")).to_have_count(0)
    seen, rolls = {bar.inner_text()}, []
    for _ in range(2):
        for me, name, other in ((ana, "Ana", "Bo"), (bo, "Bo", "Ana")):
            before = bar.inner_text()
            me.get_by_role("button", name=re.compile(r"^Roll")).click()
            expect(me.get_by_role("button", name="Roll again (2 left)")).to_be_visible()
            dice = re.findall(r"You rolled ([\d ]+)\.", me.locator("#messages").inner_text())[-1]
            expect(watcher.locator("#messages")).to_contain_text(f"{name} rolled {dice}.")
            rolls.append((before, bar.inner_text()))  # pushed with the roll, alone
            me.get_by_role("link", name=re.compile("would score")).first.click()
            me.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
            expect(me.locator(".whose-turn")).to_contain_text(f"{other} is playing")
            what = re.findall(r"You scored ([^.]+)\.", me.locator("#messages").inner_text())[-1]
            expect(watcher.locator("#messages")).to_contain_text(f"{name} scored {what}.")
            seen |= {rolls[-1][1], bar.inner_text()}
    assert any(before != after for before, after in rolls) and len(seen) > 2
    assert all(sum(map(int, re.findall(r"(\d+)\s?%", text))) == 100 for text in seen)
    watcher.screenshot(path=SHOTS / "watcher-live-en-phone.png")
