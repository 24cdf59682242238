"""The game page's words read as the template tags would print them, and its card and dice say
what a player sees (text, roles, aria labels, ids) in the rendered page.

The presenters translate once per language what the game page repeats (``words``), instead of
the template running ``{% translate %}`` and ``{% blocktranslate %}`` for it on every redraw;
those tests render the tag and compare, in English and in Spanish. The card and the dice are
partials of templates/games/play.html: those tests read the rendered fragments.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.template import engines
from django.test.utils import CaptureQueriesContext
from django.urls import clear_script_prefix, set_script_prefix
from django.utils import translation
from django.utils.html import conditional_escape

from engine.flow import Turn
from engine.rules import CATEGORIES, Scorecard
from engine.rulesets import YAHTZEE, YAHTZEE_NO_BONUS
from games import recent, services
from games.models import Action, Game
from games.presenters import card, dice, hooks, page
from games.presenters import words as page_words
from lobby.models import Player
from tests.factories import VISITOR, act, make_game

LANGUAGES = ["en", "es"]
NAMES = ["Ana", '<b>"Zoë" & Bo</b>']


def render(source: str, **context) -> str:
    """A template fragment as Django renders it."""
    return engines["django"].from_string("{% load i18n %}" + source).render(context)


def translate_tag(message: str) -> str:
    quote = "'" if '"' in message else '"'
    return render(f"{{% translate {quote}{message}{quote} %}}")


def blocktranslate_tag(message: str, **values) -> str:
    body = re.sub(r"%\((\w+)\)s", r"{{ \1 }}", message)
    names = " ".join(f"{name}={name}" for name in values)
    return render(f"{{% blocktranslate with {names} %}}{body}{{% endblocktranslate %}}", **values)


@pytest.mark.parametrize("language", LANGUAGES)
def test_words_read_as_translate_would_print_them(language):
    with translation.override(language):
        words = page_words.phrases(language)
        for key, message in page_words.PHRASES.items():
            if "%(" not in message:
                assert words[key] == translate_tag(message), key


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_sentences_read_as_blocktranslate_would_print_them(language, name):
    values = {"name": name, "box": name, "round": 4, "rounds": 15, "target": 63, "number": 3,
              "face": 5, "points": 0, "needed": 12, "last": 6}  # fmt: skip
    with translation.override(language):
        words = page_words.phrases(language)
        for key, message in page_words.PHRASES.items():
            used = {k: v for k, v in values.items() if f"%({k})s" in message}
            if used:
                assert conditional_escape(words[key] % used) == blocktranslate_tag(message, **used)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("left", [1, 2])
def test_the_roll_button_counts_the_rolls_left_as_the_template_did(language, left):
    with translation.override(language):
        label = dice.roll_label(Turn(dice=(1, 2, 3, 4, 5), rolls=3 - left),
                                      page_words.phrases(language))  # fmt: skip
        assert label == render(
            "{% blocktranslate count left=left %}Roll again ({{ left }} left){% plural %}"
            "Roll again ({{ left }} left){% endblocktranslate %}",
            left=left,
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_card_foot_says_what_the_upper_bonus_still_needs(language):
    upper = {"ones": 2, "threes": 9, "fours": 12, "fives": 15, "sixes": 24}  # 62: one short
    cards = [Scorecard.from_boxes({"ones": 3, "sixes": 24}), Scorecard.from_boxes(upper)]
    with translation.override(language):
        feet = card.card_totals(cards)
        for foot, needed in zip(feet, (36, 1), strict=True):
            assert foot["to_go"] == render(
                "{% blocktranslate count needed=needed %}{{ needed }} to go{% plural %}"
                "{{ needed }} to go{% endblocktranslate %}",
                needed=needed,
            )
        assert [foot["total"] for foot in feet] == [27, 62]


@pytest.mark.parametrize("prefix", ["/", "/yahtzee/"])
def test_game_addresses_are_those_the_url_tag_gives(prefix):
    set_script_prefix(prefix)
    try:
        urls = page.game_urls("Ab3_x-9")
        tags = {
            "roll": "{% url 'games:act' id 'roll' %}",
            "hold": "{% url 'games:act' id 'hold' %}",
            "score": "{% url 'games:act' id 'score' %}",
            "play": "{% url 'games:play' id %}",
            "again": "{% url 'games:again' id %}",
            "leave_out": "{% url 'games:leave_out' id %}",
            "resign": "{% url 'games:resign' id %}",
            "analysis": "{% url 'games:analysis' id %}",
            "replay": "{% url 'games:replay' id %}",
            "game_sheet": "{% url 'games:game_sheet' id %}",
            "speed": "{% url 'games:speed' id %}",
            "seed": "{% url 'games:seed' id %}",
            "verify": "{% url 'games:verify' id %}",
            "player": "{% url 'profiles:seat' id %}",
            "home": "{% url 'games:home' %}",
        }
        assert {name: conditional_escape(url) for name, url in urls.items()} == {
            name: render(tag, id="Ab3_x-9") for name, tag in tags.items()
        }
        assert urls["play"].startswith(prefix)
    finally:
        clear_script_prefix()


@pytest.mark.django_db
@pytest.mark.parametrize("prefix", ["/", "/yahtzee/"])
def test_the_rematch_buttons_post_where_the_url_tag_says(prefix):
    """The lobby answers the game page's question about a rematch (``games.presenters.hooks``),
    with where its buttons post: the lobby's addresses, which the games app does not name."""
    ana = Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    bo = Player.objects.create(visitor="bo", name="Bo", name_key="bo")
    game = services.start_online_game([ana, bo])
    set_script_prefix(prefix)
    try:
        offer = hooks.REMATCH(game, game.ordered_seats()[0])
        assert offer["urls"] == {
            "ask": render("{% url 'lobby:rematch' id %}", id=game.id),
            "decline": render("{% url 'lobby:decline_rematch' id %}", id=game.id),
        }
        assert offer["urls"]["ask"].startswith(prefix)
    finally:
        clear_script_prefix()


