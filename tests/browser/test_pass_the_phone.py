"""Three people around one phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_pass_the_phone_for_three(page: Page, base):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base + "/")
    for n, name in enumerate(["Ana", "Bo", "Cy"], start=1):
        page.get_by_role("textbox", name=f"Player {n}").fill(name)
    page.get_by_role("button", name="Start", exact=True).click()
    for round_number in range(1, 14):
        for name in ["Ana", "Bo", "Cy"]:
            expect(page.locator("#dice")).to_contain_text(f"{name}, your turn")
            page.get_by_role("button", name="Roll", exact=True).click()
            page.get_by_role("link", name=re.compile("would score")).first.click()
            page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
            if round_number < 13 or name != "Cy":
                expect(page.locator("#dice")).not_to_contain_text(f"{name}, your turn")
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    totals = [int(page.locator(f"#total-{seat}").inner_text()) for seat in range(3)]
    ranking = page.locator("ol.ranking li")
    expect(ranking).to_have_count(3)
    best = max(totals)
    if totals.count(best) == 1:
        winner = ["Ana", "Bo", "Cy"][totals.index(best)]
        expect(page.get_by_text(f"Winner: {winner}")).to_be_visible()
    else:
        expect(page.get_by_text("A tie!")).to_be_visible()


def test_on_a_phone_a_refused_start_says_why_where_the_page_opens(page: Page, base):
    """The form's own reason is in its panel, some 900 px down a phone's page: the answer opened
    at the top and the Start button seemed to do nothing."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base + "/")
    page.get_by_role("textbox", name="Player 1").fill("Ana")
    page.get_by_role("button", name="Start", exact=True).click()
    banner = page.locator(".refusal")
    expect(banner).to_have_text("Pass the phone: Enter at least two players.")
    expect(banner).to_be_in_viewport()
    banner.get_by_role("link", name="Pass the phone").click()
    expect(page.get_by_role("textbox", name="Player 1")).to_be_in_viewport()
    expect(page.get_by_role("textbox", name="Player 1")).to_have_value("Ana")
    page.get_by_role("textbox", name="Player 2").fill("Bo")
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("#dice")).to_contain_text("Ana, your turn")
    assert re.fullmatch(r".*/game/[\w-]+/", page.url), page.url  # no "#new-local" to share
