"""Live updates of a game: every open page of it (seats and watchers) gets the changed fragments.

One group per game, ``game-<id>``. A consumer renders the fragments for its own visitor (only a
seat whose turn it is gets controls) with the same partials as the views, and keeps its seat
marked present while the page is open; the others see "away" with the grace countdown otherwise.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone, translation

from games import presenters
from games.models import Game, Seat

HEARTBEAT_SECONDS = 20
# A page opening or closing changes only the status (who is here, the away countdown): redrawing
# more would wipe a box the player to move has just selected.
PRESENCE_CHANGED = {"type": "game.changed", "parts": ["status"]}
PRESENCE_WINDOW = timedelta(seconds=60)


def group_name(game_id: str) -> str:
    """The Channels group of a game."""
    return f"game-{game_id}"


def broadcast(group: str, message: dict) -> None:
    """Send a message to a group from synchronous code (views, services)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        async_to_sync(layer.group_send)(group, message)
    else:
        # Sync code running on an event loop's thread (a sync test driving a browser): schedule it.
        asyncio.ensure_future(layer.group_send(group, message))


def game_changed(game_id: str, parts: tuple[str, ...] = ("game",)) -> None:
    """Tell every page open on this game to redraw these parts (call after the commit)."""
    broadcast(group_name(game_id), {"type": "game.changed", "parts": list(parts)})


def language_of(scope: dict) -> str:
    """The page's language: the language cookie, else the browser's preference."""
    cookies = scope.get("cookies", {})
    if cookies.get("django_language"):
        return cookies["django_language"]
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    return translation.get_supported_language_variant(
        (accept.split(",")[0].split(";")[0].strip() or "en").lower(), strict=False
    ) if accept else "en"  # fmt: skip


def page_of(scope: dict) -> dict:
    """What rendering for this socket needs: its language and its CSRF token.

    Forms pushed over the socket must post like forms of the page: Django accepts the CSRF
    cookie's own value as the token (what JavaScript clients send as X-CSRFToken).
    """
    return {
        "language": language_of(scope),
        "csrf_token": scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, ""),
    }


def render_game(game_id: str, visitor: str | None, page: dict, parts: list[str]) -> str:
    """These parts of the game page as this visitor should see them now, as out-of-band swaps."""
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        return ""
    with translation.override(page["language"]):
        context = presenters.game_context(game, visitor) | {"live": True} | page
        return presenters.render_parts(context, parts)


def mark_present(game_id: str, visitor: str | None, delta: int) -> bool:
    """Count this visitor's open pages on their seats; True if their presence changed."""
    if not visitor:
        return False
    seats = Seat.objects.filter(game_id=game_id, visitor=visitor, game__mode=Game.Mode.ONLINE)
    now = timezone.now()
    if delta > 0:
        was_away = (
            seats.filter(present_until__lt=now).exists()
            or seats.filter(present_until=None).exists()
        )
        seats.update(connections=F("connections") + 1, present_until=now + PRESENCE_WINDOW)
        return was_away
    if delta < 0:
        seats.update(connections=F("connections") - 1)
        changed = seats.filter(connections__lte=0).update(connections=0, present_until=now)
        return bool(changed)
    seats.filter(connections__gt=0).update(present_until=now + PRESENCE_WINDOW)
    return False


class GameConsumer(AsyncWebsocketConsumer):
    """One open game page: pushes redrawn fragments, keeps the seat present."""

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        session = self.scope.get("session")
        self.visitor = await session.aget("visitor") if session is not None else None
        self.page = page_of(self.scope)
        self.group = group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.visitor:  # to be sent on to a rematch when it starts
            await self.channel_layer.group_add(f"player-{self.visitor}", self.channel_name)
        await self.accept()
        # A move made between the page load and this connection would be missed: catch up now
        # (the page drops it when it already shows this version).
        await self.game_changed({"parts": ["game"]})
        if await database_sync_to_async(mark_present)(self.game_id, self.visitor, +1):
            await self.channel_layer.group_send(self.group, PRESENCE_CHANGED)
        self.heartbeat = asyncio.create_task(self._keep_present())

    async def disconnect(self, code: int) -> None:
        self.heartbeat.cancel()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.visitor:
            await self.channel_layer.group_discard(f"player-{self.visitor}", self.channel_name)
        if await database_sync_to_async(mark_present)(self.game_id, self.visitor, -1):
            await self.channel_layer.group_send(self.group, PRESENCE_CHANGED)

    async def game_changed(self, event: dict) -> None:
        parts = event.get("parts", ["game"])
        html = await database_sync_to_async(render_game)(
            self.game_id, self.visitor, self.page, parts
        )
        if html:
            await self.send(text_data=html)

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
            await database_sync_to_async(mark_present)(self.game_id, self.visitor, 0)
