"""The game page as a phone and a laptop show it: the card's names in view, every column on the
screen, an away player's box where the player is looking (issue 16)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.online import go_online
from tests.servers import Server

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
# Per language: the home page's seat label, Start, Roll, a box's offer, Score (as the .po says).
WORDS = {
    "en-GB": ("Player", "Start", "Roll", "would score", "Score"),
    "es-ES": ("Jugador", "Empezar", "Tirar", "valdría", "Anotar"),
}
LONG_NAMES = ["Ana", "Bartholomew-Maximilian", "Cy", "Supercalifragilisticexpi", "Eva", "Flo"]

# Where the browser broke a text's lines: for each line after the first, the two characters
# either side of the break (layout, not paint: characters hidden behind a "…" still count).
LINE_BREAKS = """(element) => {
  const text = element.textContent, node = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const chars = [];
  for (let n = node.nextNode(); n; n = node.nextNode()) {
    for (let i = 0; i < n.data.length; i++) {
      const range = document.createRange();
      range.setStart(n, i);
      range.setEnd(n, i + 1);
      const box = range.getBoundingClientRect();
      if (box.width > 0) chars.push([n.data[i], Math.round(box.top)]);
    }
  }
  const breaks = [];
  for (let i = 1; i < chars.length; i++) {
    if (chars[i][1] > chars[i - 1][1] + 2) breaks.push(chars[i - 1][0] + chars[i][0]);
  }
  return breaks;
}"""


def start_pass_the_phone(page: Page, base: str, names: list[str], locale: str) -> None:
    seat, start = WORDS[locale][:2]
    page.goto(base + "/")
    for n, name in enumerate(names, start=1):
        page.get_by_role("textbox", name=f"{seat} {n}", exact=True).fill(name)
    page.get_by_role("button", name=start, exact=True).click()


def roll_and_choose_the_last_box(page: Page, locale: str) -> None:
    """Roll, then choose the lowest box on offer (the page scrolls down to it): Score shows."""
    _, _, roll, offer, score = WORDS[locale]
    page.get_by_role("button", name=roll, exact=True).click()
    page.get_by_role("link", name=re.compile(offer)).last.click()
    expect(page.get_by_role("button", name=re.compile(rf"^{score} \d+$"))).to_be_visible()


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None
    return found


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_after_a_score_low_on_the_card_the_names_show_under_the_dice(browser, base, locale):
    """The dice panel stays at the top of a phone's screen: after a score in a lower box the
    names above the columns were under it, and the next player could not see whose column was
    whose."""
    page = browser.new_context(viewport=PHONE, locale=locale).new_page()
    names = ["Ana", "Bo", "Cy"]
    start_pass_the_phone(page, base, names, locale)
    for name in names[:2]:
        roll_and_choose_the_last_box(page, locale)
        page.get_by_role("button", name=re.compile(rf"^{WORDS[locale][4]} \d+$")).click()
        expect(page.locator("#dice")).not_to_contain_text(name)
        dice = box(page.locator("#dice"))
        # Scrolled down to the lower boxes: the card's title is up under the dice panel ...
        assert box(page.locator("#card-title"))["y"] < dice["y"] + dice["height"]
        # ... and the names row shows just below the panel, all of it on the screen.
        for seat in names:
            header = box(page.get_by_role("columnheader", name=seat, exact=True))
            assert header["y"] >= dice["y"] + dice["height"] - 1, seat
            assert header["y"] + header["height"] <= PHONE["height"], seat


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("locale", ["es-ES", "en-GB"])
def test_six_players_with_long_names_fit_the_screen(browser, base, viewport, locale):
    """With six seats (in Spanish the widest) the card went off a phone's screen sideways and hid
    two columns; on a laptop it hid two beside the dice. Checked with a Score button showing,
    the widest the current player's column gets."""
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    start_pass_the_phone(page, base, LONG_NAMES, locale)
    roll_and_choose_the_last_box(page, locale)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    card = box(page.locator("#card"))
    for seat, name in enumerate(LONG_NAMES):
        for column in (page.get_by_role("columnheader", name=name), page.locator(f"#total-{seat}")):
            found = box(column)
            assert card["x"] <= found["x"], name
            assert found["x"] + found["width"] <= card["x"] + card["width"], name
    # The current player's Score button stays inside its column.
    score = box(page.get_by_role("button", name=re.compile(rf"^{WORDS[locale][4]} \d+$")))
    ana = box(page.get_by_role("columnheader", name="Ana"))
    assert ana["x"] <= score["x"] and score["x"] + score["width"] <= ana["x"] + ana["width"]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_long_name_is_shortened_between_words_never_broken_inside_one(browser, base, viewport):
    """ "Supercalifragilisticexpi" was cut into four lines of letters in a phone's column: a name
    breaks only at a space or a hyphen, a word too long ends in "…", and the whole name is the
    heading's text and its title."""
    page = browser.new_context(viewport=viewport, locale="es-ES").new_page()
    start_pass_the_phone(page, base, LONG_NAMES, "es-ES")
    expect(page.get_by_role("button", name="Tirar", exact=True)).to_be_visible()
    for name in LONG_NAMES:
        header = page.get_by_role("columnheader", name=name, exact=True)
        expect(header).to_have_attribute("title", name)
        breaks = header.evaluate(LINE_BREAKS)
        assert all(pair[0] in " -" for pair in breaks), (name, breaks)
    word = page.get_by_role("columnheader", name=LONG_NAMES[3], exact=True)
    shortened = word.evaluate(
        "(th) => { const name = th.firstElementChild || th;"
        " const cut = name.scrollWidth > name.clientWidth || name.scrollHeight > name.clientHeight;"
        " return [cut, getComputedStyle(name).textOverflow]; }"
    )
    assert shortened == [True, "ellipsis"]


