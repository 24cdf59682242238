"""Live updates of a game: every open page of it (seats and watchers) gets the changed fragments.

One group per game, ``game-<id>``. Right after a move commits, the process that applied it
renders the redraw of each other seat with an open page (only a seat whose turn it is gets
controls), then the watchers' one, with the same partials as the views, and sends them in group
messages: consumers only forward them. A page that finds no redraw of its own in the messages
(another language, presence changes) renders it, once per process for all the pages that see
the same. Consumers also keep their seat marked present while the page is open; the others see
"away" with the grace countdown otherwise.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Iterable, Iterator
from typing import NamedTuple
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from games import presence, services
from games.live.csrf import CSRF_SLOT, csrf_matches, fill_csrf, masked
from games.live.pages import (
    HEARTBEAT_SECONDS,
    LeavesOnce,
    group_name,
    page_of,
    presence_message,
)
from games.live.sending import _deliver, _here, broadcast
from games.live.threads import (
    MOVES_ON_LOOP,
    moving,
    on_mover_thread,
    run_here,
)
from games.models import Game, Seat
from games.presenters.page import game_context, render_parts
from games.rules import IllegalMove

logger = logging.getLogger(__name__)


def game_changed(
    game_id: str,
    parts: Iterable[str] = ("game",),
    onlookers: Iterable[str] | None = None,
    *,
    game: Game | None = None,
    mover: str | None = None,
    tab: str | None = None,
) -> None:
    """Tell every page open on this game to redraw these parts (call after the commit).

    ``onlookers``: the parts that change on pages that cannot play now (by default ``parts``).
    With ``game`` (as just committed), the redraws of the other seats that have a page open, then
    the watchers' (if the game has any), are rendered here in the active language, and each is
    sent as soon as it is ready: their consumers only forward them. Pages in another language and
    the mover's own other pages render their own, once per process.
    """
    language = translation.get_language() or settings.LANGUAGE_CODE
    messages = redraws(game_id, parts, onlookers, game, mover, tab, language)
    if _here.sends is not None:
        # A move applied on the event loop's thread: its consumer renders and sends these one
        # by one, letting each go out before the next is rendered (``GameConsumer.receive``).
        _here.sends.append(messages)
        return
    for group, message in messages:
        broadcast(group, message)


def on_game_changed(sender, *, game_id, parts, onlookers, game, mover, tab, **kwargs) -> None:
    """``events.game_changed``: push the redraws to the game's open pages."""
    game_changed(game_id, parts, onlookers, game=game, mover=mover, tab=tab)


def on_group_message(sender, *, group: str, message: dict, **kwargs) -> None:
    """``events.group_message``: forward it to the group's open pages."""
    broadcast(group, message)


def redraws(
    game_id: str,
    parts: Iterable[str],
    onlookers: Iterable[str] | None,
    game: Game | None,
    mover: str | None,
    tab: str | None,
    language: str,
) -> Iterator[tuple[str, dict]]:
    """The group messages of ``game_changed``, each rendered when it is asked for."""
    message = {
        "type": "game.changed",
        "parts": list(parts),
        "onlookers": list(parts if onlookers is None else onlookers),
        "event": secrets.token_hex(8),
        "tab": tab,  # the page that made the move: its answer already shows it
        "mover": mover,
    }
    if game is None:
        yield group_name(game_id), message
        return
    seats = game.ordered_seats()
    message |= {"seated": sorted({s.visitor for s in seats if s.visitor}), "csrf": CSRF_SLOT}
    open_pages = list(dict.fromkeys(s.visitor for s in seats if s.visitor and s.connections > 0))
    here = [visitor for visitor in open_pages if visitor != mover]
    if game.watched_until is not None and game.watched_until > timezone.now():
        here.append("")  # the watchers' redraw: they all see the same
    mover_pages = next((s.connections for s in seats if s.visitor == mover), 0)
    other_tabs = mover_pages > (1 if tab else 0)
    if other_tabs and isinstance(get_channel_layer(), InMemoryChannelLayer):
        # One process: the mover's consumer would render on the thread that is still answering
        # the mover, delaying that answer; render it here instead, once the others have theirs.
        # (Through Redis, the socket process renders it while this one answers.)
        here.append(mover)
    if not here:
        yield group_name(game_id), message
    keys = [view_key(visitor, language) for visitor in here]
    page = {"language": language, "csrf_token": CSRF_SLOT}
    for done, visitor in enumerate(here, start=1):
        try:
            with translation.override(language):
                html = render_context(game, visitor, page, message)
        except Exception:  # that page renders its own instead (the move has committed)
            logger.exception("Could not render the live update of game %s", game_id)
            html = None
        # "pending": the pages whose redraw follows in a later message of this move.
        views = {"views": {keys[done - 1]: html}, "pending": keys[done:]}
        yield group_name(game_id), message | views


