"""A turn timer running out in the browser: the player waits, the server plays their turn."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.online import go_online
from tests.servers import Server

ROLL = re.compile(r"^(Roll|Roll again \(\d left\))$")


@pytest.fixture
def server(tmp_path):
    # The timers run three times as fast (a 30 s turn lasts 10 s: settings.TURN_TIMER_SPEED, as
    # PLAYBACK_SPEED speeds up playback), and the server sweeps every half second.
    server = Server(tmp_path)
    server.env |= {"TURN_TIMER_SPEED": "3", "TURN_SWEEP_SECONDS": "0.5"}
    with server as running:
        yield running


def test_a_turn_left_to_run_out_is_played_by_the_server(browser, server):
    base = server.url
    ana = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    go_online(ana, base, "Ana")
    go_online(bo, base, "Bo")
    ana.get_by_role("button", name="Open a table").click()
    code = ana.locator(".code strong").inner_text()
    bo.goto(f"{base}/t/{code}/")
    bo.get_by_role("button", name="Join this table").click()
    ana.get_by_label("Turn timer").select_option(label="30 seconds a turn")
    ana.get_by_role("button", name="Start the game").click()
    expect(ana).to_have_url(re.compile(r"/game/"))
    expect(bo).to_have_url(re.compile(r"/game/"))
    # Both see the clock of Ana's turn; Ana does nothing.
    for page in (ana, bo):
        expect(page.get_by_role("timer")).to_contain_text("Time left for this turn:")
    expect(ana.get_by_role("button", name=ROLL)).to_be_visible()
    # The server plays it (the beginner computer's moves), both pages are redrawn, and it is Bo's
    # turn with a fresh clock.
    expect(bo.locator("#messages")).to_contain_text("Ana ran out of time.", timeout=20_000)
    expect(ana.locator("#messages")).to_contain_text(re.compile(r"Time ran out: \d+ points? in"))
    expect(bo.get_by_role("button", name=ROLL)).to_be_visible()
    expect(ana.get_by_role("button", name=ROLL)).to_have_count(0)
    expect(bo.locator(".whose-turn")).to_have_text("Bo, your turn")
    left = bo.get_by_role("timer").locator(".countdown")
    expect(left).to_have_text(re.compile(r"^0:(0[1-9]|10)$"))
