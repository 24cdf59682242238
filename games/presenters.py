"""Turn stored games into what the templates show: rows of a card, dice, the status line.

Kept apart from the views so that pages, fragments and (later) pushed updates show the same thing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_noop as _

from games import advice
from games.analysis import Analysis, Decision
from games.flow import replay
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


@dataclass(frozen=True)
class Cell:
    """One player's box as shown: its points if filled, else what the dice would score now."""

    score: int | None
    preview: int | None = None
    selected: bool = False

    @property
    def is_open(self) -> bool:
        """True while the box is not filled."""
        return self.score is None


@dataclass(frozen=True)
class Row:
    """One box of the card across every player."""

    box: str
    label: str
    cells: list[Cell]

    @property
    def selected(self) -> Cell | None:
        """The cell the current player chose and has to confirm, if any."""
        return next((cell for cell in self.cells if cell.selected), None)


@dataclass(frozen=True)
class Player:
    """A seat as the card's column heading shows it."""

    position: int
    name: str
    card: Scorecard
    is_current: bool
    bot: str
    presence: str = ""  # online games: "online", "away" or "left"
    deadline: datetime | None = None  # when an away player's grace period ends
    can_leave_out: bool = False  # the viewer may now go on without this player

    @property
    def grace_left(self) -> str:
        """What is left of an away player's grace period, as m:ss."""
        if self.deadline is None:
            return ""
        seconds = max(0, int((self.deadline - timezone.now()).total_seconds()))
        return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class Die:
    """One of the five dice as shown."""

    index: int
    face: int | None
    held: bool

    @property
    def number(self) -> int:
        """The die's number as a player counts (1-5), also its keyboard key."""
        return self.index + 1

    @property
    def svg(self) -> str:
        """The die's face as drawn (``games/_die.html``)."""
        return die_face(self.face)


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


def seat_name(seat: Seat, *, solo: bool = False) -> str:
    """How a seat is named on the card: its name, the computer's name, or "You"."""
    if seat.bot:
        return gettext(BOT_NAMES.get(seat.bot, seat.bot))
    return seat.name or (gettext("Points") if solo else gettext("You"))


def card_rows(
    cards: list[Scorecard], current: int, options: dict[str, int], selected: str | None = None
) -> list[Row]:
    """A row per box with a cell per card; ``options`` are what the current player may score."""
    rows = []
    for i, box in enumerate(CATEGORIES):
        cells = [
            Cell(
                card.scores[i],
                options.get(box) if position == current else None,
                position == current and selected == box,
            )
            for position, card in enumerate(cards)
        ]
        rows.append(Row(box, label(box), cells))
    return rows


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
    can_play = (
        seat is not None
        and not replaying
        and current.visitor == visitor
        and not current.bot
        and not state.finished
    )
    coaching = can_play and coach_allowed(game)
    options = state.options() if can_play else {}
    card = state.cards[state.current]
    if select not in options:
        select = None
    solo = len(seats) == 1
    online = game.mode == Game.Mode.ONLINE
    players = [
        Player(
            s.position,
            seat_name(s, solo=solo),
            state.cards[s.position],
            s.position == state.current and not state.finished,
            s.bot,
            **(presence(game, s, state, seat) if online else {}),
        )
        for s in seats
    ]
    rows = card_rows(list(state.cards), state.current, options, select)
    selected = next((row for row in rows if row.selected), None)
    better = None
    if selected is not None and options[select] == 0:
        best_box = max(options, key=options.__getitem__)
        if options[best_box] > 0:
            better = {"label": label(best_box), "points": options[best_box]}
    dice = [
        Die(i, state.turn.dice[i] if state.turn.dice else None, state.turn.held[i])
        for i in range(5)
    ]
    return {
        "game": game,
        "urls": {
            kind: reverse("games:act", args=[game.id, kind]) for kind in ("roll", "hold", "score")
        }
        | {"play": reverse("games:play", args=[game.id])},
        "seat": seat,
        "current": current,
        "current_name": seat_name(current),
        "can_play": can_play,
        "state": state,
        "players": players,
        "ranking": ranking(players) if state.finished else [],
        "upper_rows": rows[: len(UPPER)],
        "lower_rows": rows[len(UPPER) :],
        "selected": selected,
        "selected_points": options.get(select),
        "better": better,
        "bonus_now": card.bonus_for(state.turn.dice) if can_play and state.turn.dice else 0,
        "joker": bool(can_play and state.turn.dice and card.joker_applies(state.turn.dice)),
        "dice": dice,
        "rolled": bool(state.turn.dice),
        "held_mask": "".join("1" if h else "0" for h in state.turn.held),
        "rolls_left": state.turn.rolls_left,
        "round": state.round,
        "upper_target": UPPER_BONUS_THRESHOLD,
        "error": error,
        "news": news,
        "next_at": at + 1 if replaying else None,
        "version": at if replaying else game.log_length,
        "coach": coaching,
        "live": online or seat is None,
        "now": timezone.now(),
        "rematch": rematch_offer(game, seat) if online and state.finished else None,
        "hint": hint_lines(game, state) if hint and coaching and state.turn.dice else None,
        "hint_asked": hint,
        "odds": odds_lines(state) if coaching else [],
        "pause_ms": pause_ms(log[-1].kind if replaying and log else ""),
    }