# Whether a column heading's name shows whole: nothing of it cut off, across or (written upwards
# on a phone) along.
WHOLE = """(th) => { const name = th.querySelector('.name');
  return name.scrollWidth <= name.clientWidth && name.scrollHeight <= name.clientHeight; }"""


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_six_players_names_read_whole(browser, base, viewport, locale, strategy_tables):
    """Issue 29: with six players a phone cut every name to three letters ("Bar…", "Car…"):
    names of up to a dozen letters, and the computer's, now read whole, in the screen's width."""
    names = ["Alejandra", "Bartholomew", "Carmen", "Dmitri", "Esperanza"]
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    page.goto(base + "/")
    seat, start = WORDS[locale][:2]
    for n, name in enumerate(names, start=1):
        page.get_by_role("textbox", name=f"{seat} {n}", exact=True).fill(name)
    page.locator("select[name=kind_6]").select_option("club")
    page.get_by_role("button", name=start, exact=True).click()
    computer = {"en-GB": "Computer (club player)", "es-ES": "Máquina (jugador de club)"}[locale]
    expect(page.get_by_role("columnheader", name=computer)).to_have_attribute("title", computer)
    for name in names + ([computer] if locale == "en-GB" else []):
        header = page.get_by_role("columnheader", name=name, exact=True)
        assert header.evaluate(WHOLE), name
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]


@pytest.fixture
def quick_grace_server(tmp_path):
    server = Server(tmp_path)
    server.env["AWAY_GRACE_SECONDS"] = "4"
    with server:
        yield server


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_away_box_is_where_the_player_looks_and_says_when_time_is_up(
    browser, quick_grace_server, viewport
):
    """Bo closes his page while Ana is down at her card: his box was at the top of the page,
    out of her sight, and its countdown stopped at "0:00" when his time was up."""
    base = quick_grace_server.url
    ana = browser.new_context(viewport=viewport).new_page()
    bo = browser.new_context(viewport=viewport).new_page()
    go_online(ana, base, "Ana")
    go_online(bo, base, "Bo")
    ana.get_by_role("button", name="Challenge Bo").click()
    bo.get_by_role("button", name="Accept").click()
    roll = ana.get_by_role("button", name="Roll", exact=True)
    expect(roll).to_be_visible()
    # Bo's page has opened (until then he is "joining", his away box hidden for a while).
    expect(ana.get_by_role("list", name="Players")).to_contain_text("Bo: here")
    bo.close()
    away = ana.locator(".leave-out").filter(has_text="Bo is away.")  # not live: see play.html
    expect(away).to_be_visible()
    roll.click()
    expect(ana.get_by_role("link", name=re.compile("would score")).first).to_be_visible()
    ana.mouse.wheel(0, 2000)  # down to the lower boxes, as a player scrolls
    expect(ana.get_by_role("rowheader", name="Chance")).to_be_in_viewport()
    assert ana.evaluate("() => scrollY") > 0
    expect(away).to_be_in_viewport(ratio=1)
    go_on = ana.get_by_role("button", name="Continue without Bo")
    expect(go_on).to_be_visible(timeout=15_000)
    expect(away).to_be_in_viewport(ratio=1)
    expect(away.get_by_text("The time to come back is up.")).to_be_visible()
    assert "0:00" not in away.inner_text()  # the text on screen (the countdown is there, hidden)
    expect(away.get_by_role("button", name="End the game")).to_be_in_viewport(ratio=1)
    # Clear of the dice and of Roll, which stay at the top of the window.
    shown = box(away)
    for control in [
        ana.locator("#dice .dice"),
        ana.get_by_role("button", name=re.compile("^Roll")),
    ]:
        found = box(control)
        assert (
            found["y"] + found["height"] <= shown["y"] or shown["y"] + shown["height"] <= found["y"]
        )
    # It is the real box: continuing without Bo works from there.
    go_on.click()
    expect(ana.locator(".leave-out").filter(has_text="Bo is away.")).to_have_count(0)