def view_key(visitor: str, language: str) -> str:
    """Which pages see the same redraw: a seat's in a language, or a watcher's (visitor "")."""
    return f"{visitor}|{language}"


def render_context(game: Game, visitor: str | None, page: dict, message: dict) -> str:
    """The parts the message names as this visitor sees the game, as out-of-band swaps."""
    context = game_context(game, visitor) | {"live": True} | page
    parts = message.get("parts", ["game"])
    if not context["can_play"]:
        parts = message.get("onlookers", parts)
    return render_parts(context, parts)


def render_game(game_id: str, visitor: str | None, page: dict, message: dict) -> str:
    """The parts a message names as this visitor should see them now, as out-of-band swaps.

    ``page`` gives the language and the token that forms carry.
    """
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        return ""
    with translation.override(page["language"]):
        return render_context(game, visitor, page, message)


# Moves a page may send over its socket, as JSON of its form's fields plus "move": what it posts.
MOVES = ("roll", "hold", "score")
# Marks the answer to this page's own move: the page applies it even when it shows no newer
# version than the page has (a refusal), unlike a push (see static/js/game.js).
ANSWER = "<!-- answer -->"
MAX_MOVE_BYTES = 2000  # a move's fields are a few dozen bytes; anything longer is refused
CLOSE_INVALID = 1007  # RFC 6455: a frame that is not a move


def parse_move(text: str | None) -> dict | None:
    """A move's fields from a frame, or None if the frame is not a move a page sends."""
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


class Outcome(NamedTuple):
    """A move sent over a socket, applied or refused: what its answer shows."""

    game: Game
    parts: list[str]
    told: dict  # the refusal, if it was refused


def move_from_socket(
    game_id: str, visitor: str | None, page: dict, tab: str, data, *, watching: bool = False
) -> str:
    """Apply a move a page sent over its socket and render the answer, as ``views.act`` does
    for the same move posted: the fragments the move changed, or the game and why not.
    ``watching``: the page's visitor has no seat in the game.

    Over the page's open socket a move skips the HTTP request's parsing, middleware and session
    read, which makes up much of its cost; what other pages are sent is the same.
    """
    outcome = apply_move(game_id, visitor, page, tab, data, watching=watching)
    return answer_to(outcome, visitor, page)


def apply_move(
    game_id: str, visitor: str | None, page: dict, tab: str, data, *, watching: bool = False
) -> Outcome | None:
    """The first half of ``move_from_socket``: the move applied (and the others' redraws sent)
    or refused; None if there is no such game."""
    fields = data if isinstance(data, dict) else {}
    fields = {key: value for key, value in fields.items() if isinstance(value, str)}
    kind = fields.get("move")
    with translation.override(page["language"]):
        try:
            if not csrf_matches(fields.get("csrfmiddlewaretoken", ""), page["csrf_token"]):
                raise services.ActionRefused(services.EXPIRED)
            if watching:  # no seat in the game: refused before its row is locked
                raise services.NotYourGame(services.NOT_YOURS)
            if kind not in MOVES:
                raise IllegalMove(gettext_noop("Unknown action."))
            params = services.move_params(kind, fields)
            step = fields.get("step", "")
            step = int(step) if step.isascii() and step.isdigit() else None
            game = services.perform(game_id, visitor, kind, params, step, tab=tab or None)
        except (services.ActionRefused, IllegalMove) as refusal:
            game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
            if game is None:
                return None
            return Outcome(game, ["game"], {"error": services.translate_refusal(refusal)})
        # A move's parts include the message line (or the whole game area, which has it).
        return Outcome(game, list(services.changed_parts(kind)), {})


def answer_to(outcome: Outcome | None, visitor: str | None, page: dict) -> str:
    """The answer to a page's move: what it changed, or the game and why not (empty: no game)."""
    if outcome is None:
        return ""
    with translation.override(page["language"]):
        # The token is masked here, after the other pages' redraws have gone.
        answer_page = page | {"csrf_token": masked(page["csrf_token"]), "live": True}
        context = game_context(outcome.game, visitor, **outcome.told) | answer_page
        return ANSWER + render_parts(context, outcome.parts)


