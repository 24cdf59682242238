"""The game page's ready-made strings read exactly as the template tags they replace would.

The presenters translate, fill in and escape what the game page repeats, instead of the template
running ``{% translate %}``, ``{% blocktranslate %}``, ``{% url %}`` and ``{{ }}`` for it on every
redraw; each test renders the tag and compares, in English and in Spanish.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.template import engines
from django.test.utils import CaptureQueriesContext
from django.urls import clear_script_prefix, set_script_prefix
from django.utils import translation
from django.utils.safestring import mark_safe

from games import recent, services
from games.flow import Turn
from games.models import Action, Game
from games.presenters import card, dice, page
from games.presenters import words as page_words
from games.rules import Scorecard
from lobby.models import Player

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
    values = {"name": name, "box": name, "round": 4, "target": 63, "number": 3, "face": 5,
              "points": 0, "needed": 12}  # fmt: skip
    with translation.override(language):
        words = page_words.phrases(language)
        for key, message in page_words.PHRASES.items():
            used = {k: v for k, v in values.items() if f"%({k})s" in message}
            if used:
                assert page_words.fill(words[key], **used) == blocktranslate_tag(message, **used)


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
        assert [foot["total"] for foot in feet] == ["27", "62"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("value", [0, 7, 1575, "a < b & 'c'", mark_safe("<i>kept</i>")])
def test_printed_values_read_as_the_template_prints_them(language, value):
    """Numbers too: the template engine localises them (1575 would read 1.575 with grouping)."""
    with translation.override(language):
        assert page_words.printed(value) == render("{{ value }}", value=value)


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
            "analysis": "{% url 'games:analysis' id %}",
            "game_sheet": "{% url 'games:game_sheet' id %}",
            "rematch": "{% url 'lobby:rematch' id %}",
            "home": "{% url 'games:home' %}",
        }
        assert urls == {name: render(tag, id="Ab3_x-9") for name, tag in tags.items()}
        assert urls["play"].startswith(prefix)
    finally:
        clear_script_prefix()


def same_markup(html: str) -> str:
    """Markup with the whitespace between tags taken out and runs of it made one space (neither
    shows in a page)."""
    return re.sub(r"\s+", " ", re.sub(r">\s+", ">", re.sub(r"\s+<", "<", html))).strip()


# What the game page's template did for the dice before they came ready-made.
DICE_TAGS = """{% for die in dice %}<li>
  {% if can_play %}<form method="post" action="{{ urls.hold }}" hx-post="{{ urls.hold }}">
    {% csrf_token %}
    <input type="hidden" name="step" value="{{ step }}">
    <input type="hidden" name="die" value="{{ die.index }}">
    <input type="hidden" name="held" value="{{ die.press_holds }}">
    <button type="submit" id="die-{{ die.index }}" class="die{% if die.held %} held{% endif %}"
            aria-pressed="{{ die.pressed }}" data-key="{{ die.number }}"
            {% if dice_locked %}disabled{% endif %}
            aria-label="{{ die.label }}">{{ die.svg }}
      <span class="held-tag" aria-hidden="true">{{ die.held_tag }}</span></button></form>
  {% else %}<span class="die{% if die.held %} held{% endif %}" role="img"
                  aria-label="{{ die.label }}">
    {{ die.svg }}<span class="held-tag" aria-hidden="true">{{ die.held_tag }}</span></span>
  {% endif %}</li>{% endfor %}"""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("can_play", [True, False])
@pytest.mark.parametrize("rolls", [0, 1, 3])
def test_the_dice_read_as_the_template_made_them(language, can_play, rolls):
    faces = (2, 6, 6, 1, 6) if rolls else ()
    turn = Turn(dice=faces, held=(False, True, True, False, False) if rolls else (False,) * 5,
                rolls=rolls)  # fmt: skip
    with translation.override(language):
        context = {
            "dice": dice.dice_views(turn, can_play, page_words.phrases(language)),
            "can_play": can_play,
            "urls": page.game_urls("Ab3_x-9"),
            "csrf_token": "t0ken",
            "step": page_words.printed(4),
            "dice_locked": not faces or turn.rolls_left == 0,
        }
        made = dice.dice_items(context)
        assert same_markup(made) == same_markup(render(DICE_TAGS, **context))
    assert made.count("<li>") == 5
    assert ('name="csrfmiddlewaretoken" value="t0ken"' in made) == can_play


# What the template did for the card's rows and totals before they came ready-made.
CARD_TAGS = """{% for section in sections %}<tbody>{% for row in section.rows %}
  <tr class="{% if row.selected %}selected{% endif %}"><th scope="row">{{ row.label }}</th>
  {{ row.cells }}{% if row.selected %}<td>(the form)</td>{{ row.cells_after }}{% endif %}</tr>
  {% endfor %}
  {% if section.upper %}
  <tr class="subtotal"><th scope="row">{{ words.upper_total }}</th>{% for foot in totals %}<td>{{ foot.upper_total }}</td>{% endfor %}</tr>
  <tr class="subtotal bonus-line"><th scope="row">{{ bonus_line }}</th>{% for foot in totals %}<td>{% if foot.to_go %}<span class="to-go">{{ foot.to_go }}</span>{% else %}{{ foot.upper_bonus }}{% endif %}</td>{% endfor %}</tr>
  {% elif yahtzees %}<tr class="subtotal"><th scope="row">{{ words.yahtzee_bonus }}</th>{% for foot in totals %}<td>{{ foot.yahtzee_bonus }}</td>{% endfor %}</tr>{% endif %}
