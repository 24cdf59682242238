"""No "Applying inline style violates style-src" after a chat line or a replay step (issue 29).

A screenshot of the page (Playwright hides the caret for it) leaves an empty style attribute on
the focused element, as browser extensions leave theirs on inputs. htmx's swap copied a replaced
element's style attribute onto its new copy, which the site's Content Security Policy refuses:
one error in the console for each chat line sent and each replay step taken.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser.online import start_online_game
from tests.factories import finished_table
from tests.servers import Server


def refused_styles(page: Page) -> list[str]:
    """Every console line of the page from now on that says its policy refused something."""
    refused: list[str] = []

    def watch(message) -> None:
        if "Content Security Policy" in message.text or "style-src" in message.text:
            refused.append(message.text)

    page.on("console", watch)
    return refused


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def test_chat_lines_sent_while_looking_at_the_page_break_no_policy(browser, server, tmp_path):
    ana = browser.new_context(locale="en-US").new_page()
    bo = browser.new_context(locale="en-US").new_page()
    start_online_game(ana, bo, server.url)
    refused = refused_styles(ana)
    for line in ("race 1", "race 2", "race 3"):
        message = ana.get_by_role("textbox", name="Message")
        message.fill(line)
        ana.screenshot(path=tmp_path / "chat.png")  # a look at the page before sending
        ana.get_by_role("button", name="Send").click()
        expect(bo.get_by_role("log")).to_contain_text(f"Ana: {line}")
        expect(ana.get_by_role("log")).to_contain_text(f"Ana: {line}")
    assert refused == []


@pytest.mark.django_db(transaction=True)
def test_replay_steps_taken_while_looking_at_the_page_break_no_policy(page: Page, base, tmp_path):
    game = finished_table()
    Game.objects.filter(pk=game.pk).update(shared=True)
    refused = refused_styles(page)
    page.goto(f"{base}/game/{game.id}/replay/?at=0")
    for n in range(1, 5):
        page.get_by_role("link", name=re.compile("Next")).focus()
        page.screenshot(path=tmp_path / "replay.png")
        page.get_by_role("link", name=re.compile("Next")).click()
        expect(page.locator(".position-line")).to_contain_text(f"Position {n} of")
    assert refused == []
