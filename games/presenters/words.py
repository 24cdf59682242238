"""The words of the game page, translated once per language, and the boxes' names."""

from __future__ import annotations

import functools

from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from engine.rules import CATEGORIES, LABELS

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
    "keys": _("Keys: 1-5 hold, R or Space roll, ↑ ↓ choose a box, Enter scores."),
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
    "round": _("Round %(round)s of 13"),
    "bonus_line": _("Bonus (%(target)s or more)"),
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
    """The boxes' names in a language (the card names all 13 on every redraw)."""
    with translation.override(language):
        return {box: label(box) for box in CATEGORIES}
