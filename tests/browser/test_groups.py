"""A group as two people see it in two browsers: Ana makes it and shares its invite link; Bo,
who has no profile (and reads Spanish), opens the link, chooses a name and joins in one go; Ana
sees him online on her page without reloading it; she opens a table for the group and Bo, told
on his page, takes a seat at it."""

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


def test_a_group_joined_by_its_invite_link_and_a_table_for_it(browser, server):
    ana = browser.new_context(locale="en-GB").new_page()
    bo = browser.new_context(locale="es-ES").new_page()
    go_online(ana, server.url, "Ana")
    ana.get_by_role("link", name="Groups").click()
    ana.get_by_label("Name").fill("Friday dice")
    ana.get_by_label("Description (optional)").fill("Yahtzee on Fridays")
    ana.get_by_role("button", name="Make the group").click()
    expect(ana.get_by_role("heading", name="Friday dice")).to_be_visible()
    expect(ana.locator("#members")).to_contain_text("1 member, 1 online now")
    link = ana.get_by_role("textbox", name="Invite link").input_value()
    assert re.fullmatch(rf"{re.escape(server.url)}/groups/join/[A-Z0-9]{{8}}/", link)
    expect(ana.get_by_role("img", name="QR code of the invite link")).to_be_visible()

    # Bo has no profile: the invite asks his name first, and one tap makes it and joins.
    bo.goto(link)
    expect(bo.get_by_role("heading", name="Unirte a Friday dice")).to_be_visible()
    bo.get_by_label("Tu nombre").fill("Bo")
    bo.get_by_role("button", name="Unirme al grupo").click()
    expect(bo.get_by_role("heading", name="Friday dice")).to_be_visible()
    expect(bo.locator("#members")).to_contain_text("2 miembros")

    # Ana's page, not reloaded, shows Bo joined and online.
    expect(ana.locator("#members")).to_contain_text("2 members, 2 online now")
    bo_line = ana.locator("#members li").filter(has_text="Bo")
    expect(bo_line).to_contain_text("online now")
    expect(bo_line.locator(".dot.online")).to_have_count(1)

    # A table for the group: Bo's page is told, and he takes a seat from it.
    ana.get_by_role("button", name="Open a table for the group").click()
    expect(ana.get_by_text("A table for the group")).to_be_visible()
    expect(bo.locator("#group-tables")).to_contain_text("Mesa de Ana (1 de 6)")
    bo.get_by_role("button", name="Unirte a la mesa de Ana").click()
    expect(bo.get_by_role("heading", name="Mesa privada")).to_be_visible()
    expect(ana.locator("#seats")).to_contain_text("Bo")  # pushed to Ana's table page
    expect(ana.get_by_role("button", name="Start the game")).to_be_enabled()
