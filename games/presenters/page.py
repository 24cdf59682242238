"""Everything the game page and its fragments show, gathered from the parts of this package."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.template.context import make_context
from django.template.loader import get_template
from django.utils import translation
from django.utils.translation import get_language

from engine.flow import GameState, replay
from games import advice
from games.models import Game, Seat
from games.playback import DEFAULT, SPEEDS, Speed
from games.presenters import hooks
from games.presenters.card import card_rows, card_sections, card_totals
from games.presenters.coach import coach_allowed, coach_note, hint_lines, odds_lines, split_line
from games.presenters.dice import dice_hint, dice_sprite, dice_views, roll_label, whose_turn
from games.presenters.news import describe, recent_news
from games.presenters.players import (
    is_own,
    player_view,
    ranking,
    seat_name,
    turn_clock,
)
from games.presenters.urls import game_urls
from games.presenters.winbar import needs_styles, win_bar
from games.presenters.words import (
    bonus_figures,
    label,
    phrases,
    rules_name,
    rules_notes,
    saved_line,
)


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


@dataclass
class GameView:
    """The position a game page draws and who looks at it: what every part of its context asks.

    ``log`` is the logged actions played back so far (a replayed step), None for the game as
    it is now or as ``shown``; ``now``: the game as it is now, where a seat may act.
    """

    game: Game
    visitor: str | None
    seats: list[Seat]
    seat: Seat | None
    state: GameState
    news: list
    log: list | None
    now: bool
    language: str

    @property
    def replaying(self) -> bool:
        """Whether the page plays logged moves back (a step of them, read-only)."""
        return self.log is not None

    @property
    def current(self) -> Seat:
        """The seat whose turn it is in the position drawn."""
        return self.seats[self.state.current]

    @functools.cached_property
    def can_play(self) -> bool:
        """Whether this visitor's seat may act now: its turn, a person's, the game not over."""
        current = self.current
        mine = self.seat is not None and current.visitor == self.visitor
        return self.now and mine and not current.bot and not self.state.finished

    @functools.cached_property
    def options(self) -> dict[str, int]:
        """What the player may score now: for the card's previews, or to check a chosen box."""
        return self.state.options() if self.can_play else {}

    @functools.cached_property
    def words(self) -> dict:
        """The page's phrases in its language."""
        return phrases(self.language)


def game_context(
    game: Game,
    visitor: str | None,
    *,
    select: str | None = None,
    error: str | None = None,
    at: int | None = None,
    hint: bool = False,
    speed: Speed = SPEEDS[DEFAULT],
    shown: GameState | None = None,
) -> dict:
    """Everything the game page and its fragments need, part by part.

    ``at`` shows the game as it was after that many logged actions (read-only), to play the
    computer's or another player's moves back step by step; the page then asks for ``at + 1``
    after a pause of the browser's ``speed`` (at "instant" it shows the game as it is now).
    ``shown`` is a state of the game to draw instead (read-only, no news): a replay's position.
    The card and the players are worked out only if a template shows them (``Later``).
    """
    view = _game_view(game, visitor, error=error, at=at, speed=speed, shown=shown)
    if select is not None and select not in view.options:
        select = None
    return (
        _turn_context(view)
        | _players_context(view)
        | _card_context(view, select)
        | _dice_context(view)
        | _coach_context(view, hint)
        | _playback_context(view, error, at, speed)
        | _online_context(view)
        | _winbar_context(view)
    )


def _game_view(
    game: Game,
    visitor: str | None,
    *,
    error: str | None,
    at: int | None,
    speed: Speed,
    shown: GameState | None,
) -> GameView:
    """The position to draw: a played-back step (``at``), a given state, or the game now;
    with its news (none under a refusal, which the message line says instead)."""
    seats = game.ordered_seats()
    seat = game.seat_of(visitor)
    log = None
    if at is not None and 0 <= at < game.log_length and speed.scale is not None:
        log = list(game.actions.order_by("seq")[:at])
        state = replay(
            [(a.seat, a.kind, a.payload) for a in log],
            len(seats),
            rules=game.rules,
        )
        news = [describe(log[-1], state, seats, seat)] if log and not error else []
    elif shown is not None:
        state, news = shown, []
    else:
        state = game.state()
        news = [] if error else recent_news(game, state, seats, seat)
    now = log is None and shown is None
    return GameView(game, visitor, seats, seat, state, news, log, now, get_language())


