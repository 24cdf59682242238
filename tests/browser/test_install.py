"""Installed on a phone: with the server gone, the service worker shows the offline page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.servers import Server


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def test_with_the_server_stopped_a_page_load_shows_the_offline_page(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(server.url + "/")
    page.get_by_role("button", name="Start a new game").click()
    game_page = page.url
    # The worker is installed and controls the page once it is ready (a reload hands it over).
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    server.kill()
    page.goto(game_page)
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(page.get_by_text("Your game is kept on the server")).to_be_visible()
    # Its styles came from the worker's cache: the page keeps the site's look.
    paper = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert paper == "rgb(251, 250, 247)"
    server.start()
    page.goto(game_page)
    expect(page.get_by_role("heading", name="Round 1 of 13")).to_be_visible()
    context.close()
