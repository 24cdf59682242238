"""The forms that start games: validation and messages a player can read."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from engine.rules import IllegalMove
from engine.rulesets import RULE_SETS, YAHTZEE, YAHTZEE_NO_BONUS, RuleSet
from engine.strategy.bots import BOTS
from engine.words import _ as untranslated
from games.playback import SPEEDS

MAX_PLAYERS = 6
BOT_CHOICES = [(bot.id, _(bot.name)) for bot in BOTS.values()]
# How many dice a roll's holds may name: a game's own count is checked when the move is played.
DICE_COUNTS = frozenset(rules.dice for rules in RULE_SETS.values())


# Characters that draw as nothing, beyond the format characters (category Cf): Unicode's
# default-ignorable code points of other categories (Hangul fillers, the combining grapheme
# joiner, Khmer inherent vowels) and the braille blank. A name made of them, or padded with them
# ("Ana" + U+3164), looks empty or like someone else's.
BLANK_CHARACTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
INVISIBLE_CATEGORIES = frozenset({"Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
# Zero-width non-joiner and joiner: Persian, the Indic scripts and emoji sequences need them
# between two characters (Persian "Ali" ZWNJ "zadeh", woman ZWJ laptop). At an end, doubled or
# beside a space they only hide.
JOINERS = frozenset("\u200c\u200d")
# Variation selectors choose how the character before them is drawn; after any other character
# they draw nothing. The emoji and standardized ones go after symbols and the keycap characters
# (a heart in colour), the Mongolian free variation selectors after Mongolian letters, the
# ideographic ones after Han characters (one family's way of writing 葛).
EMOJI_SELECTORS = re.compile("[\ufe00-\ufe0f]")
MONGOLIAN_SELECTORS = frozenset("\u180b\u180c\u180d\u180f")
IDEOGRAPHIC_SELECTORS = re.compile("[\U000e0100-\U000e01ef]")
HAN_NAMES = ("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH")
KEYCAP_BASES = frozenset("0123456789#*")
# What draws: letters, marks on them, numbers, punctuation and symbols (":)" is a name too).
VISIBLE_CLASSES = frozenset("LMNPS")
# Nonspacing and enclosing marks in a row on one letter: Tibetan writes three (sgrub, "སྒྲུབ");
# more pile up over the lines around the name.
MAX_MARKS = 3


def clean_name(value: str, *, max_length: int = 24) -> str:
    """A display name: composed (NFC), trimmed, 1-24 characters (or ``max_length``: a group's
    name), at least one of them visible.

    Markup is kept as text, never run. Refused: control and invisible characters, and more than
    MAX_MARKS accents stacked on one letter.

    >>> clean_name("  Zoe\u0308  ")
    'Zoë'
    """
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise ValidationError(_("Enter a name."), code="empty")
    if len(name) > max_length:
        raise ValidationError(_("Names have 24 characters at most."), code="long")
    categories = [unicodedata.category(c) for c in name]
    if "Cc" in categories:
        raise ValidationError(_("Names cannot contain control characters."), code="odd")
    if _has_invisible(name):
        raise ValidationError(_("Names cannot contain invisible characters."), code="invisible")
    if not any(kind[0] in "LNPS" for kind in categories):
        raise ValidationError(
            _("Names need at least one visible letter, number or symbol."), code="blank"
        )
    marks = 0
    for character in unicodedata.normalize("NFD", name):  # "ö" counts as o and its diaeresis
        marks = marks + 1 if unicodedata.category(character) in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise ValidationError(
                _("Names cannot stack more than %(count)s accents on one letter."),
                code="stacked",
                params={"count": MAX_MARKS},
            )
    return name


def _has_invisible(name: str) -> bool:
    """True if some character of the name draws as nothing."""
    padded = f" {name} "
    for before, character, after in zip(padded, padded[1:], padded[2:], strict=False):
        if character in JOINERS:
            hidden = not (_draws(before) and _draws(after))
        elif _is_selector(character):
            hidden = not _takes_selector(before, character)
        else:
            hidden = (
                unicodedata.category(character) in INVISIBLE_CATEGORIES
                or character in BLANK_CHARACTERS
            )
        if hidden:
            return True
    return False


def _draws(character: str) -> bool:
    """True for a character a joiner may stand beside (a blank one is refused in its own turn)."""
    return unicodedata.category(character)[0] in VISIBLE_CLASSES


def _is_selector(character: str) -> bool:
    return (
        character in MONGOLIAN_SELECTORS
        or EMOJI_SELECTORS.fullmatch(character) is not None
        or IDEOGRAPHIC_SELECTORS.fullmatch(character) is not None
    )


def _takes_selector(before: str, selector: str) -> bool:
    """True if this variation selector changes how the character before it is drawn."""
    if selector in MONGOLIAN_SELECTORS:
        return unicodedata.name(before, "").startswith("MONGOLIAN LETTER")
    if IDEOGRAPHIC_SELECTORS.fullmatch(selector):
        # After NFC the compatibility block keeps only its dozen unified ideographs (U+FA0E...).
        return unicodedata.name(before, "").startswith(HAN_NAMES)
    return unicodedata.category(before)[0] == "S" or before in KEYCAP_BASES


def offered_rules(*, multiplayer: bool = False) -> list[RuleSet]:
    """The rule sets a form offers, in the site's order: every one for a game of one browser;
    without "multiple Yahtzees off" where several people play (multiplayer has them on)."""
    return [
        rules for rules in RULE_SETS.values() if not (multiplayer and rules is YAHTZEE_NO_BONUS)
    ]


def variant_choices(*, multiplayer: bool = False) -> list[tuple[str, str]]:
    """(key, translated name) of each rule set offered, for a form's choice."""
    return [(rules.key, _(rules.name)) for rules in offered_rules(multiplayer=multiplayer)]