class Elements(HTMLParser):
    """The elements of a fragment of HTML, each as (tag, attributes, the text inside it)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[tuple[str, dict, list[str]]] = []
        self.open: list[tuple[str, dict, list[str]]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        element = (tag, dict(attrs), [])
        self.found.append(element)
        if tag not in ("input", "rect", "circle", "br"):
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.found.append((tag, dict(attrs), []))

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        for element in self.open:
            element[2].append(data)

    def all(self, tag: str, **wanted: str) -> list[tuple[dict, str]]:
        """The elements with this tag and these attribute values, with their text."""
        return [
            (attrs, " ".join("".join(text).split()))
            for name, attrs, text in self.found
            if name == tag and all(attrs.get(k.rstrip("_")) == v for k, v in wanted.items())
        ]


def fragment(game: Game, visitor: str | None, part: str, **options) -> Elements:
    """A part of the game page as ``visitor`` gets it, with a page's CSRF token."""
    context = page.game_context(Game.objects.get(pk=game.pk), visitor, **options)
    return Elements(page.render_parts(context | {"csrf_token": "t0ken"}, [part]))


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_player_to_move_presses_dice_to_hold_them(language):
    game = make_game()
    act(game, "roll", dice=(2, 6, 6, 1, 6))
    act(game, "hold", die=1, held=True)
    with translation.override(language):
        dice = fragment(game, VISITOR, "dice")
        buttons = dice.all("button", type="submit", class_="die") + dice.all(
            "button", type="submit", class_="die held"
        )
        die_word = translation.gettext("Die %(number)s: %(face)s")
        held_word = translation.gettext("Held")
    assert sorted(b["id"] for b, _ in buttons) == [f"die-{i}" for i in range(5)]
    by_id = {b["id"]: (b, text) for b, text in buttons}
    held, held_text = by_id["die-1"]
    assert held["aria-pressed"] == "true" and held_text == held_word
    assert held["aria-label"] == die_word % {"number": 2, "face": 6}
    free, free_text = by_id["die-0"]
    assert free["aria-pressed"] == "false" and free_text == ""
    assert [by_id[f"die-{i}"][0]["data-key"] for i in range(5)] == ["1", "2", "3", "4", "5"]
    assert "disabled" not in free  # two rolls left
    # Each die is its own form, carrying the page's CSRF token and what pressing it posts.
    assert len(dice.all("input", name="csrfmiddlewaretoken", value="t0ken")) == 6  # and the roll
    assert [a["value"] for a, _ in dice.all("input", name="held")][:5] == ["1", "0", "1", "1", "1"]
    assert dice.all("button", id="roll-button")


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_watcher_sees_the_dice_without_pressing_them(language):
    game = make_game()
    act(game, "roll", dice=(2, 6, 6, 1, 6))
    act(game, "hold", die=1, held=True)
    with translation.override(language):
        dice = fragment(game, None, "dice")
        die_word = translation.gettext("Die %(number)s: %(face)s")
        held = f"{die_word % {'number': 2, 'face': 6}}, {translation.gettext('held')}"
    shown = dice.all("span", role="img")
    assert [attrs["aria-label"] for attrs, _ in shown][:2] == [
        die_word % {"number": 1, "face": 2},
        held,
    ]
    assert len(shown) == 5
    assert not dice.all("button") and not dice.all("input")


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("rules", [YAHTZEE, YAHTZEE_NO_BONUS])
def test_the_card_shows_scores_picks_and_totals(language, rules):
    game = make_game([((3, 3, 3, 2, 5), "threes"), ((6, 6, 6, 6, 6), "yahtzee")],
                     rules=rules)  # fmt: skip
    act(game, "roll", dice=(2, 2, 4, 5, 6))
    with translation.override(language):
        card = fragment(game, VISITOR, "card")
        would = translation.gettext("%(box)s: would score %(points)s")
        twos = translation.gettext("Twos")
        total_word = translation.gettext("Total")
        bonus_word = translation.gettext("Yahtzee bonus")
    rows = card.all("tr")
    boxes = [attrs["id"] for attrs, _ in rows if attrs.get("id", "").startswith("box-")]
    assert boxes == [f"box-{b}" for b in CATEGORIES]
    assert card.all("td", class_="filled")[0][1] == "9"
    picks = {attrs["href"]: (attrs, text) for attrs, text in card.all("a")}
    pick, points = picks["?select=twos"]
    assert pick["aria-label"] == would % {"box": twos, "points": 4} and points == "4"
    assert pick["hx-get"].endswith("/?select=twos") and pick["class"] == "pick"
    assert picks["?select=full_house"][0]["class"] == "pick zero"
    assert "?select=yahtzee" not in picks and "?select=threes" not in picks  # filled
    assert card.all("td", id="total-0")[0][1] == "59"
    assert card.all("tr", class_="total")[0][1] == f"{total_word}59"
    assert bool([t for _, t in card.all("tr", class_="subtotal") if t.startswith(bonus_word)]) == (
        rules is YAHTZEE
    )


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chosen_box_becomes_the_button_that_scores_it(language):
    game = make_game()
    act(game, "roll", dice=(2, 2, 4, 5, 6))
    with translation.override(language):
        card = fragment(game, VISITOR, "card", select="twos")
        score = translation.gettext("Score %(points)s") % {"points": 4}
    selected = card.all("tr", class_="selected")
    assert [attrs["id"] for attrs, _ in selected] == ["box-twos"]
    buttons = card.all("button", class_="primary score")
    assert [text for _, text in buttons] == [score]
    assert card.all("input", name="box", value="twos")
    assert card.all("input", name="csrfmiddlewaretoken", value="t0ken")
    # The question is the Score button's description (said with it as it takes the focus).
    question = card.all("p", id=buttons[0][0]["aria-describedby"])
    with translation.override(language):
        asked = translation.ngettext(
            "Score %(points)s point in %(box)s?", "Score %(points)s points in %(box)s?", 4
        ) % {"points": 4, "box": translation.gettext("Twos")}
    assert question[0][1].startswith(asked)
    assert "?select=twos" not in {attrs.get("href") for attrs, _ in card.all("a")}


