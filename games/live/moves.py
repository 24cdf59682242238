"""Moves a page sends over its game's socket: what a frame may hold, how many a page may send,
and the move applied and answered as ``views.act`` applies and answers the same move posted."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import time
from collections.abc import Iterator
from typing import NamedTuple

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from core.refusals import EXPIRED, NOT_YOURS, ActionRefused, NotYourGame, translate_refusal
from core.socket_messages import MoveFrame, answer
from engine.rules import IllegalMove
from games import services
from games.forms import MOVES, read_move
from games.live import threads
from games.live.csrf import csrf_matches, masked
from games.live.redraws import read_ahead
from games.live.sending import deliver
from games.live.threads import keeping_sends, moving, off_loop
from games.models import Game
from games.presenters.page import game_context, render_parts
from games.presenters.parts import changed_parts

logger = logging.getLogger(__name__)


def parse_move(text: str | None) -> MoveFrame:
    """The move in a frame (JSON of its form's fields plus "move"); ``MalformedFrame`` if the
    frame is not a move a page sends."""
    return MoveFrame.parse(text, MOVES)


class FrameBudget:
    """How many frames a page may send: a burst, then a steady rate (a token bucket).

    A person taps a few times a second at most; a socket sending more is not a page.
    """

    def __init__(self, burst: int | None = None, per_second: float | None = None) -> None:
        self.burst = settings.SOCKET_FRAME_BURST if burst is None else burst
        self.per_second = settings.SOCKET_FRAMES_PER_SECOND if per_second is None else per_second
        self.tokens, self.at = float(self.burst), time.monotonic()

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
        return answer(render_to_string("games/too_fast.html").strip())


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


async def answer_move(page: SocketPage, move: MoveFrame, layer) -> str:
    """Apply a move a page sent over its socket; its answer, for the page (empty: no game).

    The other pages' redraws go out first, through ``layer``. Where the move runs:
    ``games.live.threads``.
    """
    if threads.MOVES_SHARE_THREAD:
        async with moving(asyncio.get_running_loop()):
            moved = await off_loop(apply_and_render)(page, move)
            return await send_and_answer(moved, page, layer)
    # The move's database work on a mover thread: the loop goes on serving other pages meanwhile.
    moved = await off_loop(apply_and_render)(page, move)
    async with moving(asyncio.get_running_loop()):
        return await send_and_answer(moved, page, layer)


class Moved(NamedTuple):
    """A move applied on its thread: its outcome, and its redraws, the first one rendered (or,
    when it has none, the answer)."""

    outcome: Outcome | None
    first: tuple[str, dict] | None  # the first redraw's group and message, ready to send
    rest: Iterator[tuple[str, dict]]  # the others, each rendered when it is asked for
    answer: str | None  # rendered already when there is no redraw to send first


def apply_and_render(page: SocketPage, move: MoveFrame) -> Moved:
    """Apply the move, then render the first of its redraws in the same hand-over to the
    thread: the other player's page is sent it as soon as the loop is back. A move that
    redraws no other page (a refusal, nobody else's page open) is answered at once."""
    outcome, sends = keeping_sends(apply_move, page, move)
    rest = itertools.chain.from_iterable(sends)
    first = next(rest, None)
    return Moved(outcome, first, rest, answer_to(outcome, page) if first is None else None)


def next_or_answer(moved: Moved, page: SocketPage) -> tuple[tuple[str, dict] | None, str]:
    """The move's next redraw, rendered; once none is left, the answer to the page's move."""
    sent = next(moved.rest, None)
    return (sent, "") if sent is not None else (None, answer_to(moved.outcome, page))


async def send_and_answer(moved: Moved, page: SocketPage, layer) -> str:
    """Send the others' redraws of an applied move, then return its answer, each rendered on
    the move's thread (``off_loop``) and sent from the loop.

    Over the page's open socket a move skips the HTTP request's parsing, middleware and session
    read, which makes up much of its cost; what other pages are sent is the same as for a post.
    Each redraw is handed to the channel layer and given a few turns of the loop to reach its
    pages' sockets before the next one (or the answer) is rendered.
    """
    sent, answer = moved.first, moved.answer
    while sent is not None:
        await deliver(layer, *sent)
        sent, answer = await off_loop(next_or_answer)(moved, page)
    return answer or ""


def apply_move(page: SocketPage, frame: MoveFrame) -> Outcome | None:
    """A move sent over a socket applied (its redraws announced) or refused, as ``views.act``
    applies the same move posted; None if there is no such game."""
    fields = frame.fields
    with translation.override(page.page["language"]):
        try:
            if not csrf_matches(fields.get("csrfmiddlewaretoken", ""), page.page["csrf_token"]):
                raise ActionRefused(EXPIRED)
            if page.watching:  # no seat in the game: refused before its row is locked
                raise NotYourGame(NOT_YOURS)
            move = read_move(frame.kind, fields)
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
        return answer(render_parts(context, outcome.parts))
