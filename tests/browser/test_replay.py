"""A replay played through from the keyboard and the slider, as a person does it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from engine.rules import CATEGORIES
from games import services
from games.models import Game
from tests.factories import finished_table

pytestmark = pytest.mark.django_db(transaction=True)


def position_line(page: Page, n: int, last: int) -> None:
    expect(page.locator(".position-line")).to_contain_text(f"Position {n} of {last}")
    expect(page).to_have_url(re.compile(rf"\?at={n}$"))


def test_a_shared_replay_steps_by_arrow_keys_home_end_and_the_slider(page: Page, base):
    game = finished_table()
    Game.objects.filter(pk=game.pk).update(shared=True)  # this browser did not play it
    last = sum(a.kind != "hold" for a in game.actions.all())
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{base}/game/{game.id}/replay/?at=0")
    expect(page.get_by_role("heading", name="Ana: First roll")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Previous"))).to_have_attribute(
        "aria-disabled", "true"
    )

    page.keyboard.press("ArrowRight")
    position_line(page, 1, last)
    # Ana's keep before her second roll, valued by the coach.
    decision = page.get_by_role("region", name=re.compile("^Ana: Keep \\d and roll$"))
    expect(decision).to_contain_text(re.compile(r"Chosen: Keep \d and roll \(\d+\.\d expected\)"))
    expect(page.locator(".dice-area .die.held")).to_have_count(1)

    page.keyboard.press("ArrowRight")
    position_line(page, 2, last)
    expect(page.get_by_role("heading", name=re.compile("^Ana: Score "))).to_be_visible()
    page.keyboard.press("ArrowLeft")
    position_line(page, 1, last)

    page.keyboard.press("End")
    position_line(page, last, last)
    expect(page.locator(".position-line")).to_contain_text("Game over")
    expect(page.locator("#card")).to_contain_text("Total")
    page.keyboard.press("ArrowRight")  # nothing after the last position
    position_line(page, last, last)

    page.keyboard.press("Home")
    position_line(page, 0, last)
    # Quick presses, before each step arrives: none is lost.
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    position_line(page, 4, last)
    page.keyboard.press("Home")
    position_line(page, 0, last)

    slider = page.get_by_role("slider", name="Position")
    slider.fill("5")  # lets go of the slider at 5: the page goes there
    position_line(page, 5, last)
    expect(slider).to_have_value("5")
    # Arrows on the focused slider move it, and the page follows.
    slider.focus()
    page.keyboard.press("ArrowRight")
    position_line(page, 6, last)

    # The address was pushed at each step: Back goes to the step before.
    page.go_back()
    position_line(page, 5, last)


def test_a_replay_without_javascript_steps_by_links_and_the_go_button(browser, base):
    game = finished_table()
    Game.objects.filter(pk=game.pk).update(shared=True)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/game/{game.id}/replay/?at=3")
    page.get_by_role("link", name=re.compile("Next")).click()
    position_line(page, 4, sum(a.kind != "hold" for a in game.actions.all()))
    page.get_by_role("slider", name="Position").fill("9")
    page.get_by_role("button", name="Go").click()
    expect(page.locator(".position-line")).to_contain_text("Position 9 of")
    context.close()


@pytest.mark.parametrize(
    ("locale", "start", "check", "following"),
    [
        ("en-GB", "Start a new game", "Check my answer", "Next position"),
        ("es-ES", "Empezar una partida nueva", "Comprobar mi respuesta", "Siguiente posición"),
    ],
)
def test_on_a_phone_practices_verdict_shows_where_the_player_looks(
    browser, base, strategy_tables, locale, start, check, following
):
    """Issue 29: the verdict came below up to 14 choices, off a phone's screen, and the answer
    opened at the page's top: the player saw nothing happen."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale).new_page()
    page.goto(base + "/")
    page.get_by_role("button", name=start).click()  # this browser's first game gives it its id
    expect(page.locator("#dice")).to_be_visible()
    visitor = Game.objects.get().seats.get().visitor
    game = services.start_solo_game(visitor)
    for box in CATEGORIES:  # each box in the card's order, on the first roll: costly decisions
        game.refresh_from_db()
        services.perform(game.id, visitor, "roll", {}, game.step)
        game.refresh_from_db()
        services.perform(game.id, visitor, "score", {"box": box}, game.step)
    page.goto(base + "/me/practice/")
    page.locator("input[name=choice]").last.check()
    page.get_by_role("button", name=check).click()
    expect(page.locator(".answer h3")).to_be_in_viewport()
    expect(page.get_by_role("link", name=following)).to_be_in_viewport()
