"""Everything the game page and its fragments show, gathered from the parts of this package."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.template.context import make_context
from django.template.loader import get_template
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import translation
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.translation import get_language

from engine.flow import GameState, replay
from games.models import Game
from games.playback import DEFAULT, SPEEDS, Speed
from games.presenters import hooks
from games.presenters.card import card_rows, card_sections, card_totals
from games.presenters.coach import coach_allowed, hint_lines, odds_lines
from games.presenters.dice import dice_hint, dice_sprite, dice_views, roll_label, whose_turn
from games.presenters.news import describe, recent_news
from games.presenters.players import (
    is_own,
    player_view,
    ranking,
    seat_name,
    turn_clock,
)
from games.presenters.words import label, phrases

# A stand-in for a game's id in the addresses below: a replace costs far less than a reverse().
_GAME_ID = "GAME-ID"


@functools.lru_cache(maxsize=16)
def _url_patterns(prefix: str, urlconf: str | None) -> dict[str, str]:
    """The game's addresses for the stand-in id, reversed once per script prefix and URLconf."""
    urls = {kind: reverse("games:act", args=[_GAME_ID, kind]) for kind in ("roll", "hold", "score")}
    names = (
        "play",
        "again",
        "leave_out",
        "resign",
        "analysis",
        "replay",
        "game_sheet",
        "speed",
        "seed",
        "verify",
    )
    for name in names:
        urls[name] = reverse(f"games:{name}", args=[_GAME_ID])
    urls["player"] = reverse("profiles:seat", args=[_GAME_ID])  # ?seat=N: that seat's profile
    urls["home"] = reverse("games:home")
    return urls


def game_urls(game_id: str) -> dict[str, str]:
    """Where the game page's forms and links go, as ``{% url %}`` gives them."""
    patterns = _url_patterns(get_script_prefix(), get_urlconf(settings.ROOT_URLCONF))
    game_id = quote(game_id, safe=RFC3986_SUBDELIMS + "/~:@")  # as reverse() quotes
    return {name: url.replace(_GAME_ID, game_id) for name, url in patterns.items()}


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
    speed: Speed = SPEEDS[DEFAULT],
    shown: GameState | None = None,
) -> dict:
    """Everything the game page and its fragments need.

    ``at`` shows the game as it was after that many logged actions (read-only), to play the
    computer's or another player's moves back step by step; the page then asks for ``at + 1``
    after a pause of the browser's ``speed`` (at "instant" it shows the game as it is now).
    ``shown`` is a state of the game to draw instead (read-only, no news): a replay's position.
    The card and the players are worked out only if a template shows them (``Later``).
    """
    seats = game.ordered_seats()
    seat = game.seat_of(visitor)
    replaying = at is not None and 0 <= at < game.log_length and speed.scale is not None
    if replaying:
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
    current = seats[state.current]
    finished = state.finished
    turn = state.turn
    can_play = (
        seat is not None
        and not replaying
        and shown is None
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
        "step": game.step,
        "seat": seat,
        "current": current,
        "current_name": current_name,
        "whose_turn": whose_turn(can_play, current, current_name, words),
        "can_play": can_play,
        "state": state,
        "finished": finished,
        "round_title": words["round"] % {"round": state.round},
        "players": players,
        "several": len(seats) > 1,
        "pot": game.stake * len(seats),  # a diamond match's pot (lobby.diamonds holds it)
        "online": online,
        "away": Later(lambda: [p for p in players() if p["presence"] == "away"], language),
        "ranking": Later(lambda: ranking(players(), hooks.RATING_CHANGES(game)), language)
        if finished
        else [],
        "sections": Later(lambda: card_sections(rows()), language),
        "totals": totals,
        "bonus_line": words["bonus_line"] % {"target": game.rules.upper_bonus.threshold},
        "selected": select,
        "selected_points": options()[select] if select else None,
        "better": better,
        "bonus_now": card.bonus_for(turn.dice) if can_play and turn.dice else 0,
        "joker": bool(can_play and turn.dice and card.joker_applies(turn.dice)),
        "dice": dice_views(turn, can_play, words),
        "dice_sprite": dice_sprite,
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
        # Skip shows the game as it is now (the log's length: no step left to play back).
        "skip_to": game.log_length if replaying else None,
        "speed_control": speed_control(speed) if seat and any(s.bot for s in seats) else None,
        "coach": coaching,
        "live": online or seat is None,
        # Its replay, analysis and dice check are open to this browser (Game.open_to); a daily
        # attempt's wait for the day's end, its player's too (``Game.daily_running``).
        "reviewable": game.open_to(visitor) and not game.daily_running,
        "rematch": hooks.REMATCH(game, seat) if online and finished else None,
        "turn_clock": turn_clock(game) if online and not finished else None,
        # Give the game up (a page asks to confirm): a seat of an online game still in it.
        "can_resign": online
        and seat is not None
        and not finished
        and not replaying
        and shown is None
        and seat.position not in state.forfeited,
        "hint": hint_lines(game, state) if hint and coaching and turn.dice else None,
        "hint_asked": hint,
        "odds": odds_lines(state) if coaching else [],
        "pause_ms": pause_ms(log[-1].kind if replaying and log else "", speed),
    }


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
