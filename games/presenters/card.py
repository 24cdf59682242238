"""The scorecard of the game page: a row per box with a cell per player, and the totals."""

from __future__ import annotations

from typing import TypedDict

from django.utils.safestring import SafeString
from django.utils.translation import ngettext

from games.presenters.words import box_labels, fill, phrases, printed
from games.rules import CATEGORIES, UPPER, Scorecard


class RowView(TypedDict):
    """One box of the card across every player, its cells ready to print."""

    box: str
    label: str
    cells: str  # every player's cell; in the row of the chosen box, those left of the chosen cell
    selected: bool  # the current player chose this box: the template adds the button that scores it
    button: str  # that button's words, "Score 9"
    cells_after: str  # the cells right of the chosen cell


class TotalsView(TypedDict):
    """The foot of a player's column on the card."""

    position: str
    upper_total: str
    upper_bonus: str
    to_go: str  # "12 to go" while the upper bonus is still to be won, else ""
    yahtzee_bonus: str
    total: str


class SectionView(TypedDict):
    """The upper or the lower part of the card: its rows, ready to print but the chosen one."""

    before: str  # the rows above the chosen box's (all of them when none is chosen here)
    selected: RowView | None  # the chosen box's row: the template adds its form
    after: str  # the rows below it
    foot: str  # the section's subtotal rows


# The cells of the card, made here rather than in the template: the card has 13 rows of up to six
# players' cells, and every tag the template engine runs costs a few microseconds. (The cell of the
# chosen box holds a form: the template makes that one, for its CSRF token.)
FILLED_CELL = '<td class="filled">\n{points}\n</td>'


# What the current player's dice would score in an open box: a plain link without JavaScript;
# with htmx it asks for the card with that box selected (the answer swaps the card out of band).
PICK_CELL = (
    '<td class="open">\n<a class="pick{zero}" href="?select={box}" hx-get="{play}?select={box}"'
    ' aria-label="{label}">{points}</a>\n</td>'
)


EMPTY_CELL = '<td class="open">\n<span class="empty" aria-label="{label}">–</span>\n</td>'


# The rows of the card but the chosen box's, and the dice: made here for the same reason. The forms
# of the dice get the CSRF field from the template's context (``{% dice_items %}``).
ROW = '<tr>\n<th scope="row">{label}</th>\n{cells}\n</tr>'


def card_sections(
    rows: list[RowView], totals: list[TotalsView], words: dict, bonus_line: str, yahtzees: bool
) -> list[SectionView]:
    """The card's two sections with their subtotals (``yahtzees``: the Yahtzee bonus line)."""
    upper_total = "".join(f"<td>{foot['upper_total']}</td>" for foot in totals)
    bonus = "".join(
        f'<td><span class="to-go">{foot["to_go"]}</span></td>'
        if foot["to_go"]
        else f"<td>{foot['upper_bonus']}</td>"
        for foot in totals
    )
    feet = [
        f'<tr class="subtotal"><th scope="row">{words["upper_total"]}</th>{upper_total}</tr>\n'
        f'<tr class="subtotal bonus-line"><th scope="row">{bonus_line}</th>{bonus}</tr>',
        "",
    ]
    if yahtzees:
        cells = "".join(f"<td>{foot['yahtzee_bonus']}</td>" for foot in totals)
        feet[1] = f'<tr class="subtotal"><th scope="row">{words["yahtzee_bonus"]}</th>{cells}</tr>'
    sections = []
    for part, foot in zip((rows[: len(UPPER)], rows[len(UPPER) :]), feet, strict=True):
        chosen = next((i for i, row in enumerate(part) if row["selected"]), len(part))
        printed_rows = [ROW.format(label=row["label"], cells=row["cells"]) for row in part]
        section: SectionView = {
            "before": SafeString("\n".join(printed_rows[:chosen])),
            "selected": part[chosen] if chosen < len(part) else None,
            "after": SafeString("\n".join(printed_rows[chosen + 1 :])),
            "foot": SafeString(foot),
        }
        sections.append(section)
    return sections


def card_foot(totals: list[TotalsView], words: dict) -> SafeString:
    """The card's last row: each player's total."""
    cells = "".join(f'<td id="total-{foot["position"]}">{foot["total"]}</td>' for foot in totals)
    return SafeString(f'<tr class="total"><th scope="row">{words["total"]}</th>{cells}</tr>')


def card_rows(
    cards: list[Scorecard],
    current: int,
    options: dict[str, int],
    selected: str | None,
    *,
    play_url: str,
    language: str | None,
) -> list[RowView]:
    """A row per box with a cell per card; ``options`` are what the current player may score.

    ``play_url`` is the game page's address (escaped), where a pick link asks for the card.
    """
    words, labels = phrases(language), box_labels(language)
    empty = EMPTY_CELL.format(label=words["open"])
    rows = []
    for i, box in enumerate(CATEGORIES):
        name = labels[box]
        cells = []
        for position, card in enumerate(cards):
            score = card.scores[i]
            if score is not None:
                cells.append(FILLED_CELL.format(points=score))
            elif position != current or box not in options:
                cells.append(empty)
            elif box != selected:
                points = options[box]
                aria = fill(words["would_score"], box=name, points=points)
                cells.append(
                    PICK_CELL.format(
                        zero="" if points else " zero",
                        box=box,
                        play=play_url,
                        label=aria,
                        points=points,
                    )
                )
        row: RowView = {
            "box": SafeString(box),
            "label": name,
            "cells": SafeString("\n".join(cells)),
            "selected": False,
            "button": "",
            "cells_after": "",
        }
        if box == selected:  # the chosen cell is the current player's: split the row there
            row["cells"] = SafeString("\n".join(cells[:current]))
            row["cells_after"] = SafeString("\n".join(cells[current:]))
            row["selected"] = True
            row["button"] = fill(words["score_button"], points=options[box])
        rows.append(row)
    return rows


def card_totals(cards: list[Scorecard], done: frozenset[int] = frozenset()) -> list[TotalsView]:
    """The totals at the foot of each column of the card, ready to print.

    ``done``: the seats that will not play again (a finished game, a forfeit): no "to go".
    """
    totals = []
    for position, card in enumerate(cards):
        bonus = card.upper_bonus
        to_go = ""
        if not bonus and not card.upper_done and position not in done:
            needed = card.upper_needed
            to_go = fill(ngettext("%(needed)s to go", "%(needed)s to go", needed), needed=needed)
        foot: TotalsView = {
            "position": printed(position),
            "upper_total": printed(card.upper_subtotal),
            "upper_bonus": printed(bonus),
            "to_go": to_go,
            "yahtzee_bonus": printed(card.yahtzee_bonus),
            "total": printed(card.total),
        }
        totals.append(foot)
    return totals