def render_parts(context: dict, parts: list[str], request=None) -> str:
    """The named fragments of the game page, each marked as an out-of-band swap by id.

    Views answer htmx with them and consumers push them, so both show the same thing.
    """
    context = context | {"oob": parts}
    return "".join(render_to_string(f"games/play.html#{part}", context, request) for part in parts)


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
    chances = odds.box_odds(kept, turn.rolls_left, open_boxes)
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
    return {"presence": "away", "deadline": deadline, "can_leave_out": can_leave_out}


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
RECENT_ACTIONS = """
    SELECT * FROM {table} WHERE game_id = %s AND seq <= %s AND seq >= COALESCE(
        (SELECT MAX(seq) FROM {table} WHERE game_id = %s AND seq <= %s AND seat = %s), 0)
    ORDER BY seq DESC LIMIT 40
"""


def recent_actions(game: Game, me: Seat | None) -> list[Action]:
    """Up to the 40 latest actions of the game, oldest first, from ``me``'s latest on."""
    sql = RECENT_ACTIONS.format(table=Action._meta.db_table)
    position = me.position if me is not None else -1
    params = [game.pk, game.log_length, game.pk, game.log_length, position]
    return list(Action.objects.raw(sql, params))[::-1]


def recent_news(game: Game, state, seats: list[Seat], me: Seat | None) -> list[str]:
    """What happened since this player last acted (others' turns, the computer's), in order."""
    recent = recent_actions(game, me)
    if not recent:
        return [gettext("Roll the dice to start.")]
    mine = [i for i, a in enumerate(recent) if me is not None and a.seat == me.position]
    if mine and mine[-1] == len(recent) - 1 or len(seats) == 1:
        return [describe(recent[-1], state, seats, me)]
    since = recent[mine[-1] + 1 :] if mine else recent
    # Holds are part of the story only as what was kept at the next roll: leave them out.
    return [describe(a, None, seats, me) for a in since if a.kind != "hold"]


def describe(action: Action, state, seats: list[Seat], me: Seat | None) -> str:
    """A sentence saying what an action did, for the message line and screen readers.

    ``state`` is the state right after the action (for the rolls left), or None.
    """
    actor = seats[action.seat]
    mine = me is not None and (actor.visitor == me.visitor and not actor.bot)
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


def ranking(players: list[Player]) -> list[dict]:
    """Final places, best total first; equal totals share a place (1, 1, 3); forfeits last."""
    ordered = sorted(players, key=lambda p: (p.presence == "left", -p.card.total))
    places = []
    for index, player in enumerate(ordered):
        forfeit = player.presence == "left"
        previous = ordered[index - 1] if index else None
        tied = previous is not None and not forfeit and player.card.total == previous.card.total
        place = places[-1]["place"] if tied else index + 1
        entry = {"place": place, "player": player, "total": player.card.total, "forfeit": forfeit}
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


def sheet_context(game: Game | None) -> dict:
    """The lines of a printable score sheet: blank with six columns, or a game's cards."""
    if game is None:
        headings = [gettext("Game %(number)s") % {"number": n + 1} for n in range(6)]
        cards: list[Scorecard | None] = [None] * BLANK_SHEET_COLUMNS
    else:
        seats = game.ordered_seats()
        headings = [seat.name or gettext("Score") for seat in seats]
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
