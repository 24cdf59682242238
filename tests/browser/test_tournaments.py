"""Tournaments in the browser against the real server (its sockets, its clock): an arena of two
people (two Chromium contexts) and two computers played to its end, its standings moving on both
people's pages as games end; a duplicate round in which both people see the same dice."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.online import LAPTOP, LOBBY_WORDS, PHONE, go_online
from tests.servers import Server

pytestmark = pytest.mark.django_db(transaction=True)

# The arena's 10 minutes last 30 s, its 30 s turns 1.5 s (settings.TURN_TIMER_SPEED), and the
# socket servers' sweep moves the tournament on every half second.
FAST = {"TURN_TIMER_SPEED": "20", "TURN_SWEEP_SECONDS": "0.5"}
GAME_PAGE = re.compile(r"/game/[\w-]+/$")


@pytest.fixture
def server(tmp_path, request):
    server = Server(tmp_path)
    server.env |= getattr(request, "param", {})
    with server as running:
        yield running


def make_tournament(
    page: Page, base: str, name: str, format_label: str, fills=(), choices=()
) -> str:
    """Make a tournament through the form, starting now; its page's address."""
    page.goto(base + "/tournaments/new/")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_role("radio", name=re.compile(f"^{format_label} ")).check()
    for label, value in fills:
        page.get_by_label(label).fill(value)
    for label, value in choices:
        page.get_by_label(label).select_option(label=value)
    page.get_by_role("button", name="Make the tournament").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    return page.url


def shoot(page: Page, shots: Path, name: str) -> None:
    for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(shots / f"tournament-{name}-{size}.png"), full_page=True)


def ana_and_bo(browser, base: str, bos_locale: str = "en-GB") -> tuple[Page, Page]:
    """Two people online, each in a browser of their own (Bo's in his language)."""
    ana = browser.new_context(locale="en-GB").new_page()
    bo = browser.new_context(locale=bos_locale).new_page()
    go_online(ana, base, "Ana")
    go_online(bo, base, "Bo", LOBBY_WORDS[bos_locale])
    return ana, bo


def standings_row(page: Page, name: str):
    return page.locator("#standings tr", has_text=name)


@pytest.mark.parametrize("server", [FAST], indirect=True)
def test_an_arena_of_two_people_and_two_computers_played_to_its_end(browser, server, tmp_path):
    shots = Path(os.environ.get("SCREENSHOTS_DIR", tmp_path))
    base = server.url
    ana, bo = ana_and_bo(browser, base, "es-ES")
    choices = [("Duration (arena)", "10 minutes"), ("Turn timer", "30 seconds")]
    link = make_tournament(ana, base, "Friday arena", "Arena", choices=choices)
    for strength in ("Beginner", "Club player"):
        ana.get_by_label("Add the computer as a player").select_option(label=strength)
        ana.get_by_role("button", name="Add", exact=True).click()
        expect(standings_row(ana, f"Computer ({strength.lower()})")).to_be_visible()
    ana.get_by_role("button", name="Join", exact=True).click()
    expect(ana.locator("#t-you")).to_contain_text("You are in.")
    # Bo opens the shared link (his page in Spanish) and joins: Ana's page shows him at once.
    bo.goto(link)
    expect(standings_row(bo, "Ana")).to_be_visible()
    bo.get_by_role("button", name="Unirse").click()
    expect(standings_row(ana, "Bo")).to_be_visible()
    expect(ana.locator("#t-status")).to_contain_text("4 players")
    expect(bo.locator("#t-status")).to_contain_text("4 jugadores")
    shoot(bo, shots, "arena-joined-es")
    # The maker starts it: each person's page goes to their first game.
    ana.get_by_role("button", name="Start now").click()
    for page in (ana, bo):
        expect(page).to_have_url(GAME_PAGE)
    expect(ana.locator("#tournament-game")).to_contain_text("Back to the tournament Friday arena")
    expect(bo.locator("#tournament-game")).to_contain_text("Volver al torneo Friday arena")
    shoot(ana, shots, "arena-game-en")
    # Both go back to the tournament and pause (their games under way go on), so that they are
    # not paired again; then both resign their games, Ana first.
    ana.get_by_role("link", name="Back to the tournament Friday arena").click()
    bo.get_by_role("link", name="Volver al torneo Friday arena").click()
    ana.get_by_role("button", name="Pause").click()
    bo.get_by_role("button", name="Pausa").click()
    expect(ana.locator("#t-you")).to_contain_text("paused")
    expect(bo.locator("#t-you")).to_contain_text("en pausa")
    before = {page: page.locator("#standings").inner_text() for page in (ana, bo)}
    resign(ana, "Your game is on: open it", "Resign…", "Yes, resign")
    # Ana's resignation moves the standings on Bo's page at once (someone won a game).
    expect(bo.locator("#standings tbody")).to_contain_text("1-0-0")
    assert bo.locator("#standings").inner_text() != before[bo]
    ana.goto(link)
    if bo.locator("#t-you a", has_text="Tu partida está en marcha").count():
        resign(bo, "Tu partida está en marcha: ábrela", "Rendirse…", "Sí, me rindo")
        bo.goto(link)
    # Ana's page sees Bo's game end too; then the arena's time runs out: the podium, on both.
    expect(ana.locator("#standings tbody")).not_to_contain_text("Watch")
    assert ana.locator("#standings").inner_text() != before[ana]
    expect(ana.locator("#t-status")).to_contain_text("Finished", timeout=60_000)
    expect(bo.locator("#t-status")).to_contain_text("Terminado", timeout=10_000)
    # The people, placed among the people (the computers never win a prize): both computers
    # may stand above them in the standings, the podium is theirs.
    podium = ana.get_by_role("list", name="Podium")
    expect(podium.get_by_role("listitem")).to_have_count(2)
    expect(podium).to_contain_text("Ana")
    expect(podium).to_contain_text("Bo")
    expect(podium).not_to_contain_text("Computer")
    expect(bo.get_by_role("list", name="Podio")).to_be_visible()
    expect(ana.locator("#t-results")).to_contain_text("Ana")
    shoot(ana, shots, "arena-finished-en")
    shoot(bo, shots, "arena-finished-es")


