"""The five dice of the game page, the roll button's words and the line above the dice.

Plain values for the ``dice`` partial in templates/games/play.html, which holds the markup.
"""

from __future__ import annotations

import functools
from typing import TypedDict

from django.template.loader import render_to_string
from django.utils.translation import ngettext

from engine.flow import Turn
from games.models import Seat


class DieView(TypedDict):
    """One of the five dice as the game page shows it."""

    index: int  # 0-4, as the hold form posts it
    number: int  # 1-5, as a player counts, also its keyboard key
    held: bool
    pressed: str  # aria-pressed: "true" while held
    press_holds: str  # what pressing the die posts: "1" holds it, "0" releases it
    held_tag: str  # "Held" while held, else ""
    label: str  # "Die 3: 5" (for someone else's dice: "Die 3: 5, held")
    face: int  # 1-6, or 0 before the first roll: which drawing of the sprite it shows


# Where the pips of each face sit on a 100x100 face.
_L, _M, _H = 27, 50, 73
PIPS = {
    1: ((_M, _M),),
    2: ((_L, _L), (_H, _H)),
    3: ((_L, _L), (_M, _M), (_H, _H)),
    4: ((_L, _L), (_H, _L), (_L, _H), (_H, _H)),
    5: ((_L, _L), (_H, _L), (_M, _M), (_L, _H), (_H, _H)),
    6: ((_L, _L), (_H, _L), (_L, _M), (_H, _M), (_L, _H), (_H, _H)),
}


@functools.cache
def dice_sprite() -> str:
    """The drawings of the faces (templates/games/_die.html), once in the page, rendered once per
    process: each die shows its face from them (``<use>``), and so a redraw of the dice carries
    5 elements of drawing rather than 10 to 35, each of which the page parses, inserts and
    cleans up again at the next redraw."""
    faces = [(face, PIPS.get(face, ())) for face in range(7)]
    return render_to_string("games/_die.html", {"faces": faces})


def dice_views(turn: Turn, can_play: bool, words: dict) -> list[DieView]:
    """The dice (five, or six) with what they say to a screen reader; the player's own are
    buttons."""
    dice = []
    for index in range(len(turn.held)):
        face = turn.dice[index] if turn.dice else None
        held = turn.held[index]
        if face:
            aria = words["die"] % {"number": index + 1, "face": face}
        else:
            aria = words["die_not_rolled"] % {"number": index + 1}
        if held and not can_play:
            aria = f"{aria}, {words['held_die']}"
        die: DieView = {
            "index": index,
            "number": index + 1,
            "held": held,
            "pressed": "true" if held else "false",
            "press_holds": "0" if held else "1",
            "held_tag": words["held"] if held else "",
            "label": aria,
            "face": face or 0,
        }
        dice.append(die)
    return dice


def whose_turn(can_play: bool, current: Seat, current_name: str, words: dict) -> str:
    """Above the dice of a game of several players: "Ana, your turn", "Bo is playing"."""
    if not can_play:
        return words["playing"] % {"name": current_name}
    if current.name:
        return words["named_turn"] % {"name": current.name}
    return words["your_turn"]


def roll_label(turn: Turn, words: dict) -> str:
    """What the roll button says: "Roll", "Roll again (2 left)" or "No rolls left"."""
    if not turn.dice:
        return words["roll"]
    left = turn.rolls_left
    if not left:
        return words["no_rolls_left"]
    again = ngettext("Roll again (%(left)s left)", "Roll again (%(left)s left)", left)
    return again % {"left": left}


def dice_hint(turn: Turn, words: dict) -> str:
    """What to do next, below the roll button."""
    if not turn.dice:
        return words["roll_to_start"]
    return words["hold_or_pick"] if turn.rolls_left else words["pick"]
