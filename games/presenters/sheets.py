"""The printable score sheet and the guide to the boxes."""

from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from engine.rules import CATEGORIES, UPPER, Scorecard, box_score
from engine.rulesets import YAHTZEE
from games.models import Game
from games.presenters.players import is_own, seat_name
from games.presenters.words import label


class BoxRule(NamedTuple):
    """How one box scores, in the sheet's few words and the guide's sentence, with an example."""

    short: str  # the printable sheet's column, "3 alike + 2 alike: 25"
    sentence: str  # the guide's, "Three of one face and two of another: 25."
    example: tuple[int, ...]  # dice the guide shows, scored by the rules core


# The one table of the boxes' rules: the sheet and the guide both read it, and the fixed scores
# come from the rule set (the official one: the sheet and the guide show its card), so the
# words cannot disagree with the game.
BOX_RULES: dict[str, BoxRule] = {
    "ones": BoxRule(_("Add the ones"), _("Add up the ones."), (1, 1, 3, 4, 1)),
    "twos": BoxRule(_("Add the twos"), _("Add up the twos."), (2, 5, 2, 6, 3)),
    "threes": BoxRule(_("Add the threes"), _("Add up the threes."), (3, 3, 3, 1, 6)),
    "fours": BoxRule(_("Add the fours"), _("Add up the fours."), (4, 4, 2, 4, 4)),
    "fives": BoxRule(_("Add the fives"), _("Add up the fives."), (5, 1, 5, 2, 3)),
    "sixes": BoxRule(_("Add the sixes"), _("Add up the sixes."), (6, 6, 6, 6, 2)),
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


def rule_words(box: str, sentence: bool = False) -> str:
    """How ``box`` scores in the active language: the sheet's few words, or the guide's sentence."""
    rule = BOX_RULES[box]
    words = gettext(rule.sentence if sentence else rule.short)
    points = YAHTZEE.box(box).points  # a made hand's fixed score (0: the box adds dice)
    return words % {"points": points} if points else words


BLANK_SHEET_COLUMNS = 6


def sheet_context(game: Game | None, visitor: str | None = None) -> dict:
    """The lines of a printable score sheet: blank with six columns, or a game's cards as
    ``visitor`` sees them."""
    if game is None:
        headings = [gettext("Game %(number)s") % {"number": n + 1} for n in range(6)]
        cards: list[Scorecard | None] = [None] * BLANK_SHEET_COLUMNS
    else:
        seats = game.ordered_seats()
        viewer, solo = game.seat_of(visitor), len(seats) == 1
        headings = [seat_name(seat, solo=solo, own=is_own(seat, viewer)) for seat in seats]
        cards = list(game.state().cards)

    def line(text: str, how: str, value, kind: str = "box") -> dict:
        return {
            "label": text,
            "how": how,
            "kind": kind,
            "cells": [value(c) if c else "" for c in cards],
        }

    lines = [line(label(b), rule_words(b), lambda c, b=b: _blank(c.score_of(b))) for b in UPPER]
    lines += [
        line(gettext("Upper total"), "", lambda c: c.upper_subtotal, "subtotal"),
        line(
            gettext("Bonus"),
            gettext("%(threshold)s or more: %(bonus)s")
            % {"threshold": YAHTZEE.upper_bonus.threshold, "bonus": YAHTZEE.upper_bonus.points},
            lambda c: c.upper_bonus,
            "subtotal",
        ),
    ]
    lines += [
        line(label(b), rule_words(b), lambda c, b=b: _blank(c.score_of(b)))
        for b in CATEGORIES[len(UPPER) :]
    ]
    lines += [
        line(
            gettext("Yahtzee bonus"),
            gettext("%(bonus)s for each extra Yahtzee") % {"bonus": YAHTZEE.yahtzee_bonus},
            lambda c: c.yahtzee_bonus,
            "subtotal",
        ),
        line(gettext("Total"), "", lambda c: c.total, "total"),
    ]
    return {"game": game, "headings": headings, "lines": lines}


def _blank(score: int | None) -> int | str:
    return "" if score is None else score


def guide_context() -> dict:
    """The guide's examples, scored by the rules core so they cannot disagree with the game."""
    examples = [
        {
            "box": box,
            "label": label(box),
            "how": rule_words(box, sentence=True),
            "dice": rule.example,
            "points": box_score(box, rule.example),
        }
        for box, rule in BOX_RULES.items()
    ]
    return {"examples": examples}
