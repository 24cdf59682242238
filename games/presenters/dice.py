"""The five dice of the game page, the roll button's words and the line above the dice."""

from __future__ import annotations

import functools
from typing import TypedDict

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

from games.flow import Turn
from games.models import Seat
from games.presenters.words import fill


class DieView(TypedDict):
    """One of the five dice as the game page shows it."""

    index: str  # 0-4, as the hold form posts it
    number: str  # 1-5, as a player counts, also its keyboard key
    held: bool
    pressed: str  # aria-pressed: "true" while held
    press_holds: str  # what pressing the die posts: "1" holds it, "0" releases it
    held_tag: str  # "Held" while held, else ""
    label: str  # "Die 3: 5" (for someone else's dice: "Die 3: 5, held")
    svg: str  # the face as drawn


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
def die_face(face: int | None) -> str:
    """The drawing of a face, rendered once per face and process: it never changes."""
    return render_to_string("games/_die.html", {"pips": PIPS.get(face or 0, ())})


# Strings the dice print many times over, made safe to print once.
TRUE, FALSE = SafeString("true"), SafeString("false")


HOLD, RELEASE = SafeString("1"), SafeString("0")  # what pressing a die posts


DIE_INDEXES = tuple(map(SafeString, range(5)))


DIE_NUMBERS = tuple(map(SafeString, range(1, 6)))


DIE_BUTTON = (
    '<li>\n<form method="post" action="{url}" hx-post="{url}">\n{csrf}\n'
    '<input type="hidden" name="step" value="{step}">\n'
    '<input type="hidden" name="die" value="{index}">\n'
    '<input type="hidden" name="held" value="{press_holds}">\n'
    '<button type="submit" id="die-{index}" class="die{held}" aria-pressed="{pressed}"'
    ' data-key="{number}"{disabled} aria-label="{label}">\n{svg}\n'
    '<span class="held-tag" aria-hidden="true">{held_tag}</span>\n</button>\n</form>\n</li>'
)


DIE_SHOWN = (  # someone else's dice: shown, not pressable
    '<li>\n<span class="die{held}" role="img" aria-label="{label}">\n{svg}\n'
    '<span class="held-tag" aria-hidden="true">{held_tag}</span>\n</span>\n</li>'
)


def csrf_field(token: object) -> str:
    """The hidden field that ``{% csrf_token %}`` renders for this token ("" without one)."""
    if not token or token == "NOTPROVIDED":
        return ""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


def dice_items(context) -> SafeString:
    """The five dice of the game page as list items: buttons that hold for the player to move."""
    dice: list[DieView] = context["dice"]
    if not context["can_play"]:
        return SafeString("\n".join(
            DIE_SHOWN.format(held=" held" if d["held"] else "", label=d["label"], svg=d["svg"],
                             held_tag=d["held_tag"])
            for d in dice
        ))  # fmt: skip
    url, step = context["urls"]["hold"], context["step"]
    csrf = csrf_field(context.get("csrf_token"))
    disabled = " disabled" if context["dice_locked"] else ""
    return SafeString("\n".join(
        DIE_BUTTON.format(url=url, csrf=csrf, step=step, index=d["index"],
                          press_holds=d["press_holds"], held=" held" if d["held"] else "",
                          pressed=d["pressed"], number=d["number"], disabled=disabled,
                          label=d["label"], svg=d["svg"], held_tag=d["held_tag"])
        for d in dice
    ))  # fmt: skip


def dice_views(turn: Turn, can_play: bool, words: dict) -> list[DieView]:
    """The five dice with what their buttons say; the player's own dice are buttons to hold."""
    dice = []
    for index in range(5):
        face = turn.dice[index] if turn.dice else None
        held = turn.held[index]
        if face:
            aria = fill(words["die"], number=index + 1, face=face)
        else:
            aria = fill(words["die_not_rolled"], number=index + 1)
        if held and not can_play:
            aria = SafeString(f"{aria}, {words['held_die']}")
        die: DieView = {
            "index": DIE_INDEXES[index],
            "number": DIE_NUMBERS[index],
            "held": held,
            "pressed": TRUE if held else FALSE,
            "press_holds": RELEASE if held else HOLD,
            "held_tag": words["held"] if held else "",
            "label": aria,
            "svg": die_face(face),
        }
        dice.append(die)
    return dice


def whose_turn(can_play: bool, current: Seat, current_name: str, words: dict) -> str:
    """Above the dice of a game of several players: "Ana, your turn", "Bo is playing"."""
    if not can_play:
        return fill(words["playing"], name=current_name)
    if current.name:
        return fill(words["named_turn"], name=current.name)
    return words["your_turn"]


def roll_label(turn: Turn, words: dict) -> str:
    """What the roll button says: "Roll", "Roll again (2 left)" or "No rolls left"."""
    if not turn.dice:
        return words["roll"]
    left = turn.rolls_left
    if not left:
        return words["no_rolls_left"]
    again = ngettext("Roll again (%(left)s left)", "Roll again (%(left)s left)", left)
    return fill(again, left=left)


def dice_hint(turn: Turn, words: dict) -> str:
    """What to do next, below the roll button."""
    if not turn.dice:
        return words["roll_to_start"]
    return words["hold_or_pick"] if turn.rolls_left else words["pick"]