def _turn_context(view: GameView) -> dict:
    """Whose turn it is, which round, and whether this page may act or review."""
    game, state, current, words = view.game, view.state, view.current, view.words
    current_name = seat_name(current, own=is_own(current, view.seat))
    return {
        "game": game,
        "urls": game_urls(game.id),
        "words": words,
        "step": game.step,
        "seat": view.seat,
        "current": current,
        "current_name": current_name,
        "whose_turn": whose_turn(view.can_play, current, current_name, words),
        "can_play": view.can_play,
        "state": state,
        "finished": state.finished,
        "round_title": words["round"] % {"round": state.round, "rounds": state.rules.turns},
        "rules_name": rules_name(game.rules),
        "rules_notes": rules_notes(game.rules, words),
        "several": len(view.seats) > 1,
        "live": game.mode == Game.Mode.ONLINE or view.seat is None,
        # Its replay, analysis and dice check are open to this browser (Game.open_to); a daily
        # attempt's wait for the day's end, its player's too (``Game.daily_running``).
        "reviewable": game.open_to(view.visitor) and not game.daily_running,
        "analysable": advice.offered(game.rules),  # the perfect player knows its rules
    }


def _players_context(view: GameView) -> dict:
    """The players' row: each seat's name, total, presence; the final ranking once it is over."""
    game, state, seats, language = view.game, view.state, view.seats, view.language
    solo, online = len(seats) == 1, game.mode == Game.Mode.ONLINE
    players = Later(
        lambda: [
            player_view(game, s, state, view.seat, view.words, solo=solo, online=online)
            for s in seats
        ],
        language,
    )
    return {
        "players": players,
        "away": Later(lambda: [p for p in players() if p["presence"] == "away"], language),
        "ranking": Later(lambda: ranking(players(), hooks.RATING_CHANGES(game)), language)
        if state.finished
        else [],
    }


def _card_context(view: GameView, select: str | None) -> dict:
    """The score card: its rows (with the previews of a player who may score), the totals, and
    a chosen box with what it would score (and a better box, when it would score nothing)."""
    state, language = view.state, view.language
    rows = Later(
        lambda: card_rows(
            list(state.cards), state.current, view.options, select, language=language
        ),
        language,
    )
    done = frozenset(range(len(view.seats))) if state.finished else state.forfeited
    better = None
    if select is not None and view.options[select] == 0:
        scores = view.options
        best_box = max(scores, key=scores.__getitem__)
        if scores[best_box] > 0:
            better = {"label": label(best_box), "points": scores[best_box]}
    card, dice = state.cards[state.current], state.turn.dice
    return {
        "sections": Later(lambda: card_sections(rows(), len(view.game.rules.upper)), language),
        "totals": Later(lambda: card_totals(list(state.cards), done), language),
        "bonus_line": view.words["bonus_line"] % bonus_figures(view.game.rules),
        "selected": select,
        "selected_points": view.options[select] if select else None,
        "better": better,
        "bonus_now": card.bonus_for(dice) if view.can_play and dice else 0,
        "joker": bool(view.can_play and dice and card.joker_applies(dice)),
    }


def _dice_context(view: GameView) -> dict:
    """The dice, which are held, and the roll button's words (for a player who may roll)."""
    turn, can_play, words = view.state.turn, view.can_play, view.words
    return {
        "dice": dice_views(turn, can_play, words),
        "dice_sprite": dice_sprite,
        "dice_locked": not turn.dice or turn.rolls_left == 0,
        "roll_label": roll_label(turn, words) if can_play else "",
        "dice_hint": dice_hint(turn, words) if can_play else "",
        "rolled": bool(turn.dice),
        "held_mask": "".join("1" if h else "0" for h in turn.held),
        "rolls_left": turn.rolls_left,
        "saved_line": saved_line(turn) if view.game.rules.saved_rolls else "",
        "keys_line": words["keys"] % {"last": len(turn.held)},
    }


def _coach_context(view: GameView, hint: bool) -> dict:
    """The coach of a game that allows it, for the player whose turn it is: odds, and a hint
    when asked for one."""
    coaching = view.can_play and coach_allowed(view.game)
    asked = hint and coaching and view.state.turn.dice
    return {
        "coach": coaching,
        "hint": hint_lines(view.game, view.state) if asked else None,
        "hint_split": split_line(view.game, view.state) if asked else None,
        "hint_asked": hint,
        "odds": odds_lines(view.state) if coaching else [],
        "coach_note": coach_note(view.game.rules) if coaching else "",
    }


