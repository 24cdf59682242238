"""Fair dice and the daily challenge in headless Chromium, as a player uses them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.models import Game
from tests.factories import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def play_to_the_end(page: Page) -> None:
    """Roll once and score the first open box, thirteen times."""
    for turn in range(13):
        expect(page.get_by_role("heading", name=f"Round {turn + 1} of 13")).to_be_visible()
        page.get_by_role("button", name="Roll", exact=True).click()
        page.get_by_role("link", name=re.compile("would score")).first.click()
        page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()


def test_mix_in_text_play_a_game_and_check_every_roll(page: Page, base: str):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base + "/")
    page.get_by_role("button", name="Start a new game").click()
    page.get_by_text("Fair dice").click()
    game = Game.objects.get()
    expect(page.locator("#fair-dice")).to_contain_text(game.seed_hash)
    page.get_by_label("Mix in your own text").fill("my lucky words")
    page.get_by_role("button", name="Mix it in").click()
    expect(page.locator("#fair-dice")).to_contain_text("my lucky words")
    play_to_the_end(page)
    page.get_by_role("link", name="Check the dice").click()
    expect(page.locator(".verdict")).to_have_text(
        "All 13 rolls of this game are exactly what the seed gives."
    )
    game.refresh_from_db()
    expect(page.locator(".seed-facts")).to_contain_text(game.seed)
    page.get_by_role("link", name="5", exact=True).click()
    expect(page.get_by_role("heading", name="Roll 5, die by die")).to_be_visible()
    page.get_by_label("Players' text").fill("other words")
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("13 of 13 rolls do not match the seed.")


def test_the_daily_challenge_once_then_its_board(page: Page, base: str):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(base + "/")
    page.get_by_role("link", name="Daily challenge").click()
    page.get_by_role("button", name="Play today's challenge").click()
    expect(page.locator("#status")).to_contain_text("Daily challenge")
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.locator(".odds")).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile("Hint"))).to_have_count(0)
    page.get_by_role("link", name=re.compile("would score")).first.click()
    page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
    # Away and back: the attempt is resumed, not restarted.
    page.goto(base + "/daily/")
    page.get_by_role("link", name="Continue your attempt").click()
    expect(page.get_by_role("heading", name="Round 2 of 13")).to_be_visible()
    for turn in range(1, 13):
        expect(page.get_by_role("heading", name=f"Round {turn + 1} of 13")).to_be_visible()
        page.get_by_role("button", name="Roll", exact=True).click()
        page.get_by_role("link", name=re.compile("would score")).first.click()
        page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    page.get_by_role("link", name="Today's results").click()
    total = Game.objects.get().seats.get().card().total
    expect(page.locator(".intro")).to_contain_text(f"You scored {total} today.")
    expect(page.locator(".board tr.me").first).to_contain_text(str(total))
    # The fair board first; no analysis of today's dice before the day is over, not even one's own.
    expect(page.locator(".boards h2").first).to_contain_text("Fewest points lost")
    expect(page.locator(".boards h2").first).to_contain_text("the fair board")
    expect(page.get_by_role("link", name=re.compile("Analy[sz]e"))).to_have_count(0)
    expect(page.get_by_role("button", name="Play today's challenge")).to_have_count(0)


@pytest.mark.parametrize(
    ("locale", "start"), [("en-GB", "Start a new game"), ("es-ES", "Empezar una partida nueva")]
)
def test_the_verify_page_fits_a_phone(browser, base: str, locale, start):
    """Issue 29: the verify page was 473 px wide on a 390 px phone (in Spanish 509): the table of
    every roll scrolls in its own box, the hashes wrap, and the page does not move sideways."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale).new_page()
    page.goto(base + "/")
    page.get_by_role("button", name=start).click()
    expect(page.locator("#dice")).to_be_visible()  # this browser's first game gives it its id
    visitor = Game.objects.get().seats.get().visitor
    names = ["Alejandra", "Bartholomew"]
    game = play_out(services.start_game(visitor, names, mode=Game.Mode.LOCAL))
    for query in ("", "?roll=2#roll-2"):
        page.goto(f"{base}/game/{game.id}/verify/{query}")
        expect(page.locator(".verdict")).to_be_visible()
        expect(page.get_by_role("region").last).to_contain_text("Bartholomew")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
