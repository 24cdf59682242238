"""How each box of each card scores, in words: the printable sheet's few and the guide's
sentence, with an example the rules core scores (so the words cannot disagree with the game).

One table per card (Yahtzee's 13 boxes, Yatzy's 15, Maxi Yatzy's 20): rule sets with the same
boxes (in order, multiple Yahtzees off, saved rolls) share their card's words. The fixed points
of a made hand come from the rule set, never from the words.
"""

from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from engine.rulesets import MAXI_BOXES, YAHTZEE_BOXES, YATZY_BOXES, RuleSet


class BoxRule(NamedTuple):
    """How one box scores, in the sheet's few words and the guide's sentence, with an example."""

    short: str  # the printable sheet's column, "3 alike + 2 alike: 25"
    sentence: str  # the guide's, "Three of one face and two of another: 25."
    example: tuple[int, ...]  # dice the guide shows, scored by the rules core


UPPER_WORDS = {
    "ones": (_("Add the ones"), _("Add up the ones.")),
    "twos": (_("Add the twos"), _("Add up the twos.")),
    "threes": (_("Add the threes"), _("Add up the threes.")),
    "fours": (_("Add the fours"), _("Add up the fours.")),
    "fives": (_("Add the fives"), _("Add up the fives.")),
    "sixes": (_("Add the sixes"), _("Add up the sixes.")),
}


def _upper(examples: list[tuple[int, ...]]) -> dict[str, BoxRule]:
    pairs = zip(UPPER_WORDS, examples, strict=True)
    return {key: BoxRule(*UPPER_WORDS[key], example) for key, example in pairs}


YAHTZEE_WORDS: dict[str, BoxRule] = {
    **_upper(
        [
            (1, 1, 3, 4, 1),
            (2, 5, 2, 6, 3),
            (3, 3, 3, 1, 6),
            (4, 4, 2, 4, 4),
            (5, 1, 5, 2, 3),
            (6, 6, 6, 6, 2),
        ]
    ),  # fmt: skip
    "three_of_a_kind": BoxRule(
        _("3 alike: add all dice"),
        _("At least three dice alike: the sum of all five."),
        (4, 4, 4, 2, 6),
    ),
    "four_of_a_kind": BoxRule(
        _("4 alike: add all dice"),
        _("At least four dice alike: the sum of all five."),
        (5, 5, 5, 5, 3),
    ),
    "full_house": BoxRule(
        _("3 alike + 2 alike: %(points)s"),
        _("Three of one face and two of another: %(points)s."),
        (3, 3, 6, 6, 6),
    ),
    "small_straight": BoxRule(
        _("4 in a row: %(points)s"),
        _("Four faces in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): %(points)s."),
        (1, 2, 3, 4, 6),
    ),
    "large_straight": BoxRule(
        _("5 in a row: %(points)s"),
        _("Five faces in a row (1-2-3-4-5 or 2-3-4-5-6): %(points)s."),
        (2, 3, 4, 5, 6),
    ),
    "yahtzee": BoxRule(_("5 alike: %(points)s"), _("All five dice alike: %(points)s."), (6,) * 5),
    "chance": BoxRule(_("Add all dice"), _("Anything: the sum of all five."), (1, 3, 4, 5, 6)),
}
"""Yahtzee's boxes."""

# The Scandinavian hands score the dice that make them: the same words for five dice or six.
PAIR = (_("2 alike: add them"), _("Two dice alike: the sum of the best pair."))
TWO_PAIRS = (
    _("2 + 2 alike: add them"),
    _("Two pairs of different faces: the sum of those four dice."),
)
THREE_ALIKE = (_("3 alike: add them"), _("Three dice alike: the sum of those three."))
FOUR_ALIKE = (_("4 alike: add them"), _("Four dice alike: the sum of those four."))
LOW_RUN = (_("1-2-3-4-5: %(points)s"), _("The faces 1, 2, 3, 4 and 5: %(points)s."))
HIGH_RUN = (_("2-3-4-5-6: %(points)s"), _("The faces 2, 3, 4, 5 and 6: %(points)s."))
HOUSE = (
    _("3 alike + 2 alike: add them"),
    _("Three of one face and two of another: the sum of those five dice."),
)