def is_watching(game_id: str, visitor: str | None) -> bool:
    """True if this visitor has no seat in the game: their pages only watch."""
    return not visitor or not Seat.objects.filter(game_id=game_id, visitor=visitor).exists()


def page_opened(channel: str, process: str, game_id: str, visitor: str | None) -> bool:
    """Count a seat's page as open; True if that brought the seat back (the others redraw)."""
    if not visitor:
        return False
    presence.open_page(channel, process, visitor, game_id)
    return presence.refresh_seats(game_id, visitor)


def page_alive(channel: str, process: str, game_id: str, visitor: str | None) -> bool:
    """A page's heartbeat: renew it (a seat's), and forget the game's pages whose heartbeat
    stopped (a server that crashed); True if a seat came or went."""
    if visitor:
        presence.open_page(channel, process, visitor, game_id)
    if presence.lapse(game_id):
        return presence.refresh_seats(game_id)  # everyone's: whose pages were those?
    # Only this seat's copy moves on (a watcher's page changes nothing).
    return bool(visitor) and presence.refresh_seats(game_id, visitor)


def page_closed(channel: str, game_id: str, visitor: str | None) -> bool:
    """A seat's page closed; True if it was the seat's last (the others see it away)."""
    if not visitor:
        return False
    presence.close_page(channel)
    return presence.refresh_seats(game_id, visitor)


def mark_watched(game_id: str) -> None:
    """A watcher's page is open on this game: keep the game marked watched for a while."""
    until = timezone.now() + presence.PRESENCE_WINDOW
    Game.objects.filter(pk=game_id).update(watched_until=until)


# Redraws rendered by this process's consumers, by (event, view), shared by the pages that see the
# same; only the latest few are kept (a message reaches every page of a process at once).
_renders: dict[tuple[str, str], asyncio.Future] = {}
RENDERS_KEPT = 64


# Messages whose handlers go straight to work (see ``GameConsumer.dispatch``): the channel-layer
# messages a game page handles, and a move it sends.
DIRECT_MESSAGES = frozenset({"game.changed", "navigate", "lobby.changed", "websocket.receive"})