def _playback_context(view: GameView, error: str | None, at: int | None, speed: Speed) -> dict:
    """The message line (a refusal, or the news) and the play-back of others' moves: which step
    comes next and after what pause, and the speeds a game with the computer offers."""
    game, log = view.game, view.log
    with_computer = view.seat and any(s.bot for s in view.seats)
    return {
        "error": error,
        "news": view.news,
        "next_at": at + 1 if view.replaying else None,
        "version": at if view.replaying else game.log_length,
        # Skip shows the game as it is now (the log's length: no step left to play back).
        "skip_to": game.log_length if view.replaying else None,
        "speed_control": speed_control(speed) if with_computer else None,
        "pause_ms": pause_ms(log[-1].kind if log else "", speed),
    }


def _online_context(view: GameView) -> dict:
    """What only an online game shows: the pot, the turn's clock, resigning, the rematch."""
    game, seat, state = view.game, view.seat, view.state
    online = game.mode == Game.Mode.ONLINE
    return {
        "online": online,
        "pot": game.stake * len(view.seats),  # a diamond match's pot (lobby.diamonds holds it)
        "rematch": hooks.REMATCH(game, seat) if online and state.finished else None,
        "turn_clock": turn_clock(game) if online and not state.finished else None,
        # Give the game up (a page asks to confirm): a seat of an online game still in it.
        "can_resign": online
        and seat is not None
        and not state.finished
        and view.now
        and seat.position not in state.forfeited,
    }


def _winbar_context(view: GameView) -> dict:
    """Each player's chance to win, in a two-player game: worked out if a template shows it."""
    bar = Later(
        lambda: win_bar(view.game, view.seats, view.state, view.seat, now=view.now), view.language
    )
    return {"winbar": bar, "winbar_styles": needs_styles(view.game, view.seats, view.seat)}


def resign_context(game: Game, position: int) -> dict:
    """What resigning costs, as the page that asks to confirm says it: who plays on or wins,
    the rating (ranked), the pot (diamonds)."""
    state = game.state()
    others = [
        seat.name
        for seat in game.ordered_seats()
        if seat.position != position and seat.position not in state.forfeited
    ]
    winner = others[0] if len(others) == 1 else None
    return {
        "game": game,
        "urls": game_urls(game.id),
        "position": position,
        "winner": winner,
        "others": others,
        "pot": game.stake * len(game.ordered_seats()),
    }


def render_parts(context: dict, parts: list[str], request=None) -> str:
    """The named fragments of the game page, each marked as an out-of-band swap by id.

    Views answer htmx with them and consumers push them, so both show the same thing. The parts
    share one template context, so the context processors (with a request) run once, not once
    a part. A part ``box_row:<box>`` is that box's row of the card.
    """
    if not parts:
        return ""
    names = [part.partition(":")[0] for part in parts]
    templates = [get_template(f"games/play.html#{name}").template for name in names]
    context = make_context(context | {"oob": names}, request)
    html = []
    with context.bind_template(templates[0]):
        for part, template in zip(parts, templates, strict=True):
            box = part.partition(":")[2]
            if box:
                with context.push(row=card_row(context, box)):
                    html.append(template.render(context))
            else:
                html.append(template.render(context))
    return "".join(html)


def card_row(context, box: str) -> dict:
    """The card's row of this box, from the context's sections."""
    rows = (row for section in context["sections"]() for row in section["rows"])
    return next(row for row in rows if row["box"] == box)


# How long each step of a played-back turn stays on screen before the next one.
STEP_PAUSE_MS = {"roll": 900, "hold": 350, "score": 1200}


def pause_ms(kind: str, speed: Speed) -> int:
    """The pause after a played-back step at this speed (settings.PLAYBACK_SPEED speeds it up)."""
    return round(STEP_PAUSE_MS.get(kind, 600) * (speed.scale or 0) / settings.PLAYBACK_SPEED)


def speed_control(chosen: Speed) -> list[dict]:
    """The speeds a player may choose for the computer's turns, the chosen one marked."""
    return [
        {"id": speed.id, "label": speed.label, "chosen": speed == chosen}
        for speed in SPEEDS.values()
    ]
