"""The computer's turn at the player's speed: no playback at all at "instant"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game

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
    expect(page.locator("#messages")).to_contain_text("Beginner scored")
    expect(page.get_by_role("button", name="Skip")).to_have_count(0)


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