class GameConsumer(LeavesOnce, AsyncWebsocketConsumer):
    """One open game page: pushes redrawn fragments, keeps the seat present."""

    served: str | None = None  # the move (event) this page was last sent
    refused = False  # the page sent what no page sends: its socket is closing

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        session = self.scope.get("session")
        self.visitor = await session.aget("visitor") if session is not None else None
        self.page = page_of(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.tab = query.get("tab", [""])[0][:32]  # as the view takes X-Tab
        self.frames = FrameBudget()
        self.group = group_name(self.game_id)
        await self.forget_previous_run()
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.visitor:  # to be sent on to a rematch when it starts
            await self.channel_layer.group_add(f"player-{self.visitor}", self.channel_name)
        await self.accept()
        self.watching = await database_sync_to_async(is_watching)(self.game_id, self.visitor)
        await self._keep_watched()
        self.heartbeat = asyncio.create_task(self._keep_present())
        self.arrived = True
        # Counted before the catch-up is rendered, so that the page never shows its own seat away.
        came_back = await database_sync_to_async(page_opened)(*self._page())
        # A move made between the page load and this connection would be missed: catch up now
        # (the page drops it when it already shows this version).
        await self.game_changed({"parts": ["game"]})
        if came_back:
            await self.presence_changed()

    def _page(self) -> tuple[str, str, str, str | None]:
        """This page as presence counts it: a seat's (a watcher's is not counted)."""
        visitor = None if self.watching else self.visitor
        return self.channel_name, self.process, self.game_id, visitor

    async def departed(self) -> None:
        self.heartbeat.cancel()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.visitor:
            await self.channel_layer.group_discard(f"player-{self.visitor}", self.channel_name)
        channel, _process, game_id, visitor = self._page()
        if await database_sync_to_async(page_closed)(channel, game_id, visitor):
            await self.presence_changed()

    async def dispatch(self, message: dict) -> None:
        """Handle a message; pushes and moves without Channels' database clean-up first.

        Channels closes stale database connections before every handler, on the one thread that
        runs this process's synchronous database work: a push would wait there behind the move
        being applied and its answer being rendered, and a move would take an extra turn. These
        handlers reach the database only through ``database_sync_to_async``, which does that
        clean-up itself, on a mover thread (``on_mover_thread``) or on the loop's thread
        (``run_here``), which keep their own.
        """
        if message["type"] in DIRECT_MESSAGES:
            await getattr(self, get_handler_name(message))(message)
        else:
            await super().dispatch(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A move from this page (its forms send over the socket while it is open): answer it.

        Nothing that is not a move of a seat is rendered: a watcher's frames are dropped (its
        page has no controls), and so are frames over the page's budget; a malformed frame
        closes the socket.
        """
        if self.refused or not self.frames.take() or self.watching:
            # Over the budget (no page taps that fast) the frame is dropped, not the socket: a
            # real page whose move goes unanswered posts it after 3 s and reconnects.
            return
        data = parse_move(text_data)
        if data is None:
            self.refused = True
            await self.close(code=CLOSE_INVALID)
            return
        try:
            if MOVES_ON_LOOP:
                answer = await self._move_here(data)
            else:
                answer = await on_mover_thread(move_from_socket)(
                    self.game_id, self.visitor, self.page, self.tab, data, watching=self.watching
                )
        except Exception:
            # Not a refusal but a failure (the database, a bug): the page reconnects and is sent
            # the game as it is; its forms post over HTTP meanwhile.
            logger.exception("Could not apply a move sent over the socket of game %s", self.game_id)
            await self.close(code=1011)
            return
        if answer:
            await self.send(text_data=answer)

    async def _move_here(self, data) -> str:
        """Apply a move on this thread (``MOVES_ON_LOOP``): the others' redraws, then the answer.

        Each redraw is rendered, handed to the channel layer, and given a few turns of the loop
        to reach its pages' sockets before the next one (or the answer) is rendered.
        """
        args = (self.game_id, self.visitor, self.page, self.tab, data)
        async with moving(asyncio.get_running_loop()):
            outcome, sends = run_here(apply_move, *args, watching=self.watching)
            for messages in sends:
                while (sent := run_here(next, messages, None)[0]) is not None:
                    await _deliver(self.channel_layer, *sent)
            return run_here(answer_to, outcome, self.visitor, self.page)[0]

    async def presence_changed(self) -> None:
        await self.channel_layer.group_send(self.group, presence_message())

    async def game_changed(self, event: dict) -> None:
        """Forward this page's redraw from the message, or render it when the message has none."""
        if event.get("event") is not None and event["event"] == self.served:
            return  # a later message of a move this page has already been sent
        if event.get("tab") and event["tab"] == self.tab and event.get("mover") == self.visitor:
            self.served = event["event"]
            return  # this page made the move: its answer showed it
        seated = event.get("seated")
        if seated is not None and self.visitor not in seated:
            key = view_key("", self.page["language"])  # a watcher: one redraw for them all
        else:
            key = view_key(self.visitor or "", self.page["language"])
        if key in event.get("pending", ()):
            return  # the mover's process sends it in a later message of this move
        html = event.get("views", {}).get(key)
        slot = event.get("csrf")
        if html is None:
            html, slot = await self._render(event, key), CSRF_SLOT
        self.served = event.get("event")
        if html:
            await self.send(text_data=fill_csrf(html, slot, masked(self.page["csrf_token"])))

    async def _render(self, event: dict, key: str) -> str:
        """Render this page's redraw, once for all the pages of this process that see the same."""
        visitor = key.partition("|")[0] or None
        page = self.page | {"csrf_token": CSRF_SLOT}
        render = database_sync_to_async(render_game)
        if event.get("event") is None:  # the catch-up of a page that just connected
            return await render(self.game_id, visitor, page, event)
        shared = (event["event"], key)
        task = _renders.get(shared)
        if task is None:
            task = _renders[shared] = asyncio.ensure_future(
                render(self.game_id, visitor, page, event)
            )
            while len(_renders) > RENDERS_KEPT:
                del _renders[next(iter(_renders))]
        try:
            return await task
        except Exception:
            _renders.pop(shared, None)  # the next page tries again rather than reuse a failure
            raise

    async def navigate(self, event: dict) -> None:
        if event.get("rematch_of") != self.game_id:
            return  # a game page follows only the rematch of the game it shows
        with translation.override(self.page["language"]):
            html = render_to_string("lobby/_navigate.html", {"url": event["url"]})
        await self.send(text_data=html)

    async def lobby_changed(self, event: dict) -> None:
        """Challenges changed: nothing to redraw on a game page."""

    async def _keep_present(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            if await database_sync_to_async(page_alive)(*self._page()):
                await self.presence_changed()
            await self._keep_watched()

    async def _keep_watched(self) -> None:
        """A watcher's page: have the process that applies a move render the watchers' redraw."""
        if self.watching:
            await database_sync_to_async(mark_watched)(self.game_id)
