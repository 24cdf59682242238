"""What a screen reader says after each move, in English and Spanish (issue 29).

The conventions for blind players: one short summary per move in one live region ("Rolled 2 3 3
5 6; holding 3 3"), and nothing said twice. A screen reader speaks what changes inside a live
region (aria-live, or the roles status, alert and log), and what a redraw puts there again, the
same words or not. So the page records, as a screen reader would hear it, every change inside a
live region and every live region put into the page; each move must give exactly one: the
summary of that move, in the page's one live region (#announce), in the words the message line
shows.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.online import go_online
from tests.servers import Server

pytestmark = pytest.mark.django_db(transaction=True)

# Runs in the page before its own scripts: each change inside a live region, or a live region
# put into the page, is noted with the region's text once the change is made.
LISTEN = """
window.announced = [];
const LIVE = '[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]';
new MutationObserver((records) => {
  const regions = new Set();
  for (const record of records) {
    const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
    const around = node && node.closest(LIVE);
    if (around) regions.add(around);
    for (const added of record.addedNodes) {
      if (added.nodeType !== 1) continue;
      if (added.matches(LIVE)) regions.add(added);
      added.querySelectorAll(LIVE).forEach((region) => regions.add(region));
    }
  }
  for (const region of regions) {
    const text = region.innerText.trim().replace(/\\s+/g, " ");
    window.announced.push(`${region.id || region.className || region.tagName}: ${text}`);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""

DICE = r"[1-6] [1-6] [1-6] [1-6] [1-6]"
WORDS = {
    "en": {
        "start": "Start a new game",
        "roll": r"^(Roll|Roll again \(\d left\))$",
        "die": "Die",
        "score": "Score",
        "ones": "Ones",
        "solo_roll": r"Rolled {dice}\. 2 rolls left\.",
        "solo_holding": "Holding {held}.",
        "solo_roll_again": r"Rolled {dice}; holding {held}\. 1 roll left\.",
        "solo_score": r"Scored {points} points? in Ones\.",
        "your_roll": r"You rolled {dice}\. 2 rolls left\.",
        "your_score": r"You scored {points} points? in Ones\.",
        "other_roll": r"{name} rolled {dice}\.",
        "other_holds": "{name} holds {held}.",
        "other_score": r"{name} scored {points} points? in Ones\.",
    },
    "es": {
        "start": "Empezar una partida nueva",
        "roll": r"^(Tirar|Volver a tirar \(quedan? \d\))$",
        "die": "Dado",
        "score": "Anotar",
        "ones": "Unos",
        "solo_roll": r"Tirada: {dice}\. Te quedan 2 tiradas\.",
        "solo_holding": "Guardas {held}.",
        "solo_roll_again": r"Tirada: {dice}; guardas {held}\. Te queda 1 tirada\.",
        "solo_score": r"{points} puntos? anotados? en Unos\.",
        "your_roll": r"Has sacado {dice}\. Te quedan 2 tiradas\.",
        "your_score": r"Has anotado {points} puntos? en Unos\.",
        "other_roll": r"Tirada de {name}: {dice}\.",
        "other_holds": "{name} guarda {held}.",
        "other_score": r"{name} anota {points} puntos? en Unos\.",
    },
}


def in_language(context: BrowserContext, base: str, language: str) -> None:
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    context.add_init_script(LISTEN)


def heard(page: Page) -> list[str]:
    """What the page's live regions said since the last call."""
    return page.evaluate("() => window.announced.splice(0)")


def says_only(page: Page, pattern: str) -> None:
    """The live region says ``pattern`` (a regular expression), as the message line shows it,
    and nothing else was said since the last move."""
    summary = re.compile(f"^{pattern.replace('{dice}', DICE)}$")
    expect(page.locator("#announce")).to_have_text(summary)
    expect(page.locator("#messages > p").last).to_have_text(summary)  # as the page shows it
    said = heard(page)
    assert said == [f"announce: {page.locator('#announce').inner_text().strip()}"]


def face_of_die_1(page: Page, words: dict) -> str:
    label = page.get_by_role("button", name=re.compile(f"^{words['die']} 1: ")).get_attribute(
        "aria-label"
    )
    return label.rsplit(" ", 1)[-1]


def score_ones(page: Page, words: dict) -> str:
    """Pick Ones and confirm; returns the points."""
    page.locator("#box-ones").get_by_role("link").click()
    button = page.get_by_role("button", name=re.compile(rf"^{words['score']} \d+$"))
    expect(button).to_be_focused()
    points = button.inner_text().split()[-1]
    assert heard(page) == []  # choosing a box says nothing: its Score button describes it
    button.click()
    return points


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_solo_turn_says_one_summary_per_move(browser, base, language):
    words = WORDS[language]
    context = browser.new_context()
    in_language(context, base, language)
    page = context.new_page()
    page.goto(base + "/")
    page.get_by_role("button", name=words["start"]).click()
    roll = page.get_by_role("button", name=re.compile(words["roll"]))
    expect(roll).to_be_enabled()
    heard(page)  # the page as it was parsed: read as a whole, not announced

    roll.click()
    says_only(page, words["solo_roll"])
    held = face_of_die_1(page, words)
    page.get_by_role("button", name=re.compile(f"^{words['die']} 1: ")).click()
    says_only(page, re.escape(words["solo_holding"].format(held=held)))
    roll.click()
    says_only(page, words["solo_roll_again"].replace("{held}", held))
    points = score_ones(page, words)
    says_only(page, words["solo_score"].format(points=points))


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def test_an_online_game_says_each_move_once_to_both_players(browser, server):
    """Ana reads the site in English, Bo in Spanish: each hears their own moves and the other's."""
    base = server.url
    pages = {}
    for name, language in (("Ana", "en"), ("Bo", "es")):
        context = browser.new_context()
        in_language(context, base, language)
        pages[name] = context.new_page()
    ana, bo = pages["Ana"], pages["Bo"]
    go_online(ana, base, "Ana")
    bo.goto(base + "/online/")
    bo.get_by_label("Tu nombre").fill("Bo")
    bo.get_by_role("button", name="Conectarse").click()
    ana.get_by_role("button", name="Challenge Bo").click()
    bo.get_by_role("button", name="Aceptar").click()
    expect(ana.get_by_role("heading", name="Round 1 of 13")).to_be_visible()
    expect(bo.get_by_role("heading", name="Ronda 1 de 13")).to_be_visible()
    heard(ana), heard(bo)

    for mover, watcher, name in ((ana, bo, "Ana"), (bo, ana, "Bo")):
        mine = WORDS["en" if mover is ana else "es"]
        theirs = WORDS["es" if mover is ana else "en"]
        roll = mover.get_by_role("button", name=re.compile(mine["roll"]))
        expect(roll).to_be_enabled()

        roll.click()
        says_only(mover, mine["your_roll"])
        says_only(watcher, theirs["other_roll"].replace("{name}", name))
        held = face_of_die_1(mover, mine)
        mover.get_by_role("button", name=re.compile(f"^{mine['die']} 1: ")).click()
        says_only(mover, re.escape(mine["solo_holding"].format(held=held)))
        says_only(watcher, re.escape(theirs["other_holds"].format(name=name, held=held)))
        points = score_ones(mover, mine)
        says_only(mover, mine["your_score"].format(points=points))
        says_only(watcher, theirs["other_score"].format(name=name, points=points))
