"""The computer's turn at the player's speed: Skip during a playback, and no playback at all."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from games.models import Game
from tests.browser.online import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

STEP = re.compile(r"\?at=\d+")


@pytest.fixture(autouse=True)
def _playback_as_deployed(settings):
    settings.PLAYBACK_SPEED = 1  # the pauses players see: a turn at "watch" takes seconds


def play_the_beginner(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.get_by_role("radio", name=re.compile("Beginner")).check()
    page.get_by_role("button", name="Play the computer").click()


def choose_speed(page: Page, name: str) -> None:
    page.get_by_role("group", name="Computer turns").get_by_role("radio", name=name).check()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()


def score_a_turn(page: Page) -> None:
    page.get_by_role("button", name="Roll", exact=True).click()
    page.get_by_role("link", name=re.compile("would score")).first.click()
    page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()


def shows_the_game_as_it_is_now(page: Page, within_ms: float = 5000) -> None:
    game = Game.objects.get()
    expect(page.locator("#messages [data-version]")).to_have_attribute(
        "data-version", str(game.log_length), timeout=within_ms
    )
    expect(page.get_by_role("button", name="Roll", exact=True)).to_be_visible()
    expect(page.locator("#messages")).to_contain_text("Computer (beginner) scored")
    expect(page.get_by_role("button", name="Skip")).to_have_count(0)


def test_skip_shows_the_end_of_the_computers_turn_at_once(page: Page, base):
    """Pressed by keyboard while a step is on its way, and answered after it: the step does not
    bring the past back (nor its chain of steps), and Skip's answer is not lost."""
    held: dict[str, Route] = {}
    asked: list[str] = []

    def hold(route: Route) -> None:
        url = route.request.url
        asked.append(url)
        name = "skip" if held else "step"  # the first step of the playback, then Skip's request
        if name in held:
            route.continue_()
        else:
            held[name] = route

    play_the_beginner(page, base)
    choose_speed(page, "Watch")
    page.route(STEP, hold)
    score_a_turn(page)
    skip = page.get_by_role("button", name="Skip")
    expect(skip).to_be_visible()
    wait_until(
        page, lambda: "step" in held, "the step asked for"
    )  # asked for after the pause of the shown step
    skip.focus()
    page.keyboard.press("Enter")
    wait_until(page, lambda: "skip" in held, "Skip's request")
    held["step"].continue_()
    page.wait_for_timeout(300)  # the step's answer, if the page still took it
    before = len(asked)
    held["skip"].continue_()
    # At once: the rest of the turn would take over 2 s to play back.
    shows_the_game_as_it_is_now(page, within_ms=1000)
    page.wait_for_timeout(1500)  # longer than any step's pause
    assert asked[before:] == []  # no step asked for after the present
    shows_the_game_as_it_is_now(page)


def test_instant_plays_no_steps_and_is_kept(page: Page, base):
    steps: list[str] = []
    page.on("request", lambda request: STEP.search(request.url) and steps.append(request.url))
    play_the_beginner(page, base)
    choose_speed(page, "Instant")
    score_a_turn(page)
    shows_the_game_as_it_is_now(page)
    page.wait_for_timeout(1000)  # a step would have been asked for by now (after the roll's pause)
    assert steps == []
    page.reload()
    expect(page.get_by_role("radio", name="Instant")).to_be_checked()
