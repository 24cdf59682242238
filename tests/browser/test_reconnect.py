"""The server restarts under open pages: they say "Reconnecting…", are back within seconds and
catch up; a move tapped while the server is down says so and is applied once when it is back."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.online import count_moves, go_online, wait_until
from tests.servers import Server

RECONNECTING = "Reconnecting…"
UNREACHABLE = re.compile("^Can't reach the server")
NOT_TAKEN = "Waiting for the server: your first move will be sent; tap again when it is back."
# The pages try again more slowly each time, up to every 0.75-1.5 s from the fourth try on
# (game.js): the server stays down until each page has tried that often, as in the report of a
# 10 s restart (issue #14), where the backoff had grown.
TRIES_DOWN = 5


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def start_online_game(browser, base: str) -> tuple[Page, Page]:
    """Ana challenges Bo, Bo accepts; back once both pages are live (Ana moves first)."""
    ana = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    go_online(ana, base, "Ana")
    go_online(bo, base, "Bo")
    ana.get_by_role("button", name="Challenge Bo").click()
    bo.get_by_role("button", name="Accept").click()
    # Each is shown "here" to the other only once the other's game page has connected its socket.
    expect(ana.get_by_role("list", name="Players")).to_contain_text("Bo: here")
    expect(bo.get_by_role("list", name="Players")).to_contain_text("Ana: here")
    for page in (ana, bo):
        # The first connection of a page is not a reconnection: nothing is said.
        expect(page.get_by_text(RECONNECTING)).to_be_hidden()
    return ana, bo


def socket_frames(page: Page) -> list[float]:
    """When the page's game sockets received each frame (time.monotonic())."""
    arrivals: list[float] = []

    def on_socket(socket) -> None:
        if "/ws/game/" in socket.url:
            socket.on("framereceived", lambda _payload: arrivals.append(time.monotonic()))

    page.on("websocket", on_socket)
    return arrivals


def dice_shown(page: Page) -> list[str | None]:
    """The five dice as a screen reader reads them ("Die 1: 4, held")."""
    return [die.get_attribute("aria-label") for die in page.locator("#dice .die").all()]


def test_a_restart_says_reconnecting_and_the_page_is_back_within_seconds(browser, server):
    ana, bo = start_online_game(browser, server.url)
    frames = socket_frames(bo)
    tries = {page: [] for page in (ana, bo)}
    for page, tried in tries.items():
        page.on("websocket", lambda socket, tried=tried: tried.append(socket))
    server.kill()
    killed = time.monotonic()
    for page in (ana, bo):
        expect(page.get_by_role("status").get_by_text(RECONNECTING)).to_be_visible(timeout=3000)
    wait_until(
        bo, lambda: all(len(tried) >= TRIES_DOWN for tried in tries.values()), "the pages' tries"
    )
    down = time.monotonic() - killed
    server.start()
    # The server accepts connections from about here (start() polls the port every 0.1 s, so a
    # page may be back a moment before it returns: a figure just under 0 is possible).
    started = time.monotonic()
    expect(bo.get_by_text(RECONNECTING)).to_be_hidden(timeout=10_000)
    notice_gone = time.monotonic() - started
    # The server sends a page that connects the game as it is: its first frame (when Playwright
    # saw it: in two full runs of this session it reported none, though the page was live again: the
    # page's own notice and the push below are what is asserted).
    back = [t - started for t in frames if t > killed]
    first = f"{back[0]:.2f} s" if back else "not seen"
    print(f"\nafter {down:.1f} s down: first frame {first} after the server was up, "
          f"notice gone after {notice_gone:.2f} s")  # fmt: skip
    assert notice_gone < 5  # about 2 s at worst; generous against a busy machine
    expect(ana.get_by_text(RECONNECTING)).to_be_hidden(timeout=5000)

    # The opponent's move after the restart reaches Bo's page without a reload.
    ana.get_by_role("button", name="Roll", exact=True).click()
    expect(bo.locator("#messages")).to_contain_text("Ana rolled")
    # Nobody is shown away: both pages came back within the presence window.
    for page in (ana, bo):
        expect(page.get_by_text(re.compile(r"(Ana|Bo) is away\."))).to_have_count(0)
    expect(bo.get_by_role("list", name="Players")).to_contain_text("Bo: here")