def resign(page: Page, open_game: str, resign_label: str, yes: str) -> None:
    page.get_by_role("link", name=open_game).click()
    expect(page).to_have_url(GAME_PAGE)
    page.get_by_role("button", name=resign_label).click()
    page.get_by_role("button", name=yes).click()


# A tab in the background, as the browser tells a page (Playwright's pages are always shown).
HIDE_TAB = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW_TAB = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_duplicate_round_deals_both_people_the_same_dice(browser, server, tmp_path):
    shots = Path(os.environ.get("SCREENSHOTS_DIR", tmp_path))
    base = server.url
    ana, bo = ana_and_bo(browser, base)
    link = make_tournament(
        ana, base, "Same dice", "Duplicate", fills=[("Rounds (Swiss, duplicate)", "1")]
    )
    ana.get_by_role("button", name="Join", exact=True).click()
    expect(ana.locator("#t-you")).to_contain_text("You are in.")
    bo.goto(link)
    bo.get_by_role("button", name="Join", exact=True).click()
    expect(standings_row(ana, "Bo")).to_be_visible()
    # Bo's tab is in the background when his game starts: the tab says so, and opens the game
    # once he looks at it again.
    bo.evaluate(HIDE_TAB)
    ana.get_by_role("button", name="Start now").click()
    expect(bo).to_have_title(re.compile(r"^\(Your turn\) "))
    expect(bo.locator("#t-your-game")).to_contain_text("Your game starts now: open it")
    assert "/tournament/" in bo.url
    bo.evaluate(SHOW_TAB)
    faces = []
    for page in (ana, bo):
        expect(page).to_have_url(GAME_PAGE)
        expect(page.locator("#tournament-game")).to_contain_text("round 1")
        page.locator("#roll-button").click()
        dice = page.locator("#dice .die[aria-label^='Die']")
        expect(dice.first).to_have_attribute("aria-label", re.compile(r"^Die 1: \d"))
        faces.append([dice.nth(i).get_attribute("aria-label") for i in range(5)])
    assert faces[0] == faces[1], faces  # the same seed: the same faces for the same holds
    shoot(bo, shots, "duplicate-game-en")


WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_tournament_pages_have_no_wcag_21_aa_violation(browser, base, language, viewport):
    """axe-core on the list, the form (and a refused one), a tournament's page before and after
    its start, and a tournament game's page with its panel."""
    from axe_playwright_python.sync_playwright import Axe

    from lobby.models import Player
    from tournaments import services
    from tournaments.models import Tournament

    context = browser.new_context(
        viewport=viewport, extra_http_headers={"Accept-Language": language}
    )
    page = context.new_page()
    found: dict[str, list] = {}

    def check(name: str) -> None:
        broken = Axe().run(page, options=WCAG_21_AA).response["violations"]
        if broken:
            found[name] = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in broken]

    words = LOBBY_WORDS["es-ES" if language == "es" else "en-GB"]
    go_online(page, base, "Ana", words)
    go_online(browser.new_context().new_page(), base, "Bo")
    page.goto(base + "/tournaments/new/")
    check("new")
    page.locator("#id_start_1").check()
    page.locator("form#new-tournament button[type=submit]").click()
    check("new, refused")
    page.locator("#id_name").fill("Axe night")
    page.locator("#id_start_0").check()
    page.locator("form#new-tournament button[type=submit]").click()
    expect(page.get_by_role("heading", name="Axe night")).to_be_visible()
    tournament_id = page.url.rstrip("/").rsplit("/", 1)[1]
    services.join(tournament_id, Player.objects.get(name="Bo").visitor)
    page.reload()
    check("upcoming")
    page.locator("#t-controls form[action$='/join/'] button").click()
    expect(page.locator("#standings tbody tr")).to_have_count(2)
    services.start_now(tournament_id, Tournament.objects.get(pk=tournament_id).maker.visitor)
    page.reload()
    check("under way")
    page.goto(base + "/tournaments/")
    check("list")
    page.goto(base + page.locator("a.tournament-card").first.get_attribute("href"))
    page.locator("#t-you a.button").click()
    expect(page.locator("#tournament-game")).to_be_visible()
    check("game with its tournament")
    assert found == {}
