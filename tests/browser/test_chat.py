"""Two people chatting at an online game in two browsers, one in English and one in Spanish,
against the real ASGI server: each sees the other's lines live (issue 19)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.online import go_online
from tests.servers import Server


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def test_two_players_chat_live_in_their_languages(browser, server):
    base = server.url
    ana = browser.new_context(locale="en-US").new_page()
    bo_context = browser.new_context(locale="en-US")
    bo = bo_context.new_page()
    go_online(ana, base, "Ana")
    go_online(bo, base, "Bo")
    ana.get_by_role("button", name="Challenge Bo").click()
    expect(bo.get_by_text("Ana challenges you")).to_be_visible()
    bo.get_by_role("button", name="Accept").click()
    expect(bo.get_by_role("heading", name="Round 1 of 13")).to_be_visible()
    expect(ana.get_by_role("heading", name="Round 1 of 13")).to_be_visible()  # sent on live
    # Bo reads the site in Spanish from now on (as the language button leaves it).
    bo_context.add_cookies([{"name": "django_language", "value": "es", "url": base}])
    bo.reload()
    expect(bo.get_by_role("heading", name="Ronda 1 de 13")).to_be_visible()

    ana.get_by_role("button", name="Good luck!").click()
    ana_log, bo_log = ana.get_by_role("log"), bo.get_by_role("log")
    expect(bo_log).to_contain_text("Ana: ¡Buena suerte!")  # the phrase, in Bo's language
    expect(ana_log).to_contain_text("Ana: Good luck!")

    bo.get_by_role("textbox", name="Mensaje").fill("¡Igualmente! <3")
    bo.get_by_role("button", name="Enviar").click()
    expect(ana_log).to_contain_text("Bo: ¡Igualmente! <3")  # shown as text, live
    expect(bo_log).to_contain_text("Bo: ¡Igualmente! <3")
    expect(bo.get_by_role("textbox", name="Mensaje")).to_have_value("")  # ready for the next line

    # Markup is refused with a clear message, and nothing is said.
    ana.get_by_role("textbox", name="Message").fill("<b>loud</b>")
    ana.get_by_role("button", name="Send").click()
    expect(ana.get_by_role("alert")).to_contain_text("Messages are plain text")
    expect(bo_log).not_to_contain_text("loud")

    # A watcher reads the chat but has no form to write in.
    watcher = browser.new_context(locale="en-US").new_page()
    watcher.goto(ana.url)
    expect(watcher.get_by_role("log")).to_contain_text("Bo: ¡Igualmente! <3")
    expect(watcher.get_by_role("textbox", name="Message")).to_have_count(0)

    # Ana mutes Bo: Bo's next line reaches the watcher, not Ana.
    ana.get_by_text("Chat settings").click()
    ana.get_by_role("button", name="Mute Bo").click()
    expect(ana.get_by_role("button", name="Unmute Bo")).to_be_visible()
    expect(ana.get_by_role("log")).not_to_contain_text("Igualmente")
    bo.get_by_role("button", name="Bien jugado").click()
    expect(watcher.get_by_role("log")).to_contain_text("Bo: Well played")
    expect(ana.get_by_role("log")).not_to_contain_text("Bo:")

    # Bo switches chat off: the panel folds to one line, which turns it on again.
    bo.get_by_text("Ajustes del chat").click()
    bo.get_by_role("button", name="Desactivar el chat").click()
    expect(bo.get_by_text("El chat está desactivado")).to_be_visible()
    bo.get_by_role("button", name="Activar").click()
    expect(bo.get_by_role("log")).to_contain_text("Ana: ¡Buena suerte!")
