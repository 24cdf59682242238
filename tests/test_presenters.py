"""The game page's ready-made strings read exactly as the template tags they replace would.

The presenters translate, fill in and escape what the game page repeats, instead of the template
running ``{% translate %}``, ``{% blocktranslate %}``, ``{% url %}`` and ``{{ }}`` for it on every
redraw; each test renders the tag and compares, in English and in Spanish.
"""

from __future__ import annotations

import re

import pytest
from django.template import engines
from django.urls import clear_script_prefix, set_script_prefix
from django.utils import translation
from django.utils.safestring import mark_safe

from games import presenters
from games.flow import Turn
from games.rules import Scorecard

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
        words = presenters.phrases(language)
        for key, message in presenters.PHRASES.items():
            if "%(" not in message:
                assert words[key] == translate_tag(message), key


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_sentences_read_as_blocktranslate_would_print_them(language, name):
    values = {"name": name, "box": name, "round": 4, "target": 63, "number": 3, "face": 5,
              "points": 0, "needed": 12}  # fmt: skip
    with translation.override(language):
        words = presenters.phrases(language)
        for key, message in presenters.PHRASES.items():
            used = {k: v for k, v in values.items() if f"%({k})s" in message}
            if used:
                assert presenters.fill(words[key], **used) == blocktranslate_tag(message, **used)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("left", [1, 2])
def test_the_roll_button_counts_the_rolls_left_as_the_template_did(language, left):
    with translation.override(language):
        label = presenters.roll_label(Turn(dice=(1, 2, 3, 4, 5), rolls=3 - left),
                                      presenters.phrases(language))  # fmt: skip
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
        feet = presenters.card_totals(cards)
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
        assert presenters.printed(value) == render("{{ value }}", value=value)


@pytest.mark.parametrize("prefix", ["/", "/yahtzee/"])
def test_game_addresses_are_those_the_url_tag_gives(prefix):
    set_script_prefix(prefix)
    try:
        urls = presenters.game_urls("Ab3_x-9")
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
