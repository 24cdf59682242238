"""axe-core (the copy axe-playwright-python bundles) on every type of page, in both languages, at
phone and laptop size: no violation of WCAG 2.1 A and AA. The pages are reached as a player
reaches them, in one browser that goes online, plays, and opens each page in turn."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from engine.rules import CATEGORIES
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1366, "height": 768}


def finished_game(visitor: str) -> Game:
    """A solo game of this browser played to its end on its own dice."""
    game = services.start_solo_game(visitor)
    for box in CATEGORIES:
        game.refresh_from_db()
        services.perform(game.id, visitor, "roll", {}, game.step)
        game.refresh_from_db()
        services.perform(game.id, visitor, "score", {"box": box}, game.step)
    return game


def violations(page: Page) -> list[str]:
    """What axe finds on the page as it is now, one line per rule broken."""
    found = Axe().run(page, options=WCAG_21_AA).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']][:3]}" for v in found
    ]


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_every_page_type_has_no_wcag_21_aa_violation(browser, base, language, viewport, settings):
    settings.PLAY_NOW_WAIT_SECONDS = 0  # Play now's waiting page offers the computer at once
    headers = {"Accept-Language": language}
    context = browser.new_context(viewport=viewport, extra_http_headers=headers)
    page = context.new_page()
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        page.wait_for_load_state()
        found[name] = violations(page)

    page.goto(base + "/")
    check("home")
    page.locator("#new-solo button[type=submit]").click()
    expect(page.locator("#roll-button")).to_be_visible()
    check("game, before the first roll")
    page.locator("#fair-dice summary").click()
    page.locator("#roll-button").click()
    page.locator("a[href*='select=']").first.click()
    expect(page.locator(".confirm-row")).to_be_visible()
    check("game, a box chosen")
    for path in ("/guide/", "/sheet/", "/daily/", "/sign-in/", "/leaderboard/", "/offline/"):
        page.goto(base + path)
        check(path)
    page.goto(base + "/no-such-page/")
    check("404")
    page.goto(base + "/online/")
    check("online, no name yet")
    page.locator("#name").fill(f"Ana {language}")  # by its id: the label is in the page's language
    page.locator("#name").press("Enter")
    expect(page.locator("#name")).to_have_value(f"Ana {language}")
    expect(page.locator("form[action$='/table/new/']")).to_be_visible()
    check("lobby")
    page.goto(base + "/")
    page.locator("form[action$='/play-now/press/'] button").click()
    expect(page.locator("#computer-offer")).to_be_visible()
    check("play now, waiting, the computer offered")
    page.locator("form[action$='/play-now/cancel/'] button").click()
    expect(page.locator("#play-now")).to_be_visible()
    visitor = Game.objects.first().seats.get().visitor
    done = finished_game(visitor)
    paths = "/", "/game/{}/", "/game/{}/analysis/", "/game/{}/verify/", "/game/{}/replay/?at=5"
    for path in (*paths, "/me/practice/"):
        page.goto(base + path.format(done.id))
        check(path.format("<finished>"))
    page.goto(base + "/me/")
    check("own profile")
    page.locator("#devices form[action*='/me/code/'] button").click()
    expect(page.locator("#devices .code")).to_be_visible()
    check("own profile with a code")
    page.goto(base + "/online/")
    page.locator("form[action$='/table/new/'] button").click()
    expect(page).to_have_url(re.compile(r"/t/\w+/"))
    check("private table")
    page.goto(base + "/groups/")
    check("my groups")
    page.locator("#group-name").fill(f"Group {language}")
    page.locator("form[action$='/groups/new/'] button").click()
    expect(page.locator("#members")).to_be_visible()
    check("group page")
    context.close()
    broken = {name: lines for name, lines in found.items() if lines}
    assert len(found) >= 19
    assert not broken, "\n".join(f"{name}: {lines}" for name, lines in broken.items())
