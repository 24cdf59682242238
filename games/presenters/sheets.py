"""The printable score sheet and the guide to the boxes."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from games.models import Game
from games.presenters.players import is_own, seat_name
from games.presenters.words import label
from games.rules import CATEGORIES, UPPER, Scorecard, box_score

HOW_TO_SCORE = {
    "ones": _("Add the ones"),
    "twos": _("Add the twos"),
    "threes": _("Add the threes"),
    "fours": _("Add the fours"),
    "fives": _("Add the fives"),
    "sixes": _("Add the sixes"),
    "three_of_a_kind": _("3 alike: add all dice"),
    "four_of_a_kind": _("4 alike: add all dice"),
    "full_house": _("3 alike + 2 alike: 25"),
    "small_straight": _("4 in a row: 30"),
    "large_straight": _("5 in a row: 40"),
    "yahtzee": _("5 alike: 50"),
    "chance": _("Add all dice"),
}


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

    lines = [
        line(label(b), gettext(HOW_TO_SCORE[b]), lambda c, b=b: _blank(c.score_of(b)))
        for b in UPPER
    ]
    lines += [
        line(gettext("Upper total"), "", lambda c: c.upper_subtotal, "subtotal"),
        line(gettext("Bonus"), gettext("63 or more: 35"), lambda c: c.upper_bonus, "subtotal"),
    ]
    lines += [
        line(label(b), gettext(HOW_TO_SCORE[b]), lambda c, b=b: _blank(c.score_of(b)))
        for b in CATEGORIES[len(UPPER) :]
    ]
    lines += [
        line(
            gettext("Yahtzee bonus"),
            gettext("100 for each extra Yahtzee"),
            lambda c: c.yahtzee_bonus,
            "subtotal",
        ),
        line(gettext("Total"), "", lambda c: c.total, "total"),
    ]
    return {"game": game, "headings": headings, "lines": lines}


def _blank(score: int | None) -> int | str:
    return "" if score is None else score


GUIDE_EXAMPLES = {
    "ones": (1, 1, 3, 4, 1),
    "twos": (2, 5, 2, 6, 3),
    "threes": (3, 3, 3, 1, 6),
    "fours": (4, 4, 2, 4, 4),
    "fives": (5, 1, 5, 2, 3),
    "sixes": (6, 6, 6, 6, 2),
    "three_of_a_kind": (4, 4, 4, 2, 6),
    "four_of_a_kind": (5, 5, 5, 5, 3),
    "full_house": (3, 3, 6, 6, 6),
    "small_straight": (1, 2, 3, 4, 6),
    "large_straight": (2, 3, 4, 5, 6),
    "yahtzee": (6, 6, 6, 6, 6),
    "chance": (1, 3, 4, 5, 6),
}


GUIDE_RULES = {
    "ones": _("Add up the ones."),
    "twos": _("Add up the twos."),
    "threes": _("Add up the threes."),
    "fours": _("Add up the fours."),
    "fives": _("Add up the fives."),
    "sixes": _("Add up the sixes."),
    "three_of_a_kind": _("At least three dice alike: the sum of all five."),
    "four_of_a_kind": _("At least four dice alike: the sum of all five."),
    "full_house": _("Three of one face and two of another: 25."),
    "small_straight": _("Four faces in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): 30."),
    "large_straight": _("Five faces in a row (1-2-3-4-5 or 2-3-4-5-6): 40."),
    "yahtzee": _("All five dice alike: 50."),
    "chance": _("Anything: the sum of all five."),
}


def guide_context() -> dict:
    """The guide's examples, scored by the rules core so they cannot disagree with the game."""
    examples = [
        {
            "box": box,
            "label": label(box),
            "how": gettext(GUIDE_RULES[box]),
            "dice": dice,
            "points": box_score(box, dice),
        }
        for box, dice in GUIDE_EXAMPLES.items()
    ]
    return {"examples": examples}
