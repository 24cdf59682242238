"""The scorecard of the game page: a row per box with a cell per player, and the totals.

Plain values for the card's partials in templates/games/play.html (``box_row``, ``upper_totals``,
``yahtzee_bonus_row``, ``totals``): the template holds the markup.
"""

from __future__ import annotations

from typing import TypedDict

from django.utils.translation import gettext, ngettext

from engine.rules import Scorecard
from games.presenters.words import box_labels


class CellView(TypedDict):
    """One player's cell in one box's row."""

    kind: str  # "filled", "pick" (what the current player would score), "empty" or "chosen"
    points: int | None  # the box's score, or what it would score
    label: str  # a pick's words for a screen reader, "Twos: would score 4"


class RowView(TypedDict):
    """One box of the card across every player."""

    box: str
    label: str
    cells: list[CellView]
    selected: bool  # the current player chose this box: its cell is the button that scores it


class TotalsView(TypedDict):
    """The foot of a player's column on the card."""

    position: int
    upper_total: int
    upper_bonus: int
    to_go: str  # "12 to go" while the upper bonus is still to be won, else ""
    yahtzee_bonus: int
    total: int


class SectionView(TypedDict):
    """The upper or the lower part of the card."""

    upper: bool  # the upper section: its subtotal and bonus rows follow; else the Yahtzee bonus
    rows: list[RowView]


def card_sections(rows: list[RowView], upper: int) -> list[SectionView]:
    """The card's two sections, the ``upper`` boxes then the lower ones."""
    return [
        {"upper": True, "rows": rows[:upper]},
        {"upper": False, "rows": rows[upper:]},
    ]


def card_rows(
    cards: list[Scorecard],
    current: int,
    options: dict[str, int],
    selected: str | None,
    *,
    language: str | None,
) -> list[RowView]:
    """A row per box with a cell per card; ``options`` are what the current player may score."""
    labels = box_labels(language)
    would_score = gettext("%(box)s: would score %(points)s")
    rows = []
    for i, box in enumerate(cards[0].rules.keys):
        name = labels[box]
        cells: list[CellView] = []
        for position, card in enumerate(cards):
            score = card.scores[i]
            if score is not None:
                cells.append({"kind": "filled", "points": score, "label": ""})
            elif position != current or box not in options:
                cells.append({"kind": "empty", "points": None, "label": ""})
            else:
                points = options[box]
                kind = "chosen" if box == selected else "pick"
                aria = would_score % {"box": name, "points": points}
                cells.append({"kind": kind, "points": points, "label": aria})
        rows.append({"box": box, "label": name, "cells": cells, "selected": box == selected})
    return rows


def card_totals(cards: list[Scorecard], done: frozenset[int] = frozenset()) -> list[TotalsView]:
    """The totals at the foot of each column of the card.

    ``done``: the seats that will not play again (a finished game, a forfeit): no "to go".
    """
    totals = []
    for position, card in enumerate(cards):
        bonus = card.upper_bonus
        to_go = ""
        if not bonus and not card.upper_done and position not in done:
            needed = card.upper_needed
            to_go = ngettext("%(needed)s to go", "%(needed)s to go", needed) % {"needed": needed}
        foot: TotalsView = {
            "position": position,
            "upper_total": card.upper_subtotal,
            "upper_bonus": bonus,
            "to_go": to_go,
            "yahtzee_bonus": card.yahtzee_bonus,
            "total": card.total,
        }
        totals.append(foot)
    return totals
