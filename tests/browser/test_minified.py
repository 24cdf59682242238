"""The site as a host serves it: collected, hashed, compressed, its own scripts and stylesheets
minified (backends/staticfiles.py). The other browser tests use the files as written."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.online import start_online_game
from tests.servers import ROOT, Server

ROLL = re.compile(r"^(Roll|Roll again \(\d left\))$")


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path)
    server.env["STATIC_MANIFEST"] = "1"
    collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    subprocess.run(collect, cwd=ROOT, env=server.env, check=True, capture_output=True)
    with server:
        yield server


def test_an_online_turn_with_the_minified_scripts(browser, server):
    ana, bo = (browser.new_context().new_page() for _ in range(2))
    errors = []  # an exception thrown by a script (a minifier's mistake would be one)
    for page in (ana, bo):
        page.on("pageerror", lambda error: errors.append(str(error)))
    start_online_game(ana, bo, server.url)
    src = ana.locator("script[src*='/js/game.']").get_attribute("src")
    assert re.fullmatch(r"/static/js/game\.[0-9a-f]+\.js", src)  # hashed: collected
    game_js = ana.request.get(server.url + src).text()
    assert "\n//" not in game_js and "RECONNECT_CAP_MS" in game_js
    # Keys (page.js), moves over the socket and pushes (game.js), all from the minified files.
    ana.keyboard.press("r")
    expect(bo.locator("#messages")).to_contain_text("Ana rolled")
    expect(ana.locator("#messages")).to_contain_text("You rolled")  # her dice can be held now
    ana.keyboard.press("1")
    expect(bo.locator("#dice .die.held")).to_have_count(1)
    ana.get_by_role("link", name=re.compile("would score")).first.click()
    ana.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
    expect(bo.locator("#messages")).to_contain_text(re.compile(r"Ana scored \d+ points?"))
    expect(bo.get_by_role("button", name=ROLL)).to_be_visible()
    cells = "#card th, #card td"
    expect(bo.locator(cells)).to_have_text(ana.locator(cells).all_text_contents())
    assert not errors
