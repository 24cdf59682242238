"""The guide and the printable sheets, as a browser renders and prints them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.factories import act

pytestmark = pytest.mark.django_db(transaction=True)


def pdf_pages(page: Page, paper: str) -> int:
    pdf = page.pdf(format=paper, print_background=True)
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_blank_and_filled_sheets_print_on_one_page_without_controls(page: Page, base, paper):
    # The browser starts the game (a game's card is its browser's own), the turns are scripted.
    page.goto(base + "/")
    page.get_by_role("button", name="Start a new game").click()
    expect(page.get_by_role("heading", name="Round 1 of 13")).to_be_visible()
    game = Game.objects.get()
    visitor = game.seats.get().visitor
    for dice, box in [((6, 6, 6, 2, 2), "full_house"), ((1, 2, 3, 4, 5), "large_straight")]:
        act(game, "roll", visitor, dice)
        act(game, "score", visitor, box=box)
    for path in ["/sheet/", f"/game/{game.id}/sheet/"]:
        page.goto(base + path)
        page.emulate_media(media="print")
        assert pdf_pages(page, paper) == 1
        expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
        for button in page.get_by_role("button").all():
            expect(button).to_be_hidden()
        expect(page.get_by_role("rowheader", name="Full house")).to_be_visible()
    expect(page.get_by_role("cell", name="40", exact=True)).to_be_visible()
    expect(page.get_by_role("cell", name="65", exact=True)).to_be_visible()  # the total


def test_guide_shows_every_box_with_an_example(page: Page, base):
    page.goto(base + "/guide/")
    expect(page.get_by_role("heading", name="How to play Yahtzee")).to_be_visible()
    for box, points in [("Full house", "25"), ("Small straight", "30"), ("Large straight", "40"),
                        ("Yahtzee", "50"), ("Chance", "19")]:  # fmt: skip
        yahtzee = page.locator("#boxes")  # Yahtzee's card: the other games' follow (#variants)
        row = yahtzee.get_by_role("row").filter(has=page.get_by_role("rowheader", name=box))
        expect(row.get_by_role("cell").last).to_have_text(points)
    expect(page.get_by_text("1 in 1,296")).to_be_visible()


@pytest.mark.parametrize(
    ("locale", "sheet"), [("en-US", "Score sheet"), ("es-ES", "Hoja de puntuación")]
)
def test_the_phone_header_shows_every_link(browser, base, locale, sheet):
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(base + "/")
    header = page.get_by_role("banner").bounding_box()
    brand = page.get_by_role("link", name="Yahtzee").bounding_box()
    language = page.get_by_role("banner").get_by_role("button").bounding_box()
    # The language button beside the brand, the links on the lines under them: under 100 px,
    # where the links and the button on lines of their own took 110 px (an issue saw 200 px).
    assert language["y"] < brand["y"] + brand["height"]
    assert header["height"] < 100
    links = page.get_by_role("banner").get_by_role("navigation").get_by_role("link").all()
    # Play, Online, Groups, Tournaments, Profile, My games, How to play, Score sheet
    assert len(links) == 8
    # They wrap rather than scroll sideways: a row that scrolled hid the last one from view.
    for link in links:
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, link.text_content()
    page.get_by_role("link", name=sheet).click()
    expect(page).to_have_url(re.compile("/sheet/$"))
    context.close()
