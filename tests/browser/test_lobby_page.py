"""The lobby and a table page as a person sees them: countdowns, a declined challenge, a refused
name, the table's link to share."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.online import go_online
from tests.servers import Server


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def test_a_challenge_counts_down_and_its_decline_is_told(browser, server):
    ana = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    go_online(ana, server.url, "Ana")
    go_online(bo, server.url, "Bo")
    ana.get_by_role("button", name="Challenge Bo").click()
    countdown = ana.locator("#challenges .countdown")
    expect(countdown).to_have_text(re.compile(r"^[12]:\d\d$"))
    first = countdown.inner_text()
    expect(countdown).not_to_have_text(first, timeout=3000)  # it ticks
    expect(bo.get_by_text("Ana challenges you")).to_be_visible()
    bo.get_by_role("button", name="Decline").click()
    expect(ana.get_by_text("Bo declined your challenge.")).to_be_visible()  # pushed, no reload
    expect(ana.get_by_text("Waiting for Bo to answer")).to_have_count(0)


def test_a_refused_name_looks_like_an_error_and_stays_to_correct(browser, server):
    go_online(browser.new_context().new_page(), server.url, "Ana")
    page = browser.new_context().new_page()
    page.goto(server.url + "/online/")
    page.get_by_label("Your name").fill("ana")
    page.get_by_role("button", name="Go online").click()
    error = page.get_by_role("alert")
    expect(error).to_have_text(re.compile("already called that"))
    # Styled as the game page's refusals: the red-tinted box, not plain text.
    assert error.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(253, 236, 234)"
    expect(page.get_by_label("Your name")).to_have_value("ana")


def test_the_table_link_is_copied_with_one_tap(browser, server):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    go_online(page, server.url, "Ana")
    page.get_by_role("button", name="Open a table").click()
    link = page.get_by_label("Link to this table").input_value()
    assert re.search(r"/t/\w+/$", link)
    page.get_by_role("button", name=re.compile("^(Copy|Share) link$")).click()
    expect(page.get_by_role("status").filter(has_text="Link copied.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link


def test_after_a_challenge_the_online_list_stays_and_goes_on_updating(browser, server):
    """The lobby's push of the new challenge can come before the answer to the Challenge button
    (3 times in 4 by hand): here it always does, the answer held until the push is shown. The
    list of who is online stays, and later arrivals still come into it."""
    ana = browser.new_context().new_page()
    errors: list[str] = []
    ana.on("console", lambda message: message.type == "error" and errors.append(message.text))
    go_online(ana, server.url, "Ana")
    go_online(browser.new_context().new_page(), server.url, "Bo")

    def answer_after_the_push(route) -> None:
        answer = route.fetch()
        expect(ana.get_by_text("Waiting for Bo to answer")).to_be_visible()  # pushed
        route.fulfill(response=answer)

    ana.route("**/online/challenge/", answer_after_the_push)
    with ana.expect_request_finished(lambda request: "/online/challenge/" in request.url):
        ana.get_by_role("button", name="Challenge Bo").click()
    expect(ana.get_by_text("Waiting for Bo to answer")).to_be_visible()
    expect(ana.get_by_role("button", name="Challenge Bo")).to_be_visible()
    go_online(browser.new_context().new_page(), server.url, "Cy")
    expect(ana.get_by_role("button", name="Challenge Cy")).to_be_visible()  # pushed, no reload
    assert not [error for error in errors if "oobErrorNoTarget" in error]


def test_a_started_game_is_opened_once_however_the_lobby_changes_meanwhile(browser, server):
    """The pushed "your game has started" link is followed once: a change to the lobby while the
    game page is on its way (a countdown's tick, a pushed part) does not ask for it again, which
    cancelled the request under way: on a busy server the game page never came."""
    ana = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    go_online(ana, server.url, "Ana")
    go_online(bo, server.url, "Bo")
    asked = []
    ana.on("request", lambda r: r.is_navigation_request() and "/game/" in r.url and asked.append(r))
    ana.get_by_role("button", name="Challenge Bo").click()
    expect(ana.get_by_text("Waiting for Bo to answer")).to_be_visible()
    # Ana's lobby changes five times a second (as a countdown ticks, or a part is pushed)...
    ana.evaluate("setInterval(() => document.body.append(document.createElement('i')), 200)")
    # ...and each of her requests takes 2 s to answer, as from a server under load.
    slow = ana.context.new_cdp_session(ana)
    slow.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 2000, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    bo.get_by_role("button", name="Accept").click()
    expect(ana.get_by_role("heading", name="Round 1 of 13")).to_be_visible(timeout=15_000)
    assert len(asked) == 1
