"""Turn stored games into what the templates show: rows of a card, dice, the status line.

Kept apart from the views so that pages, fragments and (later) pushed updates show the same thing.

Rendering is most of what a move costs the server (every move redraws fragments of the game page
for every seat), and Django's template engine spends a few microseconds on each tag it runs. So
what the game page repeats comes from here ready to print: the cells, dice and players as plain
dicts (a key is found faster than an attribute) of strings that are already translated, filled in
and escaped. The templates keep the markup and the structure; ``benchmarks/bench_render.py``
measures the fragments.
"""

from __future__ import annotations

import functools
import html
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, TypedDict
from urllib.parse import quote

from django.conf import settings
from django.db import connections, router
from django.template.context import make_context
from django.template.loader import get_template, render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_noop as _

from games import advice
from games.analysis import Analysis, Decision
from games.flow import Turn, replay
from games.models import Action, Game, Seat
from games.rules import (
    CATEGORIES,
    LABELS,
    UPPER,
    UPPER_BONUS_THRESHOLD,
    Scorecard,
    box_score,
)
from games.services import away_deadline
from games.strategy import odds


def printed(value: object) -> SafeString:
    """``value`` as ``{{ value }}`` prints it: escaped, unless it is safe already.

    Django's ``conditional_escape`` without its handling of lazy strings, which costs several
    times the escaping itself. Numbers print as ``str()`` prints them, as the template engine
    prints them while the site does not group thousands (``USE_THOUSAND_SEPARATOR`` is off).
    """
    if isinstance(value, int):
        return SafeString(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return SafeString(html.escape(str(value)))


def fill(message: str, **values: object) -> SafeString:
    """A translated message with its placeholders filled in, as ``{% blocktranslate %}`` does.

    Like the tag, it escapes the values but not the message (which comes from the catalog), so it
    gives the same text, ready to print with ``{{ }}``.
    """
    return SafeString(message % {name: printed(value) for name, value in values.items()})


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
    "keys": _("Keys: 1-5 hold, R or Space roll."),
    "time_left": _("Time left to come back:"),
    "end_game": _("End the game"),
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
    "left": _("left"),
    # Sentences to fill in.
    "round": _("Round %(round)s of 13"),
    "bonus_line": _("Bonus (%(target)s or more)"),
    "playing": _("%(name)s is playing"),
    "named_turn": _("%(name)s, your turn"),
    "die": _("Die %(number)s: %(face)s"),
    "die_not_rolled": _("Die %(number)s: not rolled"),
    "would_score": _("%(box)s: would score %(points)s"),
    "score_button": _("Score %(points)s"),
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


@functools.lru_cache(maxsize=16)
def box_labels(language: str | None) -> dict[str, SafeString]:
    """The boxes' names in a language, escaped as ``{{ }}`` prints them."""
    with translation.override(language):
        return {box: printed(label(box)) for box in CATEGORIES}


class RowView(TypedDict):
    """One box of the card across every player, its cells ready to print."""

    box: str
    label: str
    cells: str  # every player's cell; in the row of the chosen box, those left of the chosen cell
    selected: bool  # the current player chose this box: the template adds the button that scores it
    button: str  # that button's words, "Score 9"
    cells_after: str  # the cells right of the chosen cell


class PlayerView(TypedDict):
    """A seat as the card's column heading and the status line show it."""

    position: str
    name: str
    card: Scorecard
    is_current: bool
    bot: str
    presence: str  # online games: "online", "away" or "left"
    dot: str  # the class of the dot before the name: "online", "away" or ""
    presence_word: str  # the same, as the status line says it ("here", "away", "left")
    away_line: str  # "Bo is away."
    go_on_label: str  # "Continue without Bo"
    deadline_iso: str  # when an away player's grace period ends, for the page's countdown
    grace_left: str  # what is left of it, as m:ss
    in_grace: bool  # the grace period is still running
    can_leave_out: bool  # the viewer may now go on without this player (once it has run out)


class TotalsView(TypedDict):
    """The foot of a player's column on the card."""

    position: str
    upper_total: str
    upper_bonus: str
    to_go: str  # "12 to go" while the upper bonus is still to be won, else ""
    yahtzee_bonus: str
    total: str


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


@dataclass(frozen=True)
class Die:
    """One die of a decision on the analysis page."""

    index: int
    face: int | None
    held: bool


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


def label(box: str) -> str:
    """The box's name in the active language."""
    return gettext(LABELS[box])


def game_summary(game: Game) -> str:
    """A game in a few words for a list: who plays and the round, e.g. "You, Beginner · round 4"."""
    seats = game.ordered_seats()
    names = [seat_name(seat) for seat in seats]
    who = gettext("Solo") if len(seats) == 1 else ", ".join(names)
    played = min(sum(score is not None for score in seat.scores) for seat in seats)
    return gettext("%(who)s · round %(round)s") % {"who": who, "round": min(played + 1, 13)}


def seat_name(seat: Seat, *, solo: bool = False, own: bool = True) -> str:
    """How a seat is named on the card: its name, the computer's name, or "You" (to the
    visitor who sits there; "Player" to anyone else, such as someone watching the game)."""
    if seat.bot:
        return gettext(BOT_NAMES.get(seat.bot, seat.bot))
    if seat.name:
        return seat.name
    if solo:
        return gettext("Points")
    return gettext("You") if own else gettext("Player")


def is_own(seat: Seat, viewer: Seat | None) -> bool:
    """Whether the visitor with seat ``viewer`` (None: no seat in the game) sits at ``seat``."""
    return viewer is not None and not seat.bot and seat.visitor == viewer.visitor


# Strings the dice print many times over, made safe to print once.
TRUE, FALSE = SafeString("true"), SafeString("false")
HOLD, RELEASE = SafeString("1"), SafeString("0")  # what pressing a die posts
DIE_INDEXES = tuple(map(SafeString, range(5)))
DIE_NUMBERS = tuple(map(SafeString, range(1, 6)))

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


class SectionView(TypedDict):
    """The upper or the lower part of the card: its rows, ready to print but the chosen one."""

    before: str  # the rows above the chosen box's (all of them when none is chosen here)
    selected: RowView | None  # the chosen box's row: the template adds its form
    after: str  # the rows below it
    foot: str  # the section's subtotal rows


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


def player_view(
    game: Game, seat: Seat, state, viewer: Seat | None, words: dict, *, solo: bool, online: bool
) -> PlayerView:
    """A seat's column heading and (online games) presence, ready to print."""
    view: PlayerView = {
        "position": printed(seat.position),
        "name": printed(seat_name(seat, solo=solo, own=is_own(seat, viewer))),
        "card": state.cards[seat.position],
        "is_current": seat.position == state.current and not state.finished,
        "bot": seat.bot,
        "presence": "",
        "dot": "",
        "presence_word": "",
        "away_line": "",
        "go_on_label": "",
        "deadline_iso": "",
        "grace_left": "",
        "in_grace": False,
        "can_leave_out": False,
    }
    if online:
        view.update(presence(game, seat, state, viewer))
        view["presence_word"] = words[view["presence"]]
        view["dot"] = SafeString("" if view["presence"] == "left" else view["presence"])
        if view["presence"] == "away":
            view["away_line"] = fill(words["is_away"], name=view["name"])
            view["go_on_label"] = fill(words["go_on_without"], name=view["name"])
    return view


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


# A stand-in for a game's id in the addresses below: a replace costs far less than a reverse().
_GAME_ID = "GAME-ID"


@functools.lru_cache(maxsize=16)
def _url_patterns(prefix: str, urlconf: str | None) -> dict[str, str]:
    """The game's addresses for the stand-in id, reversed once per script prefix and URLconf."""
    urls = {kind: reverse("games:act", args=[_GAME_ID, kind]) for kind in ("roll", "hold", "score")}
    for name in ("play", "again", "leave_out", "analysis", "game_sheet"):
        urls[name] = reverse(f"games:{name}", args=[_GAME_ID])
    urls["rematch"] = reverse("lobby:rematch", args=[_GAME_ID])
    urls["home"] = reverse("games:home")
    return {name: html.escape(url) for name, url in urls.items()}


def game_urls(game_id: str) -> dict[str, str]:
    """Where the game page's forms and links go, escaped as ``{% url %}`` prints them."""
    patterns = _url_patterns(get_script_prefix(), get_urlconf(settings.ROOT_URLCONF))
    game_id = html.escape(quote(game_id, safe=RFC3986_SUBDELIMS + "/~:@"))  # as reverse() quotes
    return {name: SafeString(url.replace(_GAME_ID, game_id)) for name, url in patterns.items()}


class Later:
    """A value of the context worked out the first time a template asks for it, then kept.

    The template engine calls what it finds callable. A hold, and the other seats' redraws after
    a roll, show the dice and the messages only: they need neither the card nor the players,
    which would cost as much again as the rest of the context.
    """

    def __init__(self, make: Callable[[], Any], language: str | None) -> None:
        self.make = make
        self.language = language  # the context's, to work the value out in

    @functools.cached_property
    def value(self) -> Any:
        if get_language() == self.language:
            return self.make()
        with translation.override(self.language):
            return self.make()

    def __call__(self) -> Any:
        return self.value


def game_context(
    game: Game,
    visitor: str | None,
    *,
    select: str | None = None,
    error: str | None = None,
    at: int | None = None,
    hint: bool = False,
) -> dict:
    """Everything the game page and its fragments need.

    ``at`` shows the game as it was after that many logged actions (read-only), to play the
    computer's or another player's moves back step by step; the page then asks for ``at + 1``.
    The card and the players are worked out only if a template shows them (``Later``).
    """
    seats = game.ordered_seats()
    seat = game.seat_of(visitor)
    replaying = at is not None and 0 <= at < game.log_length
    if replaying:
        log = list(game.actions.order_by("seq")[:at])
        state = replay(
            [(a.seat, a.kind, a.payload) for a in log],
            len(seats),
            multiple_yahtzees=game.multiple_yahtzees,
        )
        news = [describe(log[-1], state, seats, seat)] if log and not error else []
    else:
        state = game.state()
        news = [] if error else recent_news(game, state, seats, seat)
    current = seats[state.current]
    finished = state.finished
    turn = state.turn
    can_play = (
        seat is not None
        and not replaying
        and current.visitor == visitor
        and not current.bot
        and not finished
    )
    coaching = can_play and coach_allowed(game)
    # What the player may score: for the card's previews, or to check a chosen box.
    options = functools.cache(lambda: state.options() if can_play else {})
    if select is not None and select not in options():
        select = None
    card = state.cards[state.current]
    solo = len(seats) == 1
    online = game.mode == Game.Mode.ONLINE
    urls = game_urls(game.id)
    language = get_language()
    words = phrases(language)
    better = None
    if select is not None and options()[select] == 0:
        scores = options()
        best_box = max(scores, key=scores.__getitem__)
        if scores[best_box] > 0:
            better = {"label": label(best_box), "points": scores[best_box]}
    players = Later(
        lambda: [player_view(game, s, state, seat, words, solo=solo, online=online) for s in seats],
        language,
    )
    rows = Later(
        lambda: card_rows(
            list(state.cards),
            state.current,
            options(),
            select,
            play_url=urls["play"],
            language=language,
        ),
        language,
    )
    done = frozenset(range(len(seats))) if finished else state.forfeited
    totals = Later(lambda: card_totals(list(state.cards), done), language)
    current_name = seat_name(current, own=is_own(current, seat))
    return {
        "game": game,
        "urls": urls,
        "words": words,
        "step": printed(game.step),
        "seat": seat,
        "current": current,
        "current_name": current_name,
        "whose_turn": whose_turn(can_play, current, current_name, words),
        "can_play": can_play,
        "state": state,
        "finished": finished,
        "round_title": fill(words["round"], round=state.round),
        "players": players,
        "several": len(seats) > 1,
        "online": online,
        "away": Later(lambda: [p for p in players() if p["presence"] == "away"], language),
        "ranking": Later(lambda: ranking(players()), language) if finished else [],
        "sections": Later(
            lambda: card_sections(
                rows(),
                totals(),
                words,
                fill(words["bonus_line"], target=UPPER_BONUS_THRESHOLD),
                game.multiple_yahtzees,
            ),
            language,
        ),
        "card_foot": Later(lambda: card_foot(totals(), words), language),
        "selected": select,
        "selected_points": options()[select] if select else None,
        "better": better,
        "bonus_now": card.bonus_for(turn.dice) if can_play and turn.dice else 0,
        "joker": bool(can_play and turn.dice and card.joker_applies(turn.dice)),
        "dice": dice_views(turn, can_play, words),
        "dice_locked": not turn.dice or turn.rolls_left == 0,
        "roll_label": roll_label(turn, words) if can_play else "",
        "dice_hint": dice_hint(turn, words) if can_play else "",
        "rolled": bool(turn.dice),
        "held_mask": "".join("1" if h else "0" for h in turn.held),
        "rolls_left": turn.rolls_left,
        "error": error,
        "news": news,
        "next_at": at + 1 if replaying else None,
        "version": at if replaying else game.log_length,
        "coach": coaching,
        "live": online or seat is None,
        "rematch": rematch_offer(game, seat) if online and finished else None,
        "hint": hint_lines(game, state) if hint and coaching and turn.dice else None,
        "hint_asked": hint,
        "odds": odds_lines(state) if coaching else [],
        "pause_ms": pause_ms(log[-1].kind if replaying and log else ""),
    }


def render_parts(context: dict, parts: list[str], request=None) -> str:
    """The named fragments of the game page, each marked as an out-of-band swap by id.

    Views answer htmx with them and consumers push them, so both show the same thing. The parts
    share one template context, so the context processors (with a request) run once, not once
    a part.
    """
    if not parts:
        return ""
    templates = [get_template(f"games/play.html#{part}").template for part in parts]
    context = make_context(context | {"oob": parts}, request)
    with context.bind_template(templates[0]):
        return "".join(template.render(context) for template in templates)


def move_words(move: tuple[str, object], card: Scorecard, dice: tuple[int, ...]) -> str:
    """A move in plain words: "Keep 3 3 3 and roll", "Roll all five", "Score Threes (9)"."""
    kind, what = move
    if kind == "keep":
        if not what:
            return gettext("Roll all five again")
        return gettext("Keep %(dice)s and roll") % {"dice": " ".join(map(str, what))}
    points = card.options(dice)[what]
    return ngettext(
        "Score %(box)s now (%(points)s point)", "Score %(box)s now (%(points)s points)", points
    ) % {"box": label(what), "points": points}


def hint_lines(game: Game, state, limit: int = 3) -> list[dict] | None:
    """The best few moves now with their expected final totals; None until the coach is ready."""
    advisor = advice.advisor(game.multiple_yahtzees)
    if advisor is None:
        return None
    card, turn = state.cards[state.current], state.turn
    options = advisor.options(card, turn.dice, turn.rolls_left)
    best = options[0][1]
    return [
        {"words": move_words(move, card, turn.dice), "expected": value, "loss": best - value}
        for move, value in options[:limit]
    ]


def odds_lines(state) -> list[dict]:
    """Chance of ending the turn able to score each open made hand, keeping the held dice."""
    turn, card = state.turn, state.cards[state.current]
    if turn.rolls_left == 0:
        return []
    kept = turn.kept if turn.dice else ()
    open_boxes = [box for box in odds.ODDS_BOXES if box in card.open_boxes]
    chances = odds.box_odds(kept, turn.rolls_left, open_boxes, card)
    return [{"label": label(box), "percent": 100 * chances[box]} for box in open_boxes]


# How long each step of a played-back turn stays on screen before the next one.
STEP_PAUSE_MS = {"roll": 900, "hold": 350, "score": 1200}


def pause_ms(kind: str) -> int:
    """The pause after showing a played-back step (settings.PLAYBACK_SPEED speeds it up)."""
    return round(STEP_PAUSE_MS.get(kind, 600) / settings.PLAYBACK_SPEED)


def presence(game: Game, seat: Seat, state, viewer: Seat | None) -> dict:
    """An online seat's presence: here, away (with its grace deadline) or gone for good."""
    if seat.position in state.forfeited:
        return {"presence": "left"}
    deadline = away_deadline(game, seat)
    if deadline is None:
        return {"presence": "online"}
    can_leave_out = (
        viewer is not None
        and viewer.position != seat.position
        and viewer.position not in state.forfeited
        and not state.finished
    )
    now = timezone.now()
    seconds = max(0, int((deadline - now).total_seconds()))
    return {
        "presence": "away",
        "deadline_iso": printed(timezone.localtime(deadline).isoformat()),  # as |date:"c" does
        "grace_left": SafeString(f"{seconds // 60}:{seconds % 60:02d}"),
        "in_grace": deadline > now,
        "can_leave_out": can_leave_out,
    }


def rematch_offer(game: Game, viewer: Seat | None) -> dict:
    """Who has asked for a rematch of a finished online game, and whether the viewer has."""
    table = getattr(game, "rematch", None)
    if table is None:
        return {"asked": [], "mine": False, "game_id": None}
    names = [seat.player.name for seat in table.seats.select_related("player")]
    visitors = set(table.seats.values_list("player__visitor", flat=True))
    mine = viewer is not None and viewer.visitor in visitors
    return {"asked": names, "mine": mine, "game_id": table.game_id}


def coach_allowed(game: Game) -> bool:
    """Hints and odds help in practice games; online games against people go without."""
    return game.mode != Game.Mode.ONLINE


# The latest actions up to the position the game object shows (a redraw made after a commit may
# meet a later move), from the player's own latest action on: what came before is not news to
# them. Written out because the ORM takes longer to build this query (about 1.5 ms) than the
# database takes to answer it, and it runs for every redraw of a game.
RECENT_KEPT = 40
RECENT_ACTIONS = f"""
    SELECT seat, kind, payload FROM {{table}} WHERE game_id = %s AND seq <= %s AND seq >= COALESCE(
        (SELECT MAX(seq) FROM {{table}} WHERE game_id = %s AND seq <= %s AND seat = %s), 0)
    ORDER BY seq DESC LIMIT {RECENT_KEPT}
"""
# The latest actions read for each (game, seat position; -1 for watchers), with the length of the
# log they were read at, for the games this process redrew last. The log only grows, so they stay
# true: a move's redraws take them up when they end just before the move's own actions (the
# game's earlier moves were applied here), and read anew otherwise: at the first move of a turn
# (the mover's own answer does not keep its entry up to date) or after another process's moves.
# The payloads are shared with the moves' Action objects: nothing may change them.
_recent: OrderedDict[tuple[str, int], tuple[int, list[LoggedAction]]] = OrderedDict()
RECENT_GAMES_KEPT = 1024  # (game, seat) entries
_recent_lock = threading.Lock()


class LoggedAction(NamedTuple):
    """What the message line needs of a logged action (``describe`` takes it or an Action)."""

    seat: int
    kind: str
    payload: dict


def recent_actions(game: Game, me: Seat | None) -> list[LoggedAction]:
    """Up to the 40 latest actions of the game, oldest first, from ``me``'s latest on.

    Read with a plain cursor: building model instances (``Action.objects.raw``) took three times
    as long as the query itself. What was read is kept (``_recent``), and a move's redraws take
    it up with the move's own actions instead of reading again.
    """
    position = me.position if me is not None else -1
    key = (game.pk, position)
    kept = _recent.get(key)
    fresh = game.just_logged
    if kept is not None and kept[0] == game.log_length:
        return kept[1]
    if (  # kept from the log as it was just before this game's move
        kept is not None
        and fresh
        and kept[0] == fresh[0].seq - 1
        and fresh[-1].seq == game.log_length
    ):
        actions = [*kept[1], *(LoggedAction(a.seat, a.kind, a.payload) for a in fresh)]
        mine = [i for i, action in enumerate(actions) if action.seat == position]
        actions = actions[mine[-1] if mine else 0 :][-RECENT_KEPT:]
    else:
        actions = _read_recent_actions(game, position)
    with _recent_lock:  # moves of other games may be redrawn on other threads
        kept = _recent.get(key)
        if kept is None or kept[0] < game.log_length:  # a later move's may be there already
            _recent[key] = (game.log_length, actions)
            _recent.move_to_end(key)
            while len(_recent) > RECENT_GAMES_KEPT:
                _recent.popitem(last=False)
    return actions


def _read_recent_actions(game: Game, position: int) -> list[LoggedAction]:
    sql = RECENT_ACTIONS.format(table=Action._meta.db_table)
    params = [game.pk, game.log_length, game.pk, game.log_length, position]
    connection = connections[router.db_for_read(Action)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    payload = Action._meta.get_field("payload")
    return [
        LoggedAction(seat, kind, payload.from_db_value(data, None, connection))
        for seat, kind, data in reversed(rows)
    ]


def recent_news(game: Game, state, seats: list[Seat], me: Seat | None) -> list[str]:
    """What happened since this player last acted (others' turns, the computer's), in order."""
    if game.just_logged:  # the game as a move left it: its last action is the latest
        latest = game.just_logged[-1]
        if len(seats) == 1 or me is not None and latest.seat == me.position:
            return [describe(latest, state, seats, me)]  # as below, without reading the log
    recent = recent_actions(game, me)
    if not recent:
        if me is None or me.position != state.current:  # a watcher, or the others' first turn
            return [gettext("No dice rolled yet.")]
        return [gettext("Roll the dice to start.")]
    mine = [i for i, a in enumerate(recent) if me is not None and a.seat == me.position]
    if mine and mine[-1] == len(recent) - 1 or len(seats) == 1:
        return [describe(recent[-1], state, seats, me)]
    since = recent[mine[-1] + 1 :] if mine else recent
    # Holds are part of the story only as what was kept at the next roll: leave them out.
    return [describe(a, None, seats, me) for a in since if a.kind != "hold"]


def describe(action: Action | LoggedAction, state, seats: list[Seat], me: Seat | None) -> str:
    """A sentence saying what an action did, for the message line and screen readers.

    ``state`` is the state right after the action (for the rolls left), or None.
    """
    actor = seats[action.seat]
    mine = is_own(actor, me)
    if mine and (len(seats) == 1 or not actor.name):
        name = ""
    elif me is None and not actor.name and not actor.bot:
        name = gettext("The player")  # a watcher: not "you"
    else:
        name = seat_name(actor)
    if action.kind == "roll":
        faces = " ".join(str(d) for d in action.payload["dice"])
        if name:
            return gettext("%(name)s rolled %(dice)s.") % {"name": name, "dice": faces}
        left = state.turn.rolls_left if state is not None else 0
        return ngettext(
            "Rolled %(dice)s. %(left)s roll left.", "Rolled %(dice)s. %(left)s rolls left.", left
        ) % {"dice": faces, "left": left}
    if action.kind == "hold":
        number = action.payload["die"] + 1
        if action.payload["held"]:
            return gettext("Die %(number)s held.") % {"number": number}
        return gettext("Die %(number)s released.") % {"number": number}
    if action.kind in ("forfeit", "end"):
        values = {"name": seat_name(actor), "absent": seat_name(seats[action.payload["seat"]])}
        if action.kind == "end":
            return gettext("%(name)s ended the game; %(absent)s forfeits.") % values
        return gettext("%(name)s goes on without %(absent)s, who forfeits.") % values
    points = action.payload.get("points", 0)
    values = {"points": points, "box": label(action.payload["box"]), "name": name}
    if name:
        return (
            ngettext(
                "%(name)s scored %(points)s point in %(box)s.",
                "%(name)s scored %(points)s points in %(box)s.",
                points,
            )
            % values
        )
    return (
        ngettext(
            "Scored %(points)s point in %(box)s.", "Scored %(points)s points in %(box)s.", points
        )
        % values
    )


def ranking(players: list[PlayerView]) -> list[dict]:
    """Final places, best total first; equal totals share a place (1, 1, 3); forfeits last."""
    ordered = sorted(players, key=lambda p: (p["presence"] == "left", -p["card"].total))
    places = []
    for index, player in enumerate(ordered):
        forfeit = player["presence"] == "left"
        total = player["card"].total
        previous = ordered[index - 1] if index else None
        tied = previous is not None and not forfeit and total == previous["card"].total
        place = places[-1]["place"] if tied else index + 1
        entry = {"place": place, "player": player, "total": total, "forfeit": forfeit}
        places.append(entry)
    return places


BOT_NAMES = {
    "optimal": _("Perfect computer"),
    "club": _("Club player"),
    "beginner": _("Beginner"),
}
BOT_DESCRIPTIONS = {
    "optimal": _("Plays every move exactly optimally: about 254.6 points on average."),
    "club": _("A good club player: mostly the best move, now and then a plausible slip."),
    "beginner": _("Greedy: always takes the most points it can score right now."),
}

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


GRADE_NAMES = {
    "fine": _("fine"),
    "inaccuracy": _("inaccuracy"),
    "mistake": _("mistake"),
    "blunder": _("blunder"),
}
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 640, 220, 36


def analysis_context(game: Game, seat: Seat, result: Analysis) -> dict:
    """The analysis page: summary, chart points, every decision and the three costliest."""

    def row(decision: Decision) -> dict:
        return {
            "decision": decision,
            "dice": [
                Die(i, face, held)
                for i, (face, held) in enumerate(zip(decision.dice, decision.held, strict=True))
            ],
            "played": move_words(decision.move, decision.card, decision.dice),
            "best": move_words(decision.best, decision.card, decision.dice),
            "grade": decision.grade,
            "grade_name": gettext(GRADE_NAMES[decision.grade]),
            "filled": [(label(box), points) for box, points in decision.card.boxes.items()],
        }

    rows = [row(d) for d in result.decisions]
    values = [result.start_value] + [d.value for d in result.decisions]
    low, high = min(values), max(values)
    span = max(high - low, 1.0)
    step = (CHART_WIDTH - 2 * CHART_PAD) / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return round(
            CHART_HEIGHT - CHART_PAD - (value - low) / span * (CHART_HEIGHT - 2 * CHART_PAD), 1
        )

    points = [
        {"x": round(CHART_PAD + i * step, 1), "y": y(v), "value": v,
         "grade": rows[i - 1]["grade"] if i else "start"}
        for i, v in enumerate(values)
    ]  # fmt: skip
    counts = result.counts()
    return {
        "game": game,
        "seat": seat,
        "name": seat_name(seat),
        "result": result,
        "rows": rows,
        "costliest": [rows[d.index] for d in result.costliest(3)],
        "counts": [(gettext(GRADE_NAMES[g]), g, n) for g, n in counts.items()],
        "chart": {
            "width": CHART_WIDTH,
            "height": CHART_HEIGHT,
            "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
            "points": points,
            "low": low,
            "high": high,
            "y_low": y(low),
            "y_high": y(high),
            "pad": CHART_PAD,
        },
    }
