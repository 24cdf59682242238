"""A person playing in headless Chromium: by role and visible text, as a player sees the page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser.online import play_a_turn_by_keys

pytestmark = pytest.mark.django_db(transaction=True)

ROLL = re.compile(r"^(Roll|Roll again \(\d left\))$")
# Start, Roll, a box's offer, Score, the end's heading and its first button, as the .po says.
ENGLISH = ("Start a new game", "Roll", "would score", "Score", "Game over", "New game")
SPANISH = (
    "Empezar una partida nueva",
    "Tirar",
    "valdría",
    "Anotar",
    "Fin de la partida",
    "Nueva partida",
)


def start_game(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.get_by_role("button", name="Start a new game").click()
    expect(page.get_by_role("heading", name="Round 1 of 13")).to_be_visible()


def die(page: Page, number: int):
    return page.get_by_role("button", name=re.compile(rf"^Die {number}:"))


def dice_seen(page: Page) -> list[tuple[str, str]]:
    """What the five dice show: their labels and whether each is held."""
    return [
        (die(page, n).get_attribute("aria-label"), die(page, n).get_attribute("aria-pressed"))
        for n in range(1, 6)
    ]


def score_first_open_box(page: Page) -> None:
    page.get_by_role("link", name=re.compile("would score")).first.click()
    confirm = page.get_by_role("button", name=re.compile(r"^Score \d+$"))
    expect(confirm).to_be_focused()  # a second tap, or Enter, confirms
    confirm.click()
    expect(page.locator("#messages")).to_contain_text("Scored")


def test_a_whole_game_by_clicking_then_reopen_and_finish(page: Page, base: str):
    page.set_viewport_size({"width": 390, "height": 844})
    start_game(page, base)
    for turn in range(13):
        expect(page.get_by_role("heading", name=f"Round {turn + 1} of 13")).to_be_visible()
        roll = page.get_by_role("button", name=ROLL)
        expect(roll).to_have_text("Roll")
        roll.click()
        expect(roll).to_have_text("Roll again (2 left)")
        if turn % 3 == 1:
            die(page, 1).click()
            expect(die(page, 1)).to_have_attribute("aria-pressed", "true")
            first_face = die(page, 1).get_attribute("aria-label")
            roll.click()
            expect(roll).to_have_text("Roll again (1 left)")
            expect(die(page, 1)).to_have_attribute("aria-label", first_face)
            expect(die(page, 1)).to_have_attribute("aria-pressed", "true")
        if turn == 4:
            # Mid-turn: close the page, come back in the same browser, find everything as it was.
            seen = dice_seen(page)
            roll_text = roll.inner_text()
            context = page.context
            page.close()
            page = context.new_page()
            page.set_viewport_size({"width": 1280, "height": 800})
            page.goto(base + "/")
            page.get_by_role("link", name=re.compile("^Continue: Solo · round 5")).click()
            assert dice_seen(page) == seen
            expect(page.get_by_role("button", name=ROLL)).to_have_text(roll_text)
        score_first_open_box(page)

    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    shown_total = int(page.locator("#total-0").inner_text())
    game = Game.objects.get()
    replayed = game.replayed_state()
    assert replayed == game.state()
    assert shown_total == replayed.cards[0].total
    expect(page.get_by_text(f"Final score: {shown_total} points")).to_be_visible()

    # Reopen the finished game: the final card is still there.
    page.goto(base + "/")
    page.get_by_role("link", name=re.compile(r"\d+ points?$")).first.click()
    expect(page.locator("#total-0")).to_have_text(str(shown_total))

    # My games: the game, and its decisions valued by the perfect player (on this first view).
    page.get_by_role("link", name="My games").click()
    expect(page.get_by_text("Over 1 game played to the end.")).to_be_visible()
    expect(page.get_by_text("Accuracy", exact=True)).to_be_visible()


def test_keyboard_only_turn(page: Page, base: str):
    start_game(page, base)
    page.keyboard.press("r")
    roll = page.get_by_role("button", name=ROLL)
    expect(roll).to_have_text("Roll again (2 left)")
    page.keyboard.press("2")
    expect(die(page, 2)).to_have_attribute("aria-pressed", "true")
    held_face = die(page, 2).get_attribute("aria-label")
    page.locator("body").focus()
    page.keyboard.press(" ")
    expect(roll).to_have_text("Roll again (1 left)")
    expect(die(page, 2)).to_have_attribute("aria-label", held_face)
    page.keyboard.press("2")
    expect(die(page, 2)).to_have_attribute("aria-pressed", "false")
    # Tab to a box, Enter selects it, Enter again confirms.
    pick = page.get_by_role("link", name=re.compile("would score")).first
    pick.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name=re.compile(r"^Score \d+$"))).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#messages")).to_contain_text("Scored")
    expect(page.get_by_role("heading", name="Round 2 of 13")).to_be_visible()


def test_a_whole_turn_by_a_handful_of_keys(page: Page, base: str):
    start_game(page, base)
    page.locator("body").focus()
    pressed = play_a_turn_by_keys(page)
    expect(page.get_by_role("heading", name="Round 2 of 13")).to_be_visible()
    # Tabbing to a box took 19-27 presses a turn; now roll, hold, roll, box, pick, score.
    assert len(pressed) == 6
    # The focus is on the next turn's Roll: Enter rolls (the focus did not drop to the page).
    expect(page.locator("#roll-button")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name=ROLL)).to_have_text("Roll again (2 left)")
    expect(page.locator("#roll-button")).to_be_focused()
    # The next turn by keys again: Up goes to the last open box, Down wraps round.
    page.keyboard.press("ArrowUp")
    boxes = page.get_by_role("link", name=re.compile("would score"))
    expect(boxes.last).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(boxes.first).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(boxes.last).to_be_focused()


def test_on_a_laptop_the_dice_stay_in_view_beside_the_lower_boxes(page: Page, base: str):
    page.set_viewport_size({"width": 1366, "height": 768})
    start_game(page, base)
    roll = page.get_by_role("button", name=ROLL)
    roll.click()
    expect(roll).to_have_text("Roll again (2 left)")
    last_box = page.get_by_role("link", name=re.compile("^Chance: would score"))
    last_box.scroll_into_view_if_needed()
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 0  # the card is taller than the screen

    def in_view(locator) -> bool:
        box = locator.bounding_box()
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 768

    assert in_view(roll) and in_view(die(page, 1)) and in_view(last_box)
    # The rest of the turn from there, and the page never had to scroll back up for it.
    die(page, 1).click()
    expect(die(page, 1)).to_have_attribute("aria-pressed", "true")
    roll.click()
    expect(roll).to_have_text("Roll again (1 left)")
    last_box.click()
    score = page.get_by_role("button", name=re.compile(r"^Score \d+$"))
    expect(score).to_be_focused()
    assert page.evaluate("window.scrollY") >= scrolled
    assert in_view(roll) and in_view(score)
    score.click()
    expect(page.get_by_role("heading", name="Round 2 of 13")).to_be_visible()


def test_a_turn_without_javascript(browser, base: str):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    start_game(page, base)
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.get_by_role("button", name=ROLL)).to_have_text("Roll again (2 left)")
    die(page, 3).click()
    expect(die(page, 3)).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name=ROLL).click()
    expect(page.get_by_role("button", name=ROLL)).to_have_text("Roll again (1 left)")
    page.get_by_role("link", name=re.compile("^Chance: would score")).click()
    page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()
    expect(page.get_by_role("heading", name="Round 2 of 13")).to_be_visible()
    card = Game.objects.get().state().cards[0]
    assert list(card.boxes) == ["chance"]
    assert page.locator("#total-0").inner_text() == str(card.total)
    context.close()


def test_without_javascript_a_refused_move_is_told_on_the_games_own_address(browser, base: str):
    """A stale tab's plain post is refused on the game's page, not at the post's address (which
    a reload would post again and a bookmark could not open)."""
    context = browser.new_context(java_script_enabled=False)
    page, other = context.new_page(), context.new_page()
    start_game(page, base)
    game_url = page.url
    other.goto(game_url)
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.get_by_role("button", name=ROLL)).to_have_text("Roll again (2 left)")
    other.get_by_role("button", name="Roll", exact=True).click()  # still shows the unrolled game
    expect(other.get_by_role("alert")).to_contain_text("moved on")
    assert other.url == game_url
    expect(other.get_by_role("button", name=ROLL)).to_have_text("Roll again (2 left)")
    other.reload()  # told once: the page as it is, without the refusal, and nothing posted again
    expect(other.get_by_role("alert")).to_have_count(0)
    assert Game.objects.get().rolls == 1
    context.close()


def test_a_stale_tab_is_told_and_refreshed(page: Page, base: str):
    start_game(page, base)
    other = page.context.new_page()
    other.goto(page.url)
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.get_by_role("button", name=ROLL)).to_have_text("Roll again (2 left)")
    other.get_by_role(
        "button", name="Roll", exact=True
    ).click()  # this tab still shows the unrolled game
    expect(other.get_by_role("alert")).to_contain_text("moved on")
    expect(other.get_by_role("button", name=ROLL)).to_have_text("Roll again (2 left)")
    assert dice_seen(other) == dice_seen(page)
    assert Game.objects.get().rolls == 1


def test_a_box_chosen_in_a_stale_tab_shows_the_dice_it_would_score(page: Page, base: str):
    """The other tab shows the first roll; this one rolled again. Choosing a box there previews
    the dice as they are now, and shows them: its Score button scores what the player sees."""
    start_game(page, base)
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.get_by_role("button", name=ROLL)).to_have_text("Roll again (2 left)")
    other = page.context.new_page()
    other.goto(page.url)
    page.get_by_role("button", name=ROLL).click()
    expect(page.get_by_role("button", name=ROLL)).to_have_text("Roll again (1 left)")
    other.get_by_role("link", name=re.compile("Chance: would score")).click()
    expect(other.get_by_role("button", name=ROLL)).to_have_text("Roll again (1 left)")
    assert dice_seen(other) == dice_seen(page)
    chance = sum(int(label.rsplit(" ", 1)[1]) for label, _ in dice_seen(page))
    expect(other.get_by_role("button", name=re.compile(r"^Score \d+$"))).to_have_text(
        f"Score {chance}"
    )


def test_spanish_from_the_browser(browser, base: str):
    context = browser.new_context(locale="es-ES")
    page = context.new_page()
    page.goto(base + "/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.get_by_role("button", name="Empezar una partida nueva").click()
    expect(page.get_by_role("heading", name="Ronda 1 de 13")).to_be_visible()
    for name in ["Unos", "Trío", "Póquer", "Full", "Escalera corta", "Escalera larga", "Suerte"]:
        expect(page.get_by_role("rowheader", name=name, exact=True)).to_be_visible()
    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="Round 1 of 13")).to_be_visible()
    context.close()


def test_going_back_to_a_game_shows_it_as_it_is_now(page: Page, base):
    """A move made on another page of the same browser, then the back button to the game: the page
    shows the game as it is now, not the copy from before the move (cache or back-forward cache)."""
    start_game(page, base)
    page.get_by_role("button", name=ROLL).click()
    expect(page.get_by_role("button", name=ROLL)).to_have_text("Roll again (2 left)")
    game_url = page.url
    page.get_by_role("link", name="How to play").first.click()
    expect(page).to_have_url(re.compile("/guide/"))
    other = page.context.new_page()
    other.goto(game_url)
    other.get_by_role("button", name=ROLL).click()
    expect(other.get_by_role("button", name=ROLL)).to_have_text("Roll again (1 left)")
    other.close()
    page.go_back()
    expect(page.get_by_role("button", name=ROLL)).to_have_text("Roll again (1 left)")


CONTRAST = """e => {
  const channels = (color) => color.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (color) => {
    const [r, g, b] = channels(color).map((c) => {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(e);
  if (Number(style.opacity) !== 1) return 0;  // faded: the colours alone would not tell
  const [a, b] = [luminance(style.color), luminance(style.backgroundColor)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_the_disabled_roll_button_is_readable(page: Page, base):
    """WCAG AA: at least 4.5:1 between the text and its background, also when disabled."""
    start_game(page, base)
    for after in ("Roll again (2 left)", "Roll again (1 left)"):
        page.get_by_role("button", name=ROLL).click()
        expect(page.get_by_role("button", name=ROLL)).to_have_text(after)
    page.get_by_role("button", name=ROLL).click()
    done = page.get_by_role("button", name="No rolls left")
    expect(done).to_be_disabled()
    assert done.evaluate(CONTRAST) >= 4.5


@pytest.mark.parametrize(("locale", "words"), [("en-GB", ENGLISH), ("es-ES", SPANISH)])
def test_on_a_phone_the_end_of_the_game_comes_into_view(browser, base: str, locale, words):
    """Issue 29: after the last score, low on the card (Chance), a phone stayed scrolled at the
    card, with "Game over" and its buttons off the screen above."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale).new_page()
    start, roll, offer, score, over, again = words
    page.goto(base + "/")
    page.get_by_role("button", name=start).click()
    for _turn in range(13):  # the boxes in the card's order: the last is Chance
        page.get_by_role("button", name=roll, exact=True).click()
        page.get_by_role("link", name=re.compile(offer)).first.click()
        page.get_by_role("button", name=re.compile(rf"^{score} \d+$")).click()
    expect(page.get_by_role("heading", name=over)).to_be_in_viewport()
    expect(page.get_by_role("heading", name=over)).to_be_focused()
    expect(page.get_by_role("button", name=again)).to_be_in_viewport()