@pytest.mark.django_db
def test_names_are_escaped_where_the_page_shows_them():
    name = '<b>"Zoë" & Bo</b>'
    game = services.start_game(VISITOR, ["Ana", name], mode=Game.Mode.LOCAL)
    context = page.game_context(Game.objects.get(pk=game.pk), VISITOR)
    html = page.render_parts(context, ["game"])
    assert "<b>" not in html
    assert conditional_escape(name) in html
    assert Elements(html).all("th", scope="col", title=name)


def _news_as_read_back(game_id: str, visitor: str) -> list[str]:
    """The message line of a freshly loaded game: built from the log as stored."""
    recent.kept_actions.clear()  # read, not taken up from what earlier redraws kept
    game = Game.objects.prefetch_related("seats").get(pk=game_id)
    return page.game_context(game, visitor)["news"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("opponent", ["none", "online", "computer"])
def test_a_moves_own_answer_tells_what_the_log_says_without_reading_it(language, opponent):
    if opponent == "none":
        game = services.start_solo_game("ana")
    elif opponent == "online":
        ana = Player.objects.create(visitor="ana", name="Ana", name_key="ana")
        bo = Player.objects.create(visitor="bo", name="Bo", name_key="bo")
        game = services.start_online_game([ana, bo])
    else:
        game = services.start_game("ana", ["Ana", ""], mode=Game.Mode.COMPUTER,
                                   bots={1: "beginner"})  # fmt: skip
    moves = [
        ("roll", {"held": [False] * 5}),
        ("hold", {"die": 0, "held": True}),
        ("roll", {"held": [True, False, False, False, False]}),
        ("score", {"box": "chance"}),
    ]
    actions_table = Action._meta.db_table
    with translation.override(language):
        for kind, params in moves:
            step = Game.objects.get(pk=game.id).step
            moved = services.perform(game.id, "ana", kind, params, step)
            recent.kept_actions.clear()  # nothing kept from earlier reads (see the next test)
            with CaptureQueriesContext(connection) as queries:
                news = page.game_context(moved, "ana")["news"]
            assert news == _news_as_read_back(game.id, "ana")
            read_log = [q["sql"] for q in queries if actions_table in q["sql"]]
            # After the computer's turn, the news is its moves: those are read from the log.
            assert bool(read_log) == (opponent == "computer" and kind == "score"), read_log
            if opponent == "online":  # the other seat's line is still read, and also right
                assert page.game_context(moved, "bo")["news"] == _news_as_read_back(game.id, "bo")


@pytest.mark.django_db
def test_the_latest_actions_kept_from_earlier_redraws_read_as_the_log_says():
    players = [
        Player.objects.create(visitor=name, name=name.title(), name_key=name)
        for name in ("ana", "bo", "cy")
    ]
    game = services.start_online_game(players)
    positions = [-1, 0, 1, 2]  # a watcher, and each seat
    unseen, first = 0, True
    for turn in range(13):  # 52 actions: a watcher sees only the latest 40
        seat = game.ordered_seats()[turn % 3]
        for kind, params in [
            ("roll", {"held": [False] * 5}),
            ("hold", {"die": 0, "held": True}),
            ("roll", {"held": [True, False, False, False, False]}),
            ("score", None),
        ]:
            if params is None:
                box = next(iter(Game.objects.get(pk=game.id).state().options()))
                params = {"box": box}
            step = Game.objects.get(pk=game.id).step
            game = services.perform(game.id, seat.visitor, kind, params, step)
            if turn in (4, 5):  # these moves were redrawn by another process
                unseen += 1
                continue
            for position in positions:
                me = next((s for s in game.ordered_seats() if s.position == position), None)
                with CaptureQueriesContext(connection) as queries:
                    kept = Action.objects.recent(game, me)
                assert kept == Action.objects.read_recent(game, me), (turn, position)
                # Read only when this process missed moves (or never read this seat's), then
                # taken up from what it kept.
                assert len(queries) == (1 if unseen or first else 0), (turn, kind, position)
            unseen, first = 0, False


def test_no_upper_bonus_countdown_for_a_seat_that_will_not_play_again():
    """A forfeited player's card (or any card of a finished game) showed "51 to go"."""
    from engine.rules import Scorecard

    scorecard = Scorecard.from_boxes({"ones": 3, "twos": 6, "chance": 20})
    playing, done = card.card_totals([scorecard, scorecard], done=frozenset({1}))
    assert playing["to_go"] == "54 to go"
    assert done["to_go"] == ""
