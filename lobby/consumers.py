"""Live lobby and table pages: who is online, challenges, seats at a table, "your game started"."""

from __future__ import annotations

import asyncio
import logging
from types import ModuleType

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from core import panels
from core.addresses import client_address
from core.refusals import ActionRefused
from core.socket_messages import Close, LobbyChanged, Navigate, SignedOut
from games.live.csrf import masked
from games.live.pages import (
    HEARTBEAT_SECONDS,
    LeavesOnce,
    browser_of,
    navigate_html,
    page_of,
    signed_in_still,
)
from games.live.sockets import handshake
from lobby import notify, playnow, presence, presenters, ranked, services


def fresh(page: dict) -> dict:
    """The page's rendering context with its CSRF secret freshly masked (see ``masked``)."""
    return page | {"csrf_token": masked(page["csrf_token"])}


def render_lobby(visitor: str | None, page: dict) -> str:
    """The lobby's live parts for this visitor, as out-of-band swaps."""
    with translation.override(page["language"]):
        context = presenters.lobby_context(visitor) | {"oob": True} | fresh(page)
        return "".join(
            render_to_string(f"lobby/lobby.html#{part}", context)
            for part in ("ranked", "online", "challenges")
        )


def render_table(code: str, visitor: str | None, page: dict) -> str:
    """A table's seats and start button for this visitor, as an out-of-band swap.

    Once the game has started, a seated player's page goes to it, as when the start is pushed:
    a page whose socket connected just after the start missed that push.
    """
    with translation.override(page["language"]):
        context = presenters.table_context(code, visitor)
        if context is None:
            return ""
        html = render_to_string("lobby/table.html#seats", context | {"oob": True} | fresh(page))
        table = context["table"]
        if table.started and context["seated"]:
            url = reverse("games:play", args=[table.game_id])
            html += navigate_html(url, page["language"])
        return html


logger = logging.getLogger(__name__)


def table_found(scope: dict, code: str) -> bool:
    """Whether this socket's code finds a live table: looked up as the table's page looks it up,
    a code that finds none counting toward the same limits on guesses."""
    session = scope.get("session")
    visitor = session.get("visitor") if session is not None else None
    try:
        services.look_up_table(visitor, code, address=client_address(handshake(scope)))
    except ActionRefused:
        return False
    return True


