"""Your turn: a tab the player is not looking at says so in its title, its icon, and (once turned
on) a notification."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.online import start_online_game
from tests.servers import Server

# The page is "hidden" (another tab in front) as far as its scripts can tell: headless Chromium
# shows every page, so the test says so the way the browser would, by the property and its event.
HIDE = (
    "(hidden) => { Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});"
    " document.dispatchEvent(new Event('visibilitychange')); }"
)
# Notifications the page shows, recorded (the real ones are shown too).
RECORD_NOTIFICATIONS = """
window.shown = [];
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) { super(title, options); window.shown.push([title, options.body]); }
};
"""


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def test_a_hidden_tab_says_when_it_becomes_your_turn(browser, server):
    ana = browser.new_context().new_page()
    bo_context = browser.new_context()
    bo_context.grant_permissions(["notifications"], origin=server.url)
    bo_context.add_init_script(RECORD_NOTIFICATIONS)
    bo = bo_context.new_page()
    start_online_game(ana, bo, server.url)
    bo.get_by_label("a notification").check()
    expect(bo.get_by_label("a notification")).to_be_checked()
    bo.evaluate(HIDE, True)
    title = bo.title()
    play_a_turn(ana)
    expect(bo).to_have_title("(Your turn) " + title)
    assert "die-turn.svg" in bo.locator('link[rel="icon"]').get_attribute("href")
    assert bo.evaluate("window.shown") == [["(Your turn)", "It is your turn in Yahtzee."]]
    # Looking at the tab again: back to the plain title and icon.
    bo.evaluate(HIDE, False)
    expect(bo).to_have_title(title)
    assert "die.svg" in bo.locator('link[rel="icon"]').get_attribute("href")
    # A tab in front is not told: the player sees the game.
    play_a_turn(bo)
    expect(ana.get_by_role("button", name="Roll", exact=True)).to_be_visible()  # Ana's turn now
    expect(ana).to_have_title(re.compile(r"^Round"))
    assert ana.evaluate("document.documentElement.dataset.turnSignalled") is None


def play_a_turn(page: Page) -> None:
    page.get_by_role("button", name="Roll", exact=True).click()
    page.get_by_role("link", name=re.compile("would score")).first.click()
    page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
    expect(page.get_by_role("button", name="Roll", exact=True)).to_have_count(0)