def test_a_roll_tapped_while_the_server_is_down_is_applied_once_it_is_back(browser, server):
    ana, bo = start_online_game(browser, server.url)
    over_socket, posted = [], []
    count_moves(ana, over_socket, posted)
    server.kill()
    expect(ana.get_by_text(RECONNECTING)).to_be_visible(timeout=3000)
    ana.get_by_role("button", name="Roll", exact=True).click()
    # Said at once, where the page says it is reconnecting.
    expect(ana.get_by_role("status").get_by_text(UNREACHABLE)).to_be_visible(timeout=1000)
    expect(ana.get_by_role("button", name="Roll", exact=True)).to_be_visible()
    time.sleep(4)  # longer than the page waits for an answer: nothing is lost or doubled meanwhile
    server.start()
    roll_again = ana.get_by_role("button", name="Roll again (2 left)")
    expect(roll_again).to_be_visible(timeout=5000)
    expect(ana.get_by_text(UNREACHABLE)).to_be_hidden()
    expect(ana.get_by_text(RECONNECTING)).to_be_hidden()
    expect(ana.locator("#messages")).to_contain_text("You rolled")
    expect(ana.locator("#messages .error")).to_have_count(0)  # applied, not refused
    expect(bo.locator("#messages")).to_contain_text("Ana rolled", timeout=5000)
    dice = dice_shown(ana)
    # Well past the page's answer wait: still the one roll, on both pages.
    ana.wait_for_timeout(4000)
    expect(roll_again).to_be_visible()
    expect(bo.get_by_role("list", name="Players")).to_contain_text("Ana: here")
    # What the server stored: one roll, the dice the page showed.
    ana.reload()
    expect(roll_again).to_be_visible()
    assert dice_shown(ana) == dice
    # The tap was posted once (and failed); it was sent again once, when the server was back.
    assert len(posted) + len(over_socket) == 2, (posted, over_socket)


def test_a_hold_then_a_roll_tapped_while_the_server_is_down(browser, server):
    """Only the first move made while the server is gone is kept: the roll tapped after it was
    chosen on a page that did not show the hold, and would go with the holds as they were (once
    refused with "the held dice changed in another window"). The page says so when it is tapped,
    rather than losing it without a word. The hold is applied once the server is back, nothing
    is refused, and the player rolls from the page as it is."""
    ana, _bo = start_online_game(browser, server.url)
    ana.get_by_role("button", name="Roll", exact=True).click()
    roll_again = ana.get_by_role("button", name="Roll again (2 left)")
    expect(roll_again).to_be_visible()
    server.kill()
    expect(ana.get_by_text(RECONNECTING)).to_be_visible(timeout=3000)
    ana.locator("#die-1").click()
    expect(ana.get_by_role("status").get_by_text(UNREACHABLE)).to_be_visible(timeout=1000)
    ana.locator("#die-1").click()  # the same move again: it is the one kept
    expect(ana.get_by_role("status").get_by_text(UNREACHABLE)).to_be_visible()
    roll_again.click()
    expect(ana.get_by_role("status").get_by_text(NOT_TAKEN)).to_be_visible(timeout=1000)
    expect(ana.get_by_text(UNREACHABLE)).to_be_hidden()  # one line at a time
    server.start()
    expect(ana.locator("#die-1")).to_have_attribute("aria-pressed", "true", timeout=5000)
    expect(ana.get_by_text(UNREACHABLE)).to_be_hidden()
    expect(ana.get_by_text(NOT_TAKEN)).to_be_hidden()
    ana.wait_for_timeout(3000)  # the roll is not sent after all, late
    expect(roll_again).to_be_visible()
    expect(ana.locator("#messages .error")).to_have_count(0)
    roll_again.click()
    expect(ana.get_by_role("button", name="Roll again (1 left)")).to_be_visible()
    expect(ana.locator("#die-1")).to_have_attribute("aria-pressed", "true")


def test_lobby_and_table_pages_say_reconnecting(browser, server):
    ana = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    go_online(ana, server.url, "Ana")
    go_online(bo, server.url, "Bo")
    ana.get_by_role("button", name="Open a table").click()
    expect(ana.get_by_role("heading", name="Players (1 of 6)")).to_be_visible()
    expect(bo.get_by_role("button", name="Challenge Ana")).to_be_visible()  # both sockets are up
    server.kill()
    for page in (ana, bo):
        expect(page.get_by_role("status").get_by_text(RECONNECTING)).to_be_visible(timeout=3000)
    server.start()
    for page in (ana, bo):
        expect(page.get_by_text(RECONNECTING)).to_be_hidden(timeout=5000)
    # Back live: Bo joins Ana's table and she sees it without a reload.
    code = ana.locator(".code strong").inner_text()
    bo.goto(f"{server.url}/t/{code}/")
    bo.get_by_role("button", name="Join this table").click()
    expect(ana.get_by_role("heading", name="Players (2 of 6)")).to_be_visible()


def test_a_solo_roll_tapped_while_the_server_is_down_is_posted_once_it_is_back(page, server):
    """A game without a socket: the page tries the post again until the server answers."""
    over_socket, posted = [], []
    count_moves(page, over_socket, posted)
    page.goto(server.url + "/")
    page.get_by_role("button", name="Start a new game").click()
    expect(page.get_by_role("heading", name="Round 1 of 13")).to_be_visible()
    server.kill()
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.get_by_role("status").get_by_text(UNREACHABLE)).to_be_visible(timeout=1000)
    expect(page.get_by_text(RECONNECTING)).to_be_hidden()  # it has no socket to reconnect
    server.start()
    roll_again = page.get_by_role("button", name="Roll again (2 left)")
    expect(roll_again).to_be_visible(timeout=5000)
    expect(page.get_by_text(UNREACHABLE)).to_be_hidden()
    expect(page.locator("#messages .error")).to_have_count(0)
    page.reload()
    expect(roll_again).to_be_visible()
    assert not over_socket and all(r.url.endswith("/roll/") for r in posted)
