"""Live updates of a game: every open page of it (seats and watchers) gets the changed fragments.

The consumer of a game page only forwards: the redraws of a move are rendered by the process that
applied it (``games.live.redraws``), moves sent over the socket are applied and answered in
``games.live.moves``, and presence is kept in ``games.presence``. Consumers also keep their seat
marked present while the page is open; the others see "away" with the grace countdown otherwise.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from core import panels
from core.socket_messages import (
    Close,
    GameChanged,
    MalformedFrame,
    Navigate,
    SignedOut,
)
from games import presence, timeouts
from games.live.csrf import CSRF_SLOT, fill_csrf, masked
from games.live.moves import FrameBudget, SocketPage, answer_move, parse_move, too_fast
from games.live.pages import (
    HEARTBEAT_SECONDS,
    LeavesOnce,
    browser_of,
    group_name,
    navigate_html,
    page_of,
    presence_message,
    signed_in_still,
)
from games.live.redraws import ROWS, render_once, view_key
from games.live.turns import keep_sweeping

logger = logging.getLogger(__name__)


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
        self.browser = browser_of(self.scope)
        self.page = page_of(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.tab = query.get("tab", [""])[0][:32]  # as the view takes X-Tab
        # The page's game.js swaps card rows pushed on their own (static/js/game.js): a page
        # loaded before it (kept open through a deploy) is sent the whole game area instead.
        self.takes_rows = query.get("rows", [""])[0] == "1"
        self.frames = FrameBudget()
        self.group = group_name(self.game_id)
        refused = await database_sync_to_async(presence.may_not_follow)(self.game_id, self.visitor)
        if refused:
            # Opened, then closed with a code the page does not reconnect on (as a table's page
            # of no table, ``lobby.consumers``): a refused handshake would be tried every second.
            await self.accept()
            await self.close(code=Close.GONE if refused == "missing" else Close.PRIVATE)
            return
        await self.forget_previous_run()
        keep_sweeping()
        # A turn that ran out while nobody was looking is played before the page is caught up.
        await database_sync_to_async(timeouts.enforce_if_due)(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.visitor:  # to be sent on to a rematch when it starts, or signed out
            await self.channel_layer.group_add(f"player-{self.visitor}", self.channel_name)
            if not await signed_in_still(session):  # signed out since the session was read
                await self.channel_layer.group_discard(self.group, self.channel_name)
                await self.channel_layer.group_discard(f"player-{self.visitor}", self.channel_name)
                await self.close()
                return
        await self.accept()
        self.watching = await database_sync_to_async(presence.is_watching)(
            self.game_id, self.visitor
        )
        await self._keep_watched()
        self.heartbeat = asyncio.create_task(self._keep_present())
        self.arrived = True
        # Counted before the catch-up is rendered, so that the page never shows its own seat away.
        came_back = await database_sync_to_async(presence.page_opened)(*self._page())
        # A move made between the page load and this connection would be missed: catch up now
        # (the page drops it when it already shows this version).
        await self.game_changed(GameChanged(parts=["game"]).to_message())
        # And the chat: a phone whose socket dropped for a while missed the lines said meanwhile.
        await panels.catch_up(self, panels.GAME_PAGE, self.game_id)
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
        if await database_sync_to_async(presence.page_closed)(channel, game_id, visitor):
            await self.presence_changed()

    async def dispatch(self, message: dict) -> None:
        """Handle a message; pushes and moves without Channels' database clean-up first.

        Channels closes stale database connections before every handler, on the one thread that
        runs this process's synchronous database work: a push would wait there behind the move
        being applied and its answer being rendered, and a move would take an extra turn. These
        handlers reach the database only through ``database_sync_to_async``, which does that
        clean-up itself, or where ``games.live.moves`` applies a move (``games.live.threads``),
        which keeps its own.
        """
        if message["type"] in DIRECT_MESSAGES:
            await getattr(self, get_handler_name(message))(message)
        else:
            await super().dispatch(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A move from this page (its forms send over the socket while it is open): answer it.

        Nothing that is not a move of a seat is rendered: a watcher's frames are dropped (its
        page has no controls), a frame over the page's budget is answered "too fast" unread
        (the move is not applied: tap it again), and a malformed frame closes the socket.
        """
        if self.refused or self.watching:
            return
        if not self.frames.take():
            await self.send(text_data=too_fast(self.page["language"]))
            return
        try:
            move = parse_move(text_data)
        except MalformedFrame:
            self.refused = True
            await self.close(code=Close.INVALID)
            return
        page = SocketPage(self.game_id, self.visitor, self.page, self.tab, self.watching)
        try:
            answer = await answer_move(page, move, self.channel_layer)
        except Exception:
            # Not a refusal but a failure (the database, a bug): the page reconnects and is sent
            # the game as it is; its forms post over HTTP meanwhile.
            logger.exception("Could not apply a move sent over the socket of game %s", self.game_id)
            await self.close(code=Close.FAILED)
            return
        if answer:
            await self.send(text_data=answer)

    async def presence_changed(self) -> None:
        await self.channel_layer.group_send(self.group, presence_message())

    async def game_changed(self, message: dict) -> None:
        """Forward this page's redraw from the message, or render it when the message has none."""
        event = GameChanged.read(message)
        if event.event is not None and event.event == self.served:
            return  # a later message of a move this page has already been sent
        if event.tab and event.tab == self.tab and event.mover == self.visitor:
            self.served = event.event
            return  # this page made the move: its answer showed it
        if event.seated is not None and self.visitor not in event.seated:
            key = view_key("", self.page["language"])  # a watcher: one redraw for them all
        else:
            key = view_key(self.visitor or "", self.page["language"])
        if key in event.pending:
            return  # the mover's process sends it in a later message of this move
        html = event.views.get(key)
        slot = event.csrf
        if html is None:
            html, slot = await render_once(self.game_id, event, key, self.page), CSRF_SLOT
        if not self.takes_rows and ROWS in html:  # rows alone: a page from before they were
            whole = replace(event, event=f"{event.event}:game", parts=["game"], onlookers=["game"])
            html, slot = await render_once(self.game_id, whole, key, self.page), CSRF_SLOT
        self.served = event.event
        if html:
            await self.send(text_data=fill_csrf(html, slot, masked(self.page["csrf_token"])))

    async def navigate(self, message: dict) -> None:
        navigate = Navigate.read(message)
        if navigate.rematch_of != self.game_id:
            return  # a game page follows only the rematch of the game it shows
        await self.send(text_data=navigate_html(navigate.url, self.page["language"]))

    async def lobby_changed(self, event: dict) -> None:
        """Challenges changed: nothing to redraw on a game page."""

    async def panel_changed(self, event: dict) -> None:
        """A panel of the page changed (a line said in the chat): it redraws itself here."""
        await panels.redraw(self, panels.GAME_PAGE, self.game_id, event)

    async def signed_out(self, event: dict) -> None:
        """The player's profile signed out its other browsers: if this is one of them, its socket
        (which read the player when it opened) takes no more moves and closes at once, and the
        page loads again as nobody's. The closing stops counting the seat present here."""
        if SignedOut.read(event).kept == self.browser:
            return
        self.refused = True  # a frame still queued behind this message is not applied
        await self.send(text_data=navigate_html(f"/game/{self.game_id}/", self.page["language"]))
        await self.close(code=Close.SIGNED_OUT)

    async def _keep_present(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            if await database_sync_to_async(presence.page_alive)(*self._page()):
                await self.presence_changed()
            await self._keep_watched()

    async def _keep_watched(self) -> None:
        """A watcher's page: have the process that applies a move render the watchers' redraw."""
        if self.watching:
            await database_sync_to_async(presence.mark_watched)(self.game_id)
