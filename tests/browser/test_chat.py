"""Two people chatting at an online game in two browsers, one in English and one in Spanish,
against the real ASGI server: each sees the other's lines live (issue 19)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.online import go_online, start_online_game
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
    expect(ana.get_by_role("textbox", name="Message")).to_have_value("<b>loud</b>")  # to mend
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


def test_what_is_typed_right_after_sending_is_kept(browser, server):
    """The answer to a line must not redraw the box under the typist: "race 2" typed straight
    after Enter arrived as "ace 2", and a line sent while the last was on its way was lost."""
    ana, bo = (browser.new_context().new_page() for _ in range(2))
    start_online_game(ana, bo, server.url)
    box = ana.get_by_role("textbox", name="Message")
    sent = []

    def typing_meanwhile(route) -> None:
        sent.append(route.request.post_data)
        if len(sent) == 1:  # "race 1": its answer comes as the next line's first letter is typed
            answer = route.fetch()
            box.press_sequentially("r")
            route.fulfill(response=answer)
        elif len(sent) == 3:  # "race 3": the next line is typed and sent while it is on its way
            box.press_sequentially("race 4")
            box.press("Enter")
            route.continue_()
        else:
            route.continue_()

    ana.route("**/chat/", typing_meanwhile)
    box.press_sequentially("race 1")
    box.press("Enter")
    expect(ana.get_by_role("log")).to_contain_text("Ana: race 1")
    # The log may show it from the socket's push before its answer: wait for the "r" typed then.
    expect(box).to_have_value("r")
    box.press_sequentially("ace 2")
    box.press("Enter")
    expect(bo.get_by_role("log")).to_contain_text("Ana: race 2")
    box.press_sequentially("race 3")
    box.press("Enter")
    for page in (ana, bo):
        lines = page.get_by_role("log").get_by_role("listitem")
        expect(lines).to_have_text(["Ana: race 1", "Ana: race 2", "Ana: race 3", "Ana: race 4"])
    expect(box).to_have_value("")
    expect(box).to_be_focused()


def test_a_line_that_never_reached_the_server_comes_back_into_the_box(browser, server):
    """Review of issue 29: a refused line came back to be mended, a lost one was gone."""
    ana, bo = (browser.new_context().new_page() for _ in range(2))
    start_online_game(ana, bo, server.url)
    box = ana.get_by_role("textbox", name="Message")
    ana.route("**/chat/", lambda route: route.abort("internetdisconnected"))
    box.press_sequentially("see you at eight")
    box.press("Enter")
    expect(box).to_have_value("see you at eight")
    ana.unroute("**/chat/")
    box.press("Enter")
    expect(bo.get_by_role("log")).to_contain_text("Ana: see you at eight")
    expect(box).to_have_value("")