</tbody>{% endfor %}
<tfoot><tr class="total"><th scope="row">{{ words.total }}</th>{% for foot in totals %}<td id="total-{{ foot.position }}">{{ foot.total }}</td>{% endfor %}</tr></tfoot>"""  # noqa: E501

CARD_MADE = """{% for section in sections %}<tbody>{{ section.before }}
  {% if section.selected %}<tr class="selected"><th scope="row">{{ section.selected.label }}</th>
  {{ section.selected.cells }}<td>(the form)</td>{{ section.selected.cells_after }}</tr>{% endif %}
  {{ section.after }}{{ section.foot }}</tbody>{% endfor %}<tfoot>{{ foot }}</tfoot>"""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("selected", [None, "twos", "chance"])
@pytest.mark.parametrize("yahtzees", [True, False])
def test_the_card_rows_read_as_the_template_made_them(language, selected, yahtzees):
    upper = {"ones": 3, "threes": 9, "fours": 12, "fives": 15, "sixes": 24, "yahtzee": 50}
    cards = [Scorecard.from_boxes({"ones": 3, "sixes": 24}), Scorecard.from_boxes(upper)]
    options = {"twos": 4, "chance": 21, "yahtzee": 0}
    with translation.override(language):
        words = page_words.phrases(language)
        rows = card.card_rows(cards, 0, options, selected, play_url="/game/x/",
                                    language=language)  # fmt: skip
        totals = card.card_totals(cards)
        bonus_line = page_words.fill(words["bonus_line"], target=63)
        old = {"upper": True, "rows": rows[:6]}, {"upper": False, "rows": rows[6:]}
        before = render(CARD_TAGS, sections=old, totals=totals, words=words,
                        bonus_line=bonus_line, yahtzees=yahtzees)  # fmt: skip
        sections = card.card_sections(rows, totals, words, bonus_line, yahtzees)
        after = render(CARD_MADE, sections=sections, foot=card.card_foot(totals, words))
    assert same_markup(after) == same_markup(before).replace('<tr class="">', "<tr>")
    assert after.count('class="selected"') == (selected is not None)


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
                assert page.game_context(moved, "bo")["news"] == _news_as_read_back(
                    game.id, "bo"
                )


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
    from games.rules import Scorecard

    scorecard = Scorecard.from_boxes({"ones": 3, "twos": 6, "chance": 20})
    playing, done = card.card_totals([scorecard, scorecard], done=frozenset({1}))
    assert playing["to_go"] == "54 to go"
    assert done["to_go"] == ""
