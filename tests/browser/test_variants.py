"""A whole game of each variant in Chromium, in English on a phone and in Spanish on a laptop:
the home page's choice of game, its dice (six in Maxi Yatzy), its card, in order and saved rolls,
driven by role and visible text as a player does.

Set SHOTS_DIR to keep a screenshot of each game under way and at its end.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from engine.rulesets import MAXI_YATZY, MAXI_YATZY_SAVED, YAHTZEE, YATZY, YATZY_IN_ORDER, RuleSet

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en-GB": {
        "start": "Start a new game",
        "game": "Game",
        "round": "Round {round} of {rounds}",
        "roll": re.compile(r"^(Roll|Roll again \(\d left\)|No rolls left)$"),
        "die": "Die {number}:",
        "would": "would score",
        "score": re.compile(r"^Score \d+$"),
        "over": "Game over",
        "saved": "2 saved rolls",
        "in_order": "In order: each turn scores the next box",
    },
    "es-ES": {
        "start": "Empezar una partida nueva",
        "game": "Juego",
        "round": "Ronda {round} de {rounds}",
        "roll": re.compile(r"^(Tirar|Volver a tirar \(quedan? \d\)|No quedan tiradas)$"),
        "die": "Dado {number}:",
        "would": "valdría",
        "score": re.compile(r"^Anotar \d+$"),
        "over": "Fin de la partida",
        "saved": "2 tiradas guardadas",
        "in_order": "En orden: cada turno anota la siguiente casilla",
    },
}
SIZES = {"en-GB": {"width": 390, "height": 844}, "es-ES": {"width": 1366, "height": 768}}


def shoot(page: Page, name: str) -> None:
    if shots := os.environ.get("SHOTS_DIR"):
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{name}.png", full_page=True)


def roll(page: Page, words: dict) -> None:
    button = page.get_by_role("button", name=words["roll"])
    before = page.locator("#messages").inner_text()
    button.click()
    expect(page.locator("#messages")).not_to_have_text(before)


def score_first_offer(page: Page, words: dict) -> None:
    offers = page.get_by_role("link", name=re.compile(words["would"]))
    offers.first.click()
    page.get_by_role("button", name=words["score"]).click()


@pytest.mark.parametrize("locale", list(WORDS))
@pytest.mark.parametrize(
    "rules",
    [YAHTZEE, YATZY, MAXI_YATZY, YATZY_IN_ORDER, MAXI_YATZY_SAVED],
    ids=lambda rules: rules.key,
)
def test_a_whole_game_of_each_variant(browser: Browser, base: str, rules: RuleSet, locale: str):
    words = WORDS[locale]
    page = browser.new_context(viewport=SIZES[locale], locale=locale).new_page()
    page.goto(base + "/")
    page.locator("#new-solo").get_by_label(words["game"]).select_option(rules.key)
    page.locator("#new-solo").get_by_role("button", name=words["start"]).click()
    for turn in range(rules.turns):
        title = words["round"].format(round=turn + 1, rounds=rules.turns)
        expect(page.get_by_role("heading", name=title)).to_be_visible()
        roll(page, words)
        dice = page.get_by_role("button", name=re.compile("^" + words["die"].split("{")[0]))
        expect(dice).to_have_count(rules.dice)
        if rules.in_order:  # only the next box down the card is offered
            expect(page.get_by_text(words["in_order"])).to_be_visible()
            expect(page.get_by_role("link", name=re.compile(words["would"]))).to_have_count(1)
        if rules.saved_rolls and turn == 0:
            score_first_offer(page, words)  # after one roll: two saved
            expect(page.get_by_text(words["saved"])).to_be_visible()
            continue
        last = page.get_by_role("button", name=words["die"].format(number=rules.dice))
        last.click()
        expect(last).to_have_attribute("aria-pressed", "true")
        rolls = 1
        while page.get_by_role("button", name=words["roll"]).is_enabled():
            roll(page, words)
            rolls += 1
        assert rolls == (5 if rules.saved_rolls and turn == 1 else 3)
        if turn == 2:
            shoot(page, f"{rules.key}-{locale}-playing")
        score_first_offer(page, words)
    expect(page.get_by_role("heading", name=words["over"])).to_be_visible()
    shoot(page, f"{rules.key}-{locale}-over")
    page.goto(page.url + "replay/?at=3")
    expect(
        page.get_by_role("button", name=re.compile("^" + words["die"].split("{")[0]))
    ).to_have_count(0)
    shoot(page, f"{rules.key}-{locale}-replay")
    page.context.close()


@pytest.mark.parametrize(
    ("locale", "names"),
    [
        ("en-GB", ("Maxi Yatzy, saved rolls", "Castle", "Saved rolls")),
        ("es-ES", ("Maxi Yatzy, tiradas guardadas", "Castillo", "Tiradas guardadas")),
    ],
)
def test_the_choice_of_game_the_guide_and_the_sheet(browser: Browser, base: str, locale, names):
    words = WORDS[locale]
    for size in SIZES.values():
        page = browser.new_context(viewport=size, locale=locale).new_page()
        page.goto(base + "/")
        choice = page.locator("#new-computer").get_by_label(words["game"])
        expect(choice.locator("option")).to_have_count(7)
        expect(choice).to_contain_text(names[0])
        # The longest game's name ("..., con los Yahtzees múltiples desactivados") widened the
        # home page past a phone's screen and a laptop's.
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        shoot(page, f"home-{locale}-{size['width']}")
        page.goto(base + "/guide/#variants")
        expect(page.get_by_role("heading", name=names[2])).to_be_visible()
        expect(page.get_by_role("rowheader", name=re.compile(names[1]))).to_be_visible()
        shoot(page, f"guide-{locale}-{size['width']}")
        page.goto(base + "/sheet/")
        page.get_by_label(words["game"]).select_option("maxi")
        page.get_by_role("button").filter(has_text=re.compile("sheet|hoja")).click()
        expect(page.get_by_role("rowheader", name=names[1])).to_be_visible()
        shoot(page, f"sheet-{locale}-{size['width']}")
        page.context.close()


def test_saved_rolls_and_a_sixth_die_without_javascript(browser: Browser, base: str):
    words = WORDS["en-GB"]
    context = browser.new_context(java_script_enabled=False, viewport=SIZES["en-GB"])
    page = context.new_page()
    page.goto(base + "/")
    page.locator("#new-solo").get_by_label("Game").select_option(MAXI_YATZY_SAVED.key)
    page.locator("#new-solo").get_by_role("button", name=words["start"]).click()
    roll(page, words)
    page.get_by_role("link", name=re.compile("^Chance: would score")).click()
    page.get_by_role("button", name=words["score"]).click()
    expect(page.get_by_role("heading", name="Round 2 of 20")).to_be_visible()
    expect(page.get_by_text("2 saved rolls")).to_be_visible()
    roll(page, words)
    sixth = page.get_by_role("button", name=re.compile("^Die 6:"))
    sixth.click()
    expect(sixth).to_have_attribute("aria-pressed", "true")
    face = sixth.get_attribute("aria-label")
    for left in (3, 2, 1, 0):
        roll(page, words)
        expect(sixth).to_have_attribute("aria-label", face)
        if left:
            expect(page.get_by_role("button", name=words["roll"])).to_have_text(
                f"Roll again ({left} left)"
            )
    expect(page.get_by_role("button", name="No rolls left")).to_be_disabled()
    expect(page.get_by_text("0 saved rolls")).to_be_visible()
    context.close()


def test_pass_the_phone_with_the_computer_in_yatzy(browser: Browser, base: str):
    page = browser.new_context(viewport=SIZES["es-ES"], locale="en-GB").new_page()
    page.goto(base + "/")
    local = page.locator("#new-local")
    local.get_by_label("Game").select_option(YATZY.key)
    local.get_by_placeholder("Player 1").fill("Ana")
    local.get_by_label("Who plays seat 2").select_option("beginner")
    local.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1 of 15")).to_be_visible()
    roll(page, WORDS["en-GB"])
    page.get_by_role("link", name=re.compile("^One pair: would score")).click()
    page.get_by_role("button", name=WORDS["en-GB"]["score"]).click()
    # The computer's turn plays back on the page, then it is Ana's again: one box filled each.
    expect(page.locator("#card td.filled")).to_have_count(2)
    expect(page.get_by_role("heading", name="Round 2 of 15")).to_be_visible()
    shoot(page, "local-yatzy-en-GB-1366")
    page.context.close()


@pytest.mark.parametrize("variant", ["official", "maxi"])
def test_a_blank_sheet_prints_on_one_page(browser: Browser, base: str, variant: str):
    """The sheet says it fits on one A4 or Letter page: Maxi Yatzy's 20 boxes printed on two."""
    page = browser.new_context(locale="es-ES").new_page()
    page.goto(f"{base}/sheet/?variant={variant}")
    for paper in ("A4", "Letter"):
        pages = re.findall(rb"/Type\s*/Page[^s]", page.pdf(format=paper))
        assert len(pages) == 1, (variant, paper)
    page.context.close()
