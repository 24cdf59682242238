"""Profiles and diamonds as people see them: a second device joins a profile by its code and is
signed out again, and a diamond match moves the pot to the winner."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.online import go_online
from tests.servers import Server

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path)
    running.env["AWAY_GRACE_SECONDS"] = "0"
    with running:
        yield running


def test_a_second_device_joins_a_profile_by_its_code_and_is_signed_out(browser, server, tmp_path):
    laptop = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    go_online(laptop, server.url, "Ana")
    laptop.get_by_role("link", name="Profile", exact=True).click()
    expect(laptop.get_by_role("heading", name="Ana", exact=True)).to_be_visible()
    laptop.get_by_role("button", name="Make a code").click()
    code = laptop.locator("#devices .code strong").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{5}-[A-Z0-9]{5}", code)
    expect(laptop.get_by_role("img", name="QR code of the sign-in link")).to_be_visible()
    laptop.screenshot(path=tmp_path / "code.png", full_page=True)

    phone = browser.new_context(viewport=PHONE, locale="es-ES").new_page()
    phone.goto(server.url + "/")
    phone.get_by_role("link", name="Perfil", exact=True).click()
    phone.get_by_label("Código").fill(code.lower())
    phone.get_by_role("button", name="Entrar").click()
    expect(phone.locator(".told")).to_have_text("Este navegador ya es Ana.")
    expect(phone.get_by_role("heading", name="Ana", exact=True)).to_be_visible()
    phone.screenshot(path=tmp_path / "phone.png", full_page=True)

    laptop.goto(server.url + "/me/")
    expect(laptop.locator(".browsers li")).to_have_count(2)
    laptop.get_by_role("button", name="Sign out the other browsers").click()
    expect(laptop.locator(".told")).to_have_text("Signed out of 1 other browser.")
    phone.reload()  # Ana's page, as anyone sees it now: no devices of hers
    expect(phone.get_by_role("heading", name="Ana", exact=True)).to_be_visible()
    expect(phone.get_by_text("Usar en otro dispositivo")).to_have_count(0)
    phone.goto(server.url + "/me/")
    expect(phone.get_by_role("heading", name="¿Eres nuevo?")).to_be_visible()


def test_a_diamond_match_moves_the_pot_to_the_winner(browser, server):
    ana = browser.new_context(viewport=PHONE).new_page()
    bo_context = browser.new_context()
    bo = bo_context.new_page()
    go_online(ana, server.url, "Ana")
    go_online(bo, server.url, "Bo")
    expect(ana.get_by_text("You have 500 diamonds.")).to_be_visible()
    ana.get_by_label("Play for").select_option("50")
    ana.get_by_role("button", name="Challenge Bo").click()
    expect(ana.get_by_text("Waiting for Bo to answer (50 diamonds each)")).to_be_visible()
    expect(bo.get_by_text("Ana challenges you for 50 diamonds each")).to_be_visible()
    bo.get_by_role("button", name="Accept").click()
    expect(ana).to_have_url(re.compile(r"/game/[\w-]+/$"))
    bo_context.close()  # Bo goes; with no grace (the server's setting), Ana may end the game
    ana.get_by_role("button", name="End the game").click()
    expect(ana.get_by_text("You win!")).to_be_visible()
    ana.goto(server.url + "/me/")
    expect(ana.locator(".facts")).to_contain_text("550")
    expect(ana.get_by_role("link", name="Won the pot")).to_be_visible()
