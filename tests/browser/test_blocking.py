"""Blocks and favourites as people see them: a favourite comes first in the lobby, marked; a
block from a profile page takes each player out of the other's lobby, live, and an unblock from
one's own profile brings them back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.online import go_online
from tests.servers import Server


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def test_favourite_first_then_block_from_a_profile_and_unblock_from_ones_own(
    browser, server, tmp_path
):
    ana_browser = browser.new_context(viewport={"width": 1366, "height": 768})
    ana = ana_browser.new_page()
    bo = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    cy = browser.new_context().new_page()
    for page, name in ((bo, "Bo"), (cy, "Cy"), (ana, "Ana")):
        go_online(page, server.url, name)
    names = ana.locator(".online-list .name")
    expect(names).to_have_text(["Bo", "Cy"])

    ana.locator(".online-list").get_by_role("link", name="Cy").click()
    ana.get_by_role("button", name="Add to favourites").click()
    expect(ana.locator(".told")).to_have_text("Cy is one of your favourites now.")
    ana.goto(server.url + "/online/")
    expect(names).to_have_text(["Cy", "Bo"])
    expect(
        ana.locator(".online-list li").first.get_by_role("img", name="Favourite")
    ).to_be_visible()
    favourites = ana.locator(".favourites-list li")
    expect(favourites).to_have_text(["Cy online now"])
    ana.screenshot(path=tmp_path / "favourites.png", full_page=True)

    # A second tab keeps Ana in the lobby (online) while the first is on Bo's profile.
    ana_lobby = ana_browser.new_page()
    ana_lobby.goto(server.url + "/online/")
    expect(bo.locator(".online-list .name")).to_have_text(["Ana", "Cy"])
    ana.locator(".online-list").get_by_role("link", name="Bo").click()
    ana.get_by_role("button", name="Block Bo").click()
    expect(ana.locator(".told")).to_contain_text("You blocked Bo")
    expect(ana.get_by_role("button", name="Unblock Bo")).to_be_visible()
    # Bo's lobby, open all along, loses Ana at once (a live redraw); Cy still sees both.
    expect(bo.locator(".online-list .name")).to_have_text(["Cy"])
    expect(ana_lobby.locator(".online-list .name")).to_have_text(["Cy"])
    expect(cy.locator(".online-list .name")).to_have_text(["Ana", "Bo"])

    ana.get_by_role("link", name="Profile", exact=True).click()
    blocked = ana.locator("#people li")
    expect(blocked.filter(has_text="Bo")).to_have_count(1)
    ana.get_by_role("button", name="Unblock Bo").click()
    expect(ana.locator(".told")).to_have_text("You unblocked Bo.")
    expect(ana.get_by_text("You have blocked nobody.")).to_be_visible()
    expect(bo.locator(".online-list .name")).to_have_text(["Ana", "Cy"])
    ana.goto(server.url + "/online/")
    expect(names).to_have_text(["Cy", "Bo"])
