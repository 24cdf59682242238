"""The printable score sheet and the guide to the boxes of every card."""

from __future__ import annotations

from django.utils.translation import get_language, gettext

from engine.rules import Scorecard, box_score
from engine.rulesets import MAXI_YATZY, RULE_SETS, YAHTZEE, YATZY, RuleSet
from engine.strategy import NEW_GAME_VALUES
from games.models import Game
from games.presenters.boxwords import box_rule, rule_words
from games.presenters.players import is_own, seat_name
from games.presenters.words import bonus_figures, label, phrases, rules_notes

BLANK_SHEET_COLUMNS = 6


def sheet_context(game: Game | None, visitor: str | None = None, rules: RuleSet = YAHTZEE) -> dict:
    """The lines of a printable score sheet: blank with six columns (of ``rules``' card), or a
    game's cards as ``visitor`` sees them."""
    if game is None:
        headings = [gettext("Game %(number)s") % {"number": n + 1} for n in range(6)]
        cards: list[Scorecard | None] = [None] * BLANK_SHEET_COLUMNS
    else:
        rules = game.rules
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

    def box_line(box: str) -> dict:
        return line(label(box), rule_words(rules, box), lambda c: _blank(c.score_of(box)))

    lines = [box_line(box) for box in rules.upper]
    lines += [
        line(gettext("Upper total"), "", lambda c: c.upper_subtotal, "subtotal"),
        line(
            gettext("Bonus"),
            gettext("%(threshold)s or more: %(bonus)s")
            % {"threshold": rules.upper_bonus.threshold, "bonus": rules.upper_bonus.points},
            lambda c: c.upper_bonus,
            "subtotal",
        ),
    ]
    lines += [box_line(box) for box in rules.lower]
    if rules.joker:
        lines.append(
            line(
                gettext("Yahtzee bonus"),
                gettext("%(bonus)s for each extra Yahtzee") % {"bonus": rules.yahtzee_bonus},
                lambda c: c.yahtzee_bonus,
                "subtotal",
            )
        )
    lines.append(line(gettext("Total"), "", lambda c: c.total, "total"))
    return {
        "game": game,
        "headings": headings,
        "lines": lines,
        "rules": rules,
        "rules_name": gettext(rules.name),
        "notes": rules_notes(rules, phrases(get_language())),
    }


def _blank(score: int | None) -> int | str:
    return "" if score is None else score


def examples(rules: RuleSet) -> list[dict]:
    """Each box of the rule set's card with how it scores and an example, scored by the rules
    core so that they cannot disagree with the game."""
    return [
        {
            "box": box,
            "label": label(box),
            "how": rule_words(rules, box, sentence=True),
            "dice": (dice := box_rule(rules, box).example),
            "points": box_score(box, dice, rules),
        }
        for box in rules.keys
    ]


# The guide's other cards: Yahtzee's is the page's first table; the variants played on them
# (in order, saved rolls) have sections of their own.
GUIDE_CARDS = (YATZY, MAXI_YATZY)


def guide_context() -> dict:
    """The guide's examples for every card, and the figures of each card's bonus."""
    cards = [
        {
            "key": rules.key,
            "name": gettext(rules.name),
            "dice": rules.dice,
            "boxes": rules.turns,
            "bonus": bonus_figures(rules),
            "examples": examples(rules),
        }
        for rules in GUIDE_CARDS
    ]
    perfect = [
        (gettext(rules.name), NEW_GAME_VALUES[rules.key])
        for rules in RULE_SETS.values()
        if rules.key in NEW_GAME_VALUES
    ]
    return {"examples": examples(YAHTZEE), "cards": cards, "perfect": perfect}