YATZY_WORDS: dict[str, BoxRule] = {
    **_upper(
        [
            (1, 1, 3, 4, 1),
            (2, 5, 2, 6, 3),
            (3, 3, 3, 1, 6),
            (4, 4, 2, 4, 4),
            (5, 1, 5, 2, 3),
            (6, 6, 6, 6, 2),
        ]
    ),  # fmt: skip
    "one_pair": BoxRule(*PAIR, (6, 6, 5, 5, 1)),
    "two_pairs": BoxRule(*TWO_PAIRS, (3, 3, 5, 5, 1)),
    "three_of_a_kind": BoxRule(*THREE_ALIKE, (4, 4, 4, 2, 6)),
    "four_of_a_kind": BoxRule(*FOUR_ALIKE, (5, 5, 5, 5, 3)),
    "small_straight": BoxRule(*LOW_RUN, (1, 2, 3, 4, 5)),
    "large_straight": BoxRule(*HIGH_RUN, (2, 3, 4, 5, 6)),
    "full_house": BoxRule(*HOUSE, (3, 3, 6, 6, 6)),
    "chance": BoxRule(_("Add all dice"), _("Anything: the sum of all five."), (1, 3, 4, 5, 6)),
    "yatzy": BoxRule(_("5 alike: %(points)s"), _("All five dice alike: %(points)s."), (6,) * 5),
}
"""Scandinavian Yatzy's boxes."""

MAXI_WORDS: dict[str, BoxRule] = {
    **_upper(
        [
            (1, 1, 3, 4, 1, 2),
            (2, 5, 2, 6, 3, 2),
            (3, 3, 3, 1, 6, 3),
            (4, 4, 2, 4, 4, 4),
            (5, 1, 5, 2, 3, 6),
            (6, 6, 6, 6, 2, 6),
        ]
    ),  # fmt: skip
    "one_pair": BoxRule(*PAIR, (6, 6, 5, 5, 1, 2)),
    "two_pairs": BoxRule(*TWO_PAIRS, (3, 3, 5, 5, 1, 1)),
    "three_pairs": BoxRule(
        _("2 + 2 + 2 alike: add them"),
        _("Three pairs of different faces: the sum of all six dice."),
        (1, 1, 4, 4, 6, 6),
    ),
    "three_of_a_kind": BoxRule(*THREE_ALIKE, (4, 4, 4, 2, 6, 1)),
    "four_of_a_kind": BoxRule(*FOUR_ALIKE, (5, 5, 5, 5, 3, 1)),
    "five_of_a_kind": BoxRule(
        _("5 alike: add them"), _("Five dice alike: the sum of those five."), (2, 2, 2, 2, 2, 6)
    ),
    "small_straight": BoxRule(*LOW_RUN, (1, 2, 3, 4, 5, 5)),
    "large_straight": BoxRule(*HIGH_RUN, (2, 3, 4, 5, 6, 6)),
    "full_straight": BoxRule(
        _("1-2-3-4-5-6: %(points)s"), _("Every face from 1 to 6: %(points)s."), (1, 2, 3, 4, 5, 6)
    ),
    "full_house": BoxRule(*HOUSE, (3, 3, 6, 6, 6, 1)),
    "castle": BoxRule(
        _("3 alike + 3 alike: add them"),
        _("Two sets of three alike: the sum of all six dice."),
        (2, 2, 2, 5, 5, 5),
    ),
    "tower": BoxRule(
        _("4 alike + 2 alike: add them"),
        _("Four of one face and two of another: the sum of all six dice."),
        (4, 4, 4, 4, 1, 1),
    ),
    "chance": BoxRule(_("Add all dice"), _("Anything: the sum of all six."), (1, 3, 4, 5, 6, 6)),
    "maxi_yatzy": BoxRule(_("6 alike: %(points)s"), _("All six dice alike: %(points)s."), (3,) * 6),
}
"""Maxi Yatzy's boxes."""

CARD_WORDS = {YAHTZEE_BOXES: YAHTZEE_WORDS, YATZY_BOXES: YATZY_WORDS, MAXI_BOXES: MAXI_WORDS}
"""Each card's words, by its boxes."""


def box_rule(rules: RuleSet, box: str) -> BoxRule:
    """How ``box`` of this rule set's card scores (its words untranslated, with an example)."""
    return CARD_WORDS[rules.boxes][box]


def rule_words(rules: RuleSet, box: str, sentence: bool = False) -> str:
    """How ``box`` scores in the active language: the sheet's few words, or the guide's sentence."""
    rule = box_rule(rules, box)
    words = gettext(rule.sentence if sentence else rule.short)
    points = rules.box(box).points  # a made hand's fixed score (0: the box adds dice)
    return words % {"points": points} if points else words