class PresenceConsumer(LeavesOnce, AsyncWebsocketConsumer):
    """An open page of a player who is online: keeps them online, follows their games starting."""

    groups_of_page: tuple[str, ...] = ()
    path = "/online/"  # the page's address, to load it again (``signed_out``)

    async def connect(self) -> None:
        session = self.scope.get("session")
        self.visitor = await session.aget("visitor") if session is not None else None
        self.browser = browser_of(self.scope)
        self.page = page_of(self.scope)
        self.joined = [*self.groups_of_page]
        if self.visitor:
            self.joined.append(notify.player_group(self.visitor))
        await self.forget_previous_run()
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        if self.visitor and not await signed_in_still(session):  # signed out since it was read
            for group in self.joined:
                await self.channel_layer.group_discard(group, self.channel_name)
            await self.close()
            return
        await self.accept()
        self.heartbeat = asyncio.create_task(self._keep_online())
        self.arrived = True
        if self.visitor:
            arrive = database_sync_to_async(presence.arrive)
            await self._came_or_went(await arrive(self.channel_name, self.process, self.visitor))
        # Catch up on what changed between the page load and this connection.
        await self.lobby_changed({})
        await self.table_changed({})

    async def departed(self) -> None:
        self.heartbeat.cancel()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.visitor:
            depart = database_sync_to_async(presence.depart)
            await self._came_or_went(await depart(self.channel_name, self.visitor))

    async def _keep_online(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            if self.visitor:
                touch = database_sync_to_async(presence.touch)
                await self._came_or_went(await touch(self.channel_name, self.process, self.visitor))

    async def _came_or_went(self, changed: bool) -> None:
        """Redraw the lobby's list of who is online, only when this player came or went."""
        if changed:
            await self.channel_layer.group_send(notify.LOBBY_GROUP, LobbyChanged().to_message())

    async def navigate(self, event: dict) -> None:
        url = Navigate.read(event).url
        await self.send(text_data=navigate_html(url, self.page["language"]))

    async def lobby_changed(self, event: dict) -> None:
        """Lobby pages redraw; other pages ignore it."""

    async def signed_out(self, event: dict) -> None:
        """The profile signed out its other browsers: if this is one of them, its socket closes
        at once (the player is online through it no more) and the page loads again as nobody's
        (``notify.signed_out``)."""
        if SignedOut.read(event).kept == self.browser:
            return
        await self.send(text_data=navigate_html(self.path, self.page["language"]))
        await self.close(code=Close.SIGNED_OUT)

    async def table_changed(self, event: dict) -> None:
        """Table pages redraw; other pages ignore it."""


class PairsWhileWaiting(PresenceConsumer):
    """A page whose player may wait in a queue: it asks the queue's module (its
    ``pair_if_waiting``) for a pairing every few seconds, whichever process holds the other
    pages."""

    queue: ModuleType

    async def connect(self) -> None:
        await super().connect()
        if self.arrived:  # not a socket closed as it opened (its browser signed out)
            self.pairing = asyncio.create_task(self._pair_while_waiting())

    async def departed(self) -> None:
        pairing = getattr(self, "pairing", None)
        if pairing is not None:
            pairing.cancel()
        await super().departed()

    async def _pair_while_waiting(self) -> None:
        while self.visitor:
            await asyncio.sleep(ranked.PAIR_SECONDS)
            try:
                await database_sync_to_async(self.queue.pair_if_waiting)(self.visitor)
            except Exception:  # a failed try (the database busy...) must not stop the next ones
                logger.exception("Pairing a queue failed")


class LobbyConsumer(PairsWhileWaiting):
    """The lobby page; while its player waits for a ranked match, it asks for a pairing every
    few seconds (``lobby.ranked``): windows widen with time, with nobody clicking anything."""

    groups_of_page = (notify.LOBBY_GROUP,)
    queue = ranked

    async def lobby_changed(self, event: dict) -> None:
        html = await database_sync_to_async(render_lobby)(self.visitor, self.page)
        await self.send(text_data=html)


class PlayNowConsumer(PairsWhileWaiting):
    """Play now's waiting page (``lobby.playnow``): keeps its player here while it is open, asks
    for a pairing meanwhile, and goes to the game once paired."""

    path = "/play-now/"
    queue = playnow

    async def connect(self) -> None:
        await super().connect()
        if self.arrived:  # paired between the page's load and this socket: the push was missed
            game_id = await database_sync_to_async(playnow.paired_game)(self.visitor)
            if game_id:
                url = reverse("games:play", args=[game_id])
                await self.send(text_data=navigate_html(url, self.page["language"]))


class TableConsumer(PresenceConsumer):
    """A private table's page."""

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.groups_of_page = (notify.table_group(self.code),)
        self.path = f"/t/{self.code}/"
        if not await database_sync_to_async(table_found)(self.scope, self.code):
            # Opened, then closed with a code the page does not reconnect on: a handshake
            # refused (403) would be tried again every second, each try one more wrong code
            # counted against the visitor's address (a tab left open after its table expired).
            await self.accept()
            await self.close(code=Close.GONE)
            return
        await super().connect()

    async def table_changed(self, event: dict) -> None:
        html = await database_sync_to_async(render_table)(self.code, self.visitor, self.page)
        if html:
            await self.send(text_data=html)

    async def panel_changed(self, event: dict) -> None:
        """A panel of the page changed (a line said in the chat): it redraws itself here."""
        await panels.redraw(self, panels.TABLE_PAGE, self.code, event)
