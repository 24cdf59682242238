"""A person going online in a browser, and the moves a page sends."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests import waiting

MOVE_URL = re.compile(r"/game/[\w-]+/(roll|hold|score)/$")


PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
# What the lobby's name form says, by language: a test's own table of words adds to these.
LOBBY_WORDS = {
    "en-GB": {"name": "Your name", "go": "Go online", "online": "You are online as {}"},
    "es-ES": {"name": "Tu nombre", "go": "Conectarse", "online": "Estás en línea como {}"},
}


def go_online(page: Page, base: str, name: str, words: dict = LOBBY_WORDS["en-GB"]) -> None:
    page.goto(base + "/online/")
    page.get_by_label(words["name"]).fill(name)
    page.get_by_role("button", name=words["go"]).click()
    expect(page.get_by_role("heading", name=words["online"].format(name))).to_be_visible()


def start_online_game(ana: Page, bo: Page, base: str) -> None:
    """Ana and Bo go online, Ana challenges Bo, Bo accepts: both on the game's first round."""
    go_online(ana, base, "Ana")
    go_online(bo, base, "Bo")
    ana.get_by_role("button", name="Challenge Bo").click()
    bo.get_by_role("button", name="Accept").click()
    for page in (ana, bo):
        expect(page.get_by_role("heading", name="Round 1 of 13")).to_be_visible()


def count_moves(page: Page, over_socket: list, posted: list) -> None:
    """Record each move the page sends: over its game socket (as JSON) or posted over HTTP."""

    def on_socket(socket) -> None:
        def on_frame(payload) -> None:
            if isinstance(payload, str) and '"move"' in payload:
                over_socket.append(payload)

        socket.on("framesent", on_frame)

    page.on("websocket", on_socket)
    page.on("request", lambda r: MOVE_URL.search(r.url) and r.method == "POST" and posted.append(r))


def wait_until(page: Page, condition: Callable[[], object], what: str, timeout: float = 15) -> None:
    """Wait, up to a deadline, for a condition on what Playwright reports (sockets a page opened,
    requests a route holds): its events arrive only while Playwright is called, so poll with a
    short wait on a page."""
    waiting.wait_until(condition, what, timeout, pause=lambda: page.wait_for_timeout(50))


def play_a_turn_by_keys(page: Page) -> list[str]:
    """Roll, hold a die, roll again, go to the first open box, pick it, score: keys only."""
    pressed: list[str] = []

    def press(key: str) -> None:
        pressed.append(key)
        page.keyboard.press(key)

    roll = page.locator("#roll-button")
    rolls_before = roll.inner_text()
    press("r")
    expect(roll).not_to_have_text(rolls_before)
    press("1")
    expect(page.locator("#die-0")).to_have_attribute("aria-pressed", "true")
    rolls_before = roll.inner_text()
    press("r")
    expect(roll).not_to_have_text(rolls_before)
    press("ArrowDown")
    first_box = page.get_by_role("link", name=re.compile("would score")).first
    expect(first_box).to_be_focused()
    press("Enter")
    expect(page.get_by_role("button", name=re.compile(r"^Score \d+$"))).to_be_focused()
    press("Enter")
    return pressed