class VariantField(forms.ChoiceField):
    """The game to play, chosen by its rule set's key; cleans to the ``RuleSet``. An unknown key,
    or one this form does not offer, is refused with a sentence a player can read.

    ``multiplayer=True`` for the forms of games between people (challenges, tables, tournaments):
    they do not offer "multiple Yahtzees off".
    """

    default_error_messages = {
        "invalid_choice": _("Choose a game from the list: “%(value)s” is not one of them."),
    }

    def __init__(self, *, multiplayer: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("initial", YAHTZEE.key)
        kwargs.setdefault("label", pgettext_lazy("which game is played", "Game"))
        kwargs.setdefault("required", False)  # a form from before the choice: Yahtzee
        super().__init__(choices=variant_choices(multiplayer=multiplayer), **kwargs)
        self.multiplayer = multiplayer

    def clean(self, value: Any) -> RuleSet:  # type: ignore[override]
        key = super().clean(value) or YAHTZEE.key
        return RULE_SETS[key]

    def validate(self, value: Any) -> None:
        """As ChoiceField's, quoting an unknown key as a person could read it: printable
        characters only, and the first 24 of them (an edited form sent thousands, quoted in
        full, twice, pushing the phone's page sideways)."""
        try:
            super().validate(value)
        except ValidationError as error:
            if error.code != "invalid_choice":
                raise
            shown = "".join(c for c in str(value) if c.isprintable())
            shown = shown if len(shown) <= 24 else shown[:24] + "…"
            raise ValidationError(
                self.error_messages["invalid_choice"],
                code="invalid_choice",
                params={"value": shown},
            ) from None


class NewGameForm(forms.Form):
    """What every form of the home page asks: the game to play (``rules``)."""

    variant = VariantField()

    def rules(self) -> RuleSet:
        """The rule set chosen (a valid form)."""
        return self.cleaned_data["variant"]

    def strengths(self) -> list[str]:
        """The computer's strengths the game seats (a valid form)."""
        return []


class SoloGameForm(NewGameForm):
    """A game for one person."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "solo_%s")  # the home page has three forms' fields
        super().__init__(*args, **kwargs)


class ComputerGameForm(NewGameForm):
    """A game against the computer at one of three strengths."""

    strength = forms.ChoiceField(choices=BOT_CHOICES, initial="optimal", widget=forms.RadioSelect)

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "computer_%s")
        super().__init__(*args, **kwargs)

    def descriptions(self) -> list[tuple[str, str, str]]:
        """(value, name, one-line description) of each strength, for the radio list."""
        return [(bot.id, _(bot.name), _(bot.description)) for bot in BOTS.values()]

    def strengths(self) -> list[str]:
        return [self.cleaned_data["strength"]]


class LocalGameForm(NewGameForm):
    """Pass-the-phone: 2 to 6 seats, each a named person or the computer."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        kinds = [("person", _("Person")), *BOT_CHOICES]
        for n in range(1, MAX_PLAYERS + 1):
            self.fields[f"name_{n}"] = forms.CharField(
                required=False, max_length=200, label=_("Player %(n)s") % {"n": n}
            )
            self.fields[f"kind_{n}"] = forms.ChoiceField(
                choices=kinds,
                initial="person",
                required=False,
                label=_("Who plays seat %(n)s") % {"n": n},
            )

    def seat_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """The (name, kind) fields of each seat, for the template."""
        return [(self[f"name_{n}"], self[f"kind_{n}"]) for n in range(1, MAX_PLAYERS + 1)]

    def clean(self) -> dict:
        data = super().clean()
        seats: list[tuple[str, str]] = []
        for n in range(1, MAX_PLAYERS + 1):
            raw, kind = data.get(f"name_{n}", ""), data.get(f"kind_{n}") or "person"
            if kind == "person" and not raw.strip():
                continue
            if kind == "person":
                try:
                    seats.append((clean_name(raw), "person"))
                except ValidationError as error:
                    self.add_error(f"name_{n}", error)
            else:
                seats.append(("", kind))
        if not self.errors:
            people = [name.casefold() for name, kind in seats if kind == "person"]
            if len(seats) < 2:
                raise ValidationError(_("Enter at least two players."), code="few")
            if not people:
                raise ValidationError(_("At least one seat must be a person."), code="no-person")
            if len(set(people)) != len(people):
                raise ValidationError(_("Give each player a different name."), code="same")
        data["seats"] = seats
        return data

    def strengths(self) -> list[str]:
        return [kind for _, kind in self.cleaned_data["seats"] if kind != "person"]


class SheetForm(forms.Form):
    """Which card a blank score sheet prints (``?variant=``: Yahtzee's without)."""

    variant = VariantField()


class SpeedForm(forms.Form):
    """How fast the computer's turns play back, chosen on a game page."""

    speed = forms.ChoiceField(choices=[(speed.id, speed.label) for speed in SPEEDS.values()])


# The moves a game page's forms make: what they post to ``games:act``, and what they send over the
# page's socket as JSON of the same fields plus "move".
MOVES = ("roll", "hold", "score")


@dataclass(frozen=True)
class Move:
    """A move as ``services.perform`` takes it: its kind, what it asks for, the step it saw."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    step: int | None = None


def read_move(kind: str, data: Mapping[str, str]) -> Move:
    """The move a page's form asks for, posted or sent over the socket; IllegalMove (a sentence
    a player can read) if it makes no sense.

    ``step`` is the game's step the page showed: anything but a number is no step (the move is
    then refused as coming from a page that is out of date).

    >>> read_move("hold", {"die": "2", "held": "1", "step": "7"})
    Move(kind='hold', params={'die': 2, 'held': True}, step=7)
    """
    if kind not in MOVES:
        raise IllegalMove(untranslated("Unknown action."))
    return Move(kind, _move_params(kind, data), _number(data.get("step")))


def _number(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _move_params(kind: str, data: Mapping[str, str]) -> dict[str, Any]:
    if kind == "roll":
        seen = data.get("held")
        if seen is None:
            return {}
        if set(seen) - {"0", "1"} or len(seen) < min(DICE_COUNTS):
            raise IllegalMove(untranslated("Say whether to hold or release the die."))
        if len(seen) not in DICE_COUNTS:
            raise IllegalMove(untranslated("There is no such die: a game has five or six."))
        return {"held": [c == "1" for c in seen]}
    if kind == "hold":
        held = {"1": True, "0": False}.get(data.get("held", ""))
        return {"die": _number(data.get("die")), "held": held}
    return {"box": data.get("box", "")}
