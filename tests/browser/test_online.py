"""Two people online in two browsers against the real ASGI server (WebSockets included)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.online import count_moves, go_online, play_a_turn_by_keys, start_online_game
from tests.servers import Server

ROLL = re.compile(r"^(Roll|Roll again \(\d left\))$")


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def take_turn(me: Page, other: Page, name: str, *, hold_by_keyboard: bool = False) -> None:
    """Roll, score the first open box; the other player sees each step without reloading."""
    roll = me.get_by_role("button", name=ROLL)
    expect(roll).to_have_text("Roll")
    roll.click()
    expect(other.locator("#messages")).to_contain_text(f"{name} rolled")
    expect(me.locator("#messages")).to_contain_text("You rolled")  # one's own move: "you"
    if hold_by_keyboard:
        # The answer redraws the dice: the focus stays on the die that was pressed.
        me.locator("#die-0").focus()
        me.keyboard.press("Enter")
        expect(me.locator("#die-0")).to_have_attribute("aria-pressed", "true")
        expect(me.locator("#die-0")).to_be_focused()
        expect(other.locator("#dice .die.held")).to_have_count(1)
        # Two more dice held in quick succession: both count.
        me.keyboard.press("2")
        me.keyboard.press("3")
        expect(me.locator("#dice .die.held")).to_have_count(3)
        expect(other.locator("#dice .die.held")).to_have_count(3)
    pick_and_score(me, other, name)


def pick_and_score(me: Page, other: Page, name: str) -> None:
    """Pick the first box offered and confirm; the other player sees the score."""
    me.get_by_role("link", name=re.compile("would score")).first.click()
    me.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
    expect(other.locator("#messages")).to_contain_text(re.compile(f"{name} scored \\d+ points?"))
    # The other page got only the changed rows: its card now reads as the mover's.
    expect(me.get_by_role("button", name=ROLL)).to_have_count(0)
    cells = "#card th, #card td"
    expect(other.locator(cells)).to_have_text(me.locator(cells).all_text_contents())


def test_challenge_play_a_whole_game_and_reconnect(browser, server):
    base = server.url
    ana = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    over_socket, posted = [], []
    for page in (ana, bo):
        count_moves(page, over_socket, posted)
    go_online(ana, base, "Ana")
    go_online(bo, base, "Bo")
    # Bo appears in Ana's lobby without a reload, and the challenge reaches Bo live.
    ana.get_by_role("button", name="Challenge Bo").click()
    expect(bo.get_by_text("Ana challenges you")).to_be_visible()
    bo.get_by_role("button", name="Accept").click()
    for page in (ana, bo):
        expect(page.get_by_role("heading", name="Round 1 of 13")).to_be_visible()
    game_url = ana.url
    assert bo.url == game_url

    for round_number in range(1, 14):
        if round_number == 2:
            # Ana's socket dies without closing (what sends into it is lost): her roll still
            # gets through, posted once the page has waited for an answer in vain.
            ana.evaluate(
                "() => { const socket = WebSocket.prototype;"
                " [socket.realSend, socket.send] = [socket.send, () => {}]; }"
            )
            ana.get_by_role("button", name=ROLL).click()
            expect(bo.locator("#messages")).to_contain_text("Ana rolled", timeout=10_000)
            ana.evaluate("() => { WebSocket.prototype.send = WebSocket.prototype.realSend; }")
            expect(ana.locator("#messages")).to_contain_text("You rolled")
            pick_and_score(ana, bo, "Ana")
        else:
            take_turn(ana, bo, "Ana", hold_by_keyboard=round_number == 1)
        if round_number == 5:
            # Bo closes the page mid-game; Ana sees Bo away; Bo reopens and carries on.
            context = bo.context
            bo.close()
            expect(ana.get_by_text("Bo is away.")).to_be_visible()
            # Within the grace period (2 minutes here) nobody can leave Bo out yet.
            expect(ana.get_by_role("button", name="Continue without Bo")).to_be_hidden()
            bo = context.new_page()
            count_moves(bo, over_socket, posted)
            bo.goto(game_url)
            expect(ana.get_by_text("Bo is away.")).to_be_hidden()
            expect(bo.get_by_text("Bo, your turn").first).to_be_visible()
        take_turn(bo, ana, "Bo")

    for page in (ana, bo):
        expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    # 26 turns of a roll and a score, and three holds: each sent once, over the open socket (a
    # page that has just loaded may post its first one before its socket is up; the roll sent
    # into the dead socket was posted).
    assert len(over_socket) + len(posted) == 55
    assert len(over_socket) >= 51 and len(posted) >= 1
    totals = [int(ana.locator(f"#total-{seat}").inner_text()) for seat in (0, 1)]
    assert totals == [int(bo.locator(f"#total-{seat}").inner_text()) for seat in (0, 1)]
    if totals[0] == totals[1]:
        expect(ana.get_by_text("A tie!")).to_be_visible()
    else:
        winner, loser = (ana, bo) if totals[0] > totals[1] else (bo, ana)
        expect(winner.get_by_text("You win!")).to_be_visible()
        name = "Ana" if winner is ana else "Bo"
        expect(loser.get_by_text(f"Winner: {name}")).to_be_visible()


def test_a_turn_by_keys_in_an_online_game(browser, server):
    base = server.url
    ana = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    over_socket, posted, heard = [], [], []
    count_moves(ana, over_socket, posted)
    ana.on("websocket", lambda socket: "/ws/game/" in socket.url
           and socket.on("framereceived", lambda frame: heard.append(frame)))  # fmt: skip
    start_online_game(ana, bo, base)
    for _ in range(100):  # the server greets a game socket with the game: Ana's is open
        if heard:
            break
        ana.wait_for_timeout(100)
    ana.locator("body").focus()
    assert len(play_a_turn_by_keys(ana)) == 6
    expect(bo.locator("#messages")).to_contain_text(re.compile("Ana scored \\d+ points?"))
    for _ in range(50):  # Playwright tells of the frames a page sent a little after they went
        if len(over_socket) + len(posted) >= 4:
            break
        ana.wait_for_timeout(100)
    # Roll, hold, roll, score: each sent once (over the socket, or posted while it was not up).
    assert len(over_socket) + len(posted) == 4
    # Bo's turn: Ana has no Roll button. When Bo has scored, the push brings hers, and R rolls.
    expect(ana.locator("#roll-button")).to_have_count(0)
    take_turn(bo, ana, "Bo")
    ana.keyboard.press("r")
    expect(bo.locator("#messages")).to_contain_text("Ana rolled")


def test_a_page_missing_a_pushed_row_is_sent_the_whole_game(browser, server):
    """A push with a part the page does not have is not half applied: the page reconnects and
    is sent the game as it is (static/js/game.js)."""
    ana, bo = (browser.new_context().new_page() for _ in range(2))
    start_online_game(ana, bo, server.url)
    bo.evaluate("() => { document.getElementById('box-chance').id = 'renamed'; }")
    ana.get_by_role("button", name=ROLL).click()
    expect(bo.locator("#messages")).to_contain_text("Ana rolled")
    ana.get_by_role("link", name=re.compile("Chance: would score")).click()
    ana.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
    expect(bo.locator("#messages")).to_contain_text(re.compile(r"Ana scored \d+ points in Chance"))
    expect(bo.locator("#box-chance td").first).to_have_text(re.compile(r"^\d+$"))
    expect(bo.locator("#renamed")).to_have_count(0)  # the whole card came again
    expect(bo.get_by_role("button", name=ROLL)).to_be_visible()


def test_watching_a_game_live(browser, server):
    base = server.url
    ana = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    go_online(ana, base, "Ana")
    ana.get_by_role("button", name="Open a table").click()
    code = ana.locator(".code strong").inner_text()
    bo.goto(f"{base}/t/{code}/")
    bo.get_by_label("Your name").fill("Bo")
    bo.get_by_role("button", name="Join this table").click()
    expect(ana.get_by_text("Bo", exact=True)).to_be_visible()  # seats update live
    ana.get_by_role("button", name="Start the game").click()
    expect(bo.get_by_role("heading", name="Round 1 of 13")).to_be_visible()  # sent on live
    watcher = browser.new_context().new_page()
    watcher.goto(ana.url)
    expect(watcher.get_by_text("You are watching this game.")).to_be_visible()
    ana.get_by_role("button", name="Roll", exact=True).click()
    expect(watcher.locator("#messages")).to_contain_text("Ana rolled")
    expect(watcher.get_by_role("button", name=ROLL)).to_have_count(0)


def test_a_refusal_shows_even_when_a_live_redraw_replaced_the_form_first(browser, server):
    """Bo accepts just as Ana cancels: the live redraw removes the challenge (and the Accept
    form) before Bo's answer arrives; the answer's reason must still show."""
    base = server.url
    ana = browser.new_context().new_page()
    bo = browser.new_context().new_page()
    errors: list[str] = []
    bo.on("console", lambda message: message.type == "error" and errors.append(message.text))
    go_online(ana, base, "Ana")
    go_online(bo, base, "Bo")
    ana.get_by_role("button", name="Challenge Bo").click()
    expect(bo.get_by_text("Ana challenges you")).to_be_visible()
    held = []
    bo.route(re.compile(r"/accept/$"), lambda route: held.append(route))  # waits here
    bo.get_by_role("button", name="Accept").click()
    bo.wait_for_function("() => document.querySelector('.lobby form.htmx-request') !== null")
    assert len(held) == 1
    ana.get_by_role("button", name="Cancel").click()
    expect(bo.get_by_text("Ana challenges you")).to_have_count(0)  # the live redraw came first
    held[0].continue_()
    expect(bo.locator("#lobby-error")).to_have_text("That challenge was cancelled.")
    expect(bo.get_by_role("heading", name="You are online as Bo")).to_be_visible()
    assert not [e for e in errors if "oobErrorNoTarget" in e], errors


def test_a_refusal_shows_when_the_pages_own_other_answer_redrew_the_lists(browser, server):
    """Bo accepts Ana's challenge (held on its way) and then declines Cy's: the decline's answer
    redraws the lists, the Accept form with them, before the accept's refusal arrives. His lobby
    socket delivers nothing meanwhile (as while it reconnects)."""
    base = server.url
    ana, bo, cy = (browser.new_context().new_page() for _ in range(3))
    errors: list[str] = []
    bo.on("console", lambda message: message.type == "error" and errors.append(message.text))
    live = {"on": True}

    def lobby_socket(socket) -> None:
        server_side = socket.connect_to_server()
        server_side.on_message(lambda message: live["on"] and socket.send(message))
        socket.on_message(lambda message: server_side.send(message))

    bo.route_web_socket(re.compile(r"/ws/lobby/"), lobby_socket)
    for page, name in ((ana, "Ana"), (bo, "Bo"), (cy, "Cy")):
        go_online(page, base, name)
    ana.get_by_role("button", name="Challenge Bo").click()
    cy.get_by_role("button", name="Challenge Bo").click()
    expect(bo.get_by_text("Cy challenges you")).to_be_visible()
    live["on"] = False
    held = []
    bo.route(re.compile(r"/accept/$"), lambda route: held.append(route))
    bo.locator("li", has_text="Ana challenges you").get_by_role("button", name="Accept").click()
    bo.wait_for_function("() => document.querySelector('.lobby form.htmx-request') !== null")
    ana.get_by_role("button", name="Cancel").click()
    bo.locator("li", has_text="Cy challenges you").get_by_role("button", name="Decline").click()
    expect(bo.get_by_text("Cy challenges you")).to_have_count(0)  # Bo's own answer redrew them
    held[0].continue_()
    expect(bo.locator("#lobby-error")).to_have_text("That challenge was cancelled.")
    assert not [e for e in errors if "oobErrorNoTarget" in e], errors


def dice_labels(page: Page) -> list[str]:
    """The five dice as a screen reader reads them ("Die 1: 4")."""
    return [die.get_attribute("aria-label") or "" for die in page.locator("#dice .die").all()]


def test_moves_on_a_pushed_redraw_go_over_the_socket_and_are_posted_without_it(browser, server):
    """The moves' forms come in pushed redraws that htmx does not process (static/js/game.js):
    tapped, a die is still held over the open socket; with the socket closed for good, a tap is
    posted and shows on both pages."""
    ana, bo = (browser.new_context().new_page() for _ in range(2))
    over_socket, posted = [], []
    count_moves(bo, over_socket, posted)
    bo_sockets = []

    def game_socket(socket) -> None:
        socket.connect_to_server()  # passed through both ways, until closed below
        bo_sockets.append(socket)

    bo.route_web_socket(re.compile(r"/ws/game/"), game_socket)
    start_online_game(ana, bo, server.url)
    take_turn(ana, bo, "Ana")  # Bo's dice and Roll button come in the push of Ana's score
    bo.get_by_role("button", name=ROLL).click()
    expect(ana.locator("#messages")).to_contain_text("Bo rolled")
    bo.get_by_role("button", name=re.compile(r"^Die 1: \d")).click()
    expect(bo.locator("#die-0")).to_have_attribute("aria-pressed", "true")
    expect(ana.locator("#dice .die.held")).to_have_count(1)
    assert (len(over_socket), len(posted)) == (2, 0)

    # A close the ws extension does not retry: the page has no socket from now on.
    bo_sockets[-1].close(code=1000)
    bo.wait_for_timeout(200)
    bo.get_by_role("button", name=re.compile(r"^Die 2: \d")).click()
    expect(bo.locator("#die-1")).to_have_attribute("aria-pressed", "true")
    expect(ana.locator("#dice .die.held")).to_have_count(2)
    bo.get_by_role("button", name=ROLL).click()
    expect(bo.get_by_role("button", name="Roll again (1 left)")).to_be_visible()
    for die, label in zip(ana.locator("#dice .die").all(), dice_labels(bo), strict=True):
        expect(die).to_have_attribute("aria-label", re.compile("^" + re.escape(label)))
    pick_and_score(bo, ana, "Bo")
    assert len(over_socket) == 2 and len(posted) == 3  # the hold, the roll and the score: posted
    assert all(request.response().status == 200 for request in posted)


def test_taps_faster_than_a_page_may_send_are_refused_in_words_and_taken_again(browser, server):
    """Taps arriving faster than a page may send moves (a burst of 20, then 10 a second) are
    answered "too fast" (games/live/moves.py), not lost: the page says so where a refused move's
    reason goes, shows the dice as the server has them, and takes the taps after a moment."""
    ana, bo = (browser.new_context().new_page() for _ in range(2))
    start_online_game(ana, bo, server.url)
    errors: list[str] = []  # on the game's page
    ana.on("console", lambda message: message.type == "error" and errors.append(message.text))
    ana.get_by_role("button", name=ROLL).click()
    expect(ana.locator("#messages")).to_contain_text("You rolled")
    # Dice tapped in a frenzy: each die's tap goes as soon as its previous one is answered.
    ana.evaluate(
        """async () => {
          for (let i = 0; i < 2000 && !document.querySelector("#messages [data-too-fast]"); i++) {
            document.getElementById(`die-${i % 5}`).click();
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
        }"""
    )
    expect(ana.get_by_role("alert")).to_have_text("Too fast: wait a moment, then tap again.")
    # Every tap answered: the dice Ana's page shows are those Bo's shows (the server's).
    for _ in range(50):
        shown = dice_labels(ana)
        if all(b.startswith(a) for a, b in zip(shown, dice_labels(bo), strict=True)):
            break
        ana.wait_for_timeout(100)
    else:
        raise AssertionError(f"Ana's dice {dice_labels(ana)}, Bo sees {dice_labels(bo)}")
    ana.wait_for_timeout(600)  # the player waits a moment, as told
    for die in range(5):  # the refused tap's die among them: each tap is taken
        pressed = ana.locator(f"#die-{die}").get_attribute("aria-pressed")
        ana.locator(f"#die-{die}").click()
        expect(ana.locator(f"#die-{die}")).not_to_have_attribute("aria-pressed", pressed or "")
    expect(ana.locator("#messages .error")).to_have_count(0)
    shown = dice_labels(ana)
    ana.reload()
    expect(ana.locator("#die-4")).to_be_visible()
    assert dice_labels(ana) == shown  # what the server stored
    assert errors == []  # no swap of the refusal left to htmx, none failed
