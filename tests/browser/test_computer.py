"""Whole games against each computer strength in a real browser, to the winner."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = {"optimal": "Perfect computer", "club": "Club player", "beginner": "Beginner"}
# How the game names the computer's seat: as the computer, never as a person ("Winner: Beginner").
SEAT_NAMES = {
    "optimal": "Computer (perfect)",
    "club": "Computer (club player)",
    "beginner": "Computer (beginner)",
}


@pytest.fixture(autouse=True)
def _fast_playback(settings):
    # Fast, yet each step stays long enough to be seen (at the default speed, quick: a third of
    # the pauses, so 1/6 of them).
    settings.PLAYBACK_SPEED = 2


@pytest.mark.parametrize("strength", ["optimal", "club", "beginner"])
def test_a_whole_game_against_the_computer(page: Page, base, strength, strategy_tables):
    page.goto(base + "/")
    page.get_by_role("radio", name=re.compile(NAMES[strength])).check()
    page.get_by_role("button", name="Play the computer").click()
    roll = page.get_by_role("button", name=re.compile(r"^Roll"))
    for turn in range(13):
        expect(page.get_by_role("heading", name=f"Round {turn + 1} of 13")).to_be_visible()
        expect(roll).to_have_text("Roll", timeout=20_000)  # the computer's turn has played back
        roll.click()
        expect(roll).to_have_text("Roll again (2 left)")
        page.get_by_role("link", name=re.compile("would score")).first.click()
        page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
        if turn < 12:
            # The computer's moves appear one by one, then it is our turn again.
            expect(page.locator("#dice")).to_contain_text(f"{SEAT_NAMES[strength]} is playing")
    expect(page.get_by_role("heading", name="Game over")).to_be_visible(timeout=20_000)
    game = Game.objects.get()
    you, computer = (card.total for card in game.replayed_state().cards)
    expect(page.locator("#total-0")).to_have_text(str(you))
    expect(page.locator("#total-1")).to_have_text(str(computer))
    if you == computer:
        expect(page.get_by_text("A tie!")).to_be_visible()
    else:
        won = you > computer
        expect(
            page.get_by_text("You win!" if won else f"Winner: {SEAT_NAMES[strength]}")
        ).to_be_visible()


def test_a_move_while_the_computer_is_getting_ready_says_so(
    page: Page, base, strategy_tables, tmp_path, monkeypatch
):
    """After a restart without its table, the computer cannot take its turn: the person's move is
    refused (503) and the page says why, rather than doing nothing."""
    from engine.strategy import storage
    from games import advice

    page.goto(base + "/")
    page.get_by_role("radio", name=re.compile("Perfect computer")).check()
    page.get_by_role("button", name="Play the computer").click()
    roll = page.get_by_role("button", name=re.compile(r"^Roll"))
    roll.click()
    expect(roll).to_have_text("Roll again (2 left)")
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))  # no table there: "getting ready"
    monkeypatch.setattr(advice, "_solve_in_background", lambda *args: None, raising=False)
    page.get_by_role("link", name=re.compile("would score")).first.click()
    page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
    expect(page.get_by_role("alert")).to_contain_text("The computer is still getting ready")
    assert [card.turns_played for card in Game.objects.get().state().cards] == [0, 0]
