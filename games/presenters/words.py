"""The words of the game page, translated once per language, and the boxes' names."""

from __future__ import annotations

import functools

from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_noop as _

from engine.flow import Turn
from engine.rulesets import RULE_SETS, YAHTZEE, RuleSet

# Every box of every rule set by key: a key names the same box wherever it is on a card.
LABELS = {key: name for rules in RULE_SETS.values() for key, name in rules.labels.items()}

# What the game page says on every redraw, translated once per language (``phrases``): the
# templates print the words as {{ words.<key> }}, where {% translate %} would make a lazy string
# and look it up in the catalog on each render (as costly as a dozen printed variables); the
# sentences with placeholders are filled in here.
PHRASES = {
    # Words of the fragments a move redraws.
    "dice": _("Dice"),
    "coach": _("Coach"),
    "scorecard": _("Scorecard"),
    "box": _("Box"),
    "upper_total": _("Upper total"),
    "yahtzee_bonus": _("Yahtzee bonus"),
    "total": _("Total"),
    "players": _("Players"),
    "watching": _("You are watching this game."),
    "share": _("Friends can watch this game live: share this page's address."),
    "single_yahtzee": _("Multiple Yahtzees are off: no Yahtzee bonus, no joker."),
    "in_order": _("In order: each turn scores the next box down the card."),
    "saved_rolls": _(
        "Saved rolls: the rolls a turn leaves unused are kept for that player's later turns."
    ),
    "keys": _("Keys: 1-%(last)s hold, R or Space roll, ↑ ↓ choose a box, Enter scores."),
    "time_left": _("Time left to come back:"),
    "end_game": _("End the game"),
    "turn_time_left": _("Time left for this turn:"),  # followed by a countdown, 0:59
    # The same at your own pace (a day a turn): a ticking 23:59:58 alone read as urgent.
    "own_pace_time_left": _("At your own pace: this turn can wait"),  # a countdown, 23:59:58
    "turn_time_up": _("Time is up: this turn is being played for the player."),
    "skip": _("Skip"),  # shows a computer's turn played back at once
    "daily": _("Daily challenge: the same dice for everyone today; no coach until it is over"),
    "ranked": _("Ranked"),  # a ranked match: its end changes both players' ratings
    "resign": _("Resign…"),  # opens a page that asks to confirm
    "win_chances": _("Chance to win:"),  # then "Ana 62% · Bo 38%" (games/presenters/winbar.py)
    "win_chances_how": _("As if both played perfectly for points from here: how it is worked out"),
    # Words put together here.
    "roll_to_start": _("Roll to start your turn."),
    "hold_or_pick": _("Tap dice to hold them, roll again, or pick a box to score."),
    "pick": _("Pick a box to score."),
    "roll": _("Roll"),
    "no_rolls_left": _("No rolls left"),
    "your_turn": _("Your turn"),
    "held": _("Held"),  # the tag on a held die
    "held_die": _("held"),  # after a die's label, for someone else's dice
    "open": _("open"),  # another player's open box, to a screen reader
    "online": _("here"),  # where an online player is
    "away": _("away"),
    "joining": _("joining"),  # a player whose page is opening as the game starts
    "left": _("left"),
    "later": _("plays later"),  # at your own pace: not on the game now, and not away
    "berserk": _("berserk: half the time, no hints"),  # a tournament seat's (games.berserk)
    # Sentences to fill in.
    "round": _("Round %(round)s of %(rounds)s"),
    "bonus_line": _("Bonus %(points)s (%(target)s or more)"),
    "playing": _("%(name)s is playing"),
    "named_turn": _("%(name)s, your turn"),
    "die": _("Die %(number)s: %(face)s"),
    "die_not_rolled": _("Die %(number)s: not rolled"),
    "is_away": _("%(name)s is away."),
    "go_on_without": _("Continue without %(name)s"),
}


@functools.lru_cache(maxsize=16)
def phrases(language: str | None) -> dict[str, SafeString]:
    """PHRASES in a language (None: untranslated).

    Not escaped: like ``{% translate %}`` and ``{% blocktranslate %}``, trust the catalog.
    """
    with translation.override(language):
        return {key: SafeString(gettext(message)) for key, message in PHRASES.items()}


def label(box: str) -> str:
    """The box's name in the active language."""
    return gettext(LABELS[box])


@functools.lru_cache(maxsize=16)
def box_labels(language: str | None) -> dict[str, str]:
    """The boxes' names in a language, of every rule set (the card names all its boxes on every
    redraw)."""
    with translation.override(language):
        return {box: label(box) for box in LABELS}


def bonus_figures(rules: RuleSet) -> dict[str, int]:
    """The upper bonus's points and the total that wins it, for ``bonus_line``: 35 at 63 ..."""
    return {"points": rules.upper_bonus.points, "target": rules.upper_bonus.threshold}


def rules_notes(rules: RuleSet, words: dict) -> list[str]:
    """What the game page says of its rule set's ways beyond the boxes: in order, saved rolls,
    a Yahtzee card without the joker."""
    notes = []
    if rules.in_order:
        notes.append(words["in_order"])
    if rules.saved_rolls:
        notes.append(words["saved_rolls"])
    if rules.yahtzee_box == "yahtzee" and not rules.joker:  # Yatzy has no joker to miss
        notes.append(words["single_yahtzee"])
    return notes


def saved_line(turn: Turn) -> str:
    """ "2 saved rolls": those the player has left, in a game that saves them."""
    count = turn.saved_left
    return ngettext("%(count)s saved roll", "%(count)s saved rolls", count) % {"count": count}


def rules_name(rules: RuleSet) -> str:
    """The rule set's name, said where a game is not the site's first, Yahtzee ("" for it)."""
    return "" if rules.key == YAHTZEE.key else gettext(rules.name)
