"""Moves a page sends over its game's socket: what a frame may hold, how many a page may send,
and the move applied and answered as ``views.act`` applies and answers the same move posted."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils import translation

from core.refusals import EXPIRED, NOT_YOURS, ActionRefused, NotYourGame, translate_refusal
from engine.rules import IllegalMove
from games import services
from games.forms import MOVES, read_move
from games.live.csrf import csrf_matches, masked
from games.live.redraws import read_ahead
from games.live.sending import deliver
from games.live.threads import MOVES_ON_LOOP, keeping_sends, moving, on_mover_thread, run_here
from games.models import Game
from games.presenters.page import game_context, render_parts
from games.presenters.parts import changed_parts

logger = logging.getLogger(__name__)

# Marks the answer to this page's own move: the page applies it even when it shows no newer
# version than the page has (a refusal), unlike a push (see static/js/game.js).
ANSWER = "<!-- answer -->"
MAX_MOVE_BYTES = 2000  # a move's fields are a few dozen bytes; anything longer is refused
CLOSE_INVALID = 1007  # RFC 6455: a frame that is not a move


def parse_move(text: str | None) -> dict | None:
    """A move's fields from a frame (JSON of its form's fields plus "move"), or None if the
    frame is not a move a page sends."""
    if not text or len(text) > MAX_MOVE_BYTES:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: thousands of nested brackets
        return None
    if not isinstance(data, dict) or data.get("move") not in MOVES:
        return None
    return data


class FrameBudget:
    """How many frames a page may send: a burst, then a steady rate (a token bucket).

    A person taps a few times a second at most; a socket sending more is not a page.
    """

    def __init__(self, burst: int = 20, per_second: float = 10) -> None:
        self.burst, self.per_second = burst, per_second
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        """Spend one frame; False when the budget is spent."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@functools.cache
def too_fast(language: str) -> str:
    """The answer to a frame over its page's budget: the move was not applied, tap it again.

    The same for every game, rendered once per language: a page over its budget costs no game
    read and no redraw, and other moves do not wait behind its refusals. Every frame gets its
    answer, in order, so that a page matches answers to its moves (static/js/game.js).
    """
    with translation.override(language):
        return ANSWER + render_to_string("games/too_fast.html").strip()


class Outcome(NamedTuple):
    """A move sent over a socket, applied or refused: what its answer shows."""

    game: Game
    parts: list[str]
    told: dict  # the refusal, if it was refused


class SocketPage(NamedTuple):
    """The page a move came from: its game, its visitor, how it renders, its tab."""

    game_id: str
    visitor: str | None
    page: dict  # the language and the CSRF secret (``pages.page_of``)
    tab: str
    watching: bool  # the visitor has no seat in the game


async def answer_move(page: SocketPage, data: dict, layer) -> str:
    """Apply a move a page sent over its socket; its answer, for the page (empty: no game).

    The other pages' redraws go out first, through ``layer``. Where the move runs:
    ``games.live.threads``.
    """
    if MOVES_ON_LOOP:
        async with moving(asyncio.get_running_loop()):
            outcome, sends = run_here(apply_move, page, data)
            return await send_and_answer(outcome, sends, page, layer)
    # The move's database work on a mover thread: the loop goes on serving other pages meanwhile.
    outcome, sends = await on_mover_thread(keeping_sends)(apply_move, page, data)
    async with moving(asyncio.get_running_loop()):
        return await send_and_answer(outcome, sends, page, layer)


async def send_and_answer(outcome: Outcome | None, sends: list, page: SocketPage, layer) -> str:
    """Render and send the others' redraws of an applied move, then render its answer, here.

    Over the page's open socket a move skips the HTTP request's parsing, middleware and session
    read, which makes up much of its cost; what other pages are sent is the same as for a post.
    Each redraw is rendered, handed to the channel layer, and given a few turns of the loop to
    reach its pages' sockets before the next one (or the answer) is rendered.
    """
    for messages in sends:
        while (sent := run_here(next, messages, None)[0]) is not None:
            await deliver(layer, *sent)
    return run_here(answer_to, outcome, page)[0]


def apply_move(page: SocketPage, data) -> Outcome | None:
    """A move sent over a socket applied (its redraws announced) or refused, as ``views.act``
    applies the same move posted; None if there is no such game."""
    fields = data if isinstance(data, dict) else {}
    fields = {key: value for key, value in fields.items() if isinstance(value, str)}
    with translation.override(page.page["language"]):
        try:
            if not csrf_matches(fields.get("csrfmiddlewaretoken", ""), page.page["csrf_token"]):
                raise ActionRefused(EXPIRED)
            if page.watching:  # no seat in the game: refused before its row is locked
                raise NotYourGame(NOT_YOURS)
            move = read_move(fields.get("move", ""), fields)
            game = services.perform(
                page.game_id, page.visitor, move.kind, move.params, move.step, tab=page.tab or None
            )
        except (ActionRefused, IllegalMove) as refusal:
            game = Game.objects.prefetch_related("seats").filter(pk=page.game_id).first()
            if game is None:
                return None
            return Outcome(game, ["game"], {"error": translate_refusal(refusal)})
        try:
            read_ahead(game, page.visitor)
        except Exception:  # only a head start: the rendering reads what it lacks itself
            logger.exception("Could not read ahead for the redraws of game %s", page.game_id)
        # A move's parts include the message line (or the whole game area, which has it).
        return Outcome(game, list(changed_parts(move.kind)), {})


def answer_to(outcome: Outcome | None, page: SocketPage) -> str:
    """The answer to a page's move: what it changed, or the game and why not (empty: no game)."""
    if outcome is None:
        return ""
    with translation.override(page.page["language"]):
        # The token is masked here, after the other pages' redraws have gone.
        answer_page = page.page | {"csrf_token": masked(page.page["csrf_token"]), "live": True}
        context = game_context(outcome.game, page.visitor, **outcome.told) | answer_page
        return ANSWER + render_parts(context, outcome.parts)
