"""What every live page's consumer shares (games, lobby, tables): its group, what rendering for it
needs, its heartbeat, and a leaving that runs once however the connection ends."""

from __future__ import annotations

import asyncio
import secrets

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from core.identity import browser_mark, still_signed_in
from core.socket_messages import GameChanged
from games import presence
from games.live.sockets import language_of

HEARTBEAT_SECONDS = 20
# A page opening or closing changes only the status (who is here, the away countdown): redrawing
# more would wipe a box the player to move has just selected.
PRESENCE_PARTS = ["status"]


def group_name(game_id: str) -> str:
    """The Channels group of a game."""
    return f"game-{game_id}"


def page_of(scope: dict) -> dict:
    """What rendering for this socket needs: its language and its CSRF token.

    Forms pushed over the socket must post like forms of the page: Django accepts the CSRF
    cookie's own value as the token (what JavaScript clients send as X-CSRFToken).
    """
    return {
        "language": language_of(scope),
        "csrf_token": scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, ""),
    }


def browser_of(scope: dict) -> str:
    """This socket's browser as a signing out names the one it keeps (a digest of its session)."""
    session = scope.get("session")
    return browser_mark(session.session_key if session is not None else None)


async def signed_in_still(session) -> bool:
    """Whether the session a socket read its visitor from still exists: checked once the socket
    has joined its player's group, so that a signing out either reaches it or is seen here."""
    return await database_sync_to_async(still_signed_in)(session.session_key)


def navigate_html(url: str, language: str) -> str:
    """What sends an open page on to another address (a rematch, a table's game that started)."""
    with translation.override(language):
        return render_to_string("games/_navigate.html", {"url": url})


class LeavesOnce:
    """A page's consumer whose ``leave()`` runs once, however its connection ends.

    Channels calls ``disconnect()`` when the browser's close message is handled; but a send to a
    socket the browser has just closed raises out of the consumer (uvicorn's ClientDisconnected),
    and then nothing calls it: the page would count as open for good, its heartbeat still going.
    """

    arrived = False  # connect() got as far as counting the page
    left = False

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.leave()

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def leave(self) -> None:
        if self.arrived and not self.left:
            self.left = True
            await self.departed()

    async def departed(self) -> None:
        """Stop the heartbeat, leave the groups, stop counting the page."""

    async def forget_previous_run(self) -> None:
        """Before this server counts its first page: forget the pages a previous run of it left
        counted (it was killed), and tell those games' pages who is really here now."""
        self.process = presence.process_name(self.scope)
        forgetting = _forgetting.get(self.process)
        if forgetting is None:
            forget = database_sync_to_async(presence.forget_process)
            forgetting = _forgetting[self.process] = asyncio.ensure_future(forget(self.process))
            try:
                changed = await forgetting
            except Exception:
                del _forgetting[self.process]  # the next page tries again
                raise
            for game_id in changed:
                await self.channel_layer.group_send(group_name(game_id), presence_message())
        elif not forgetting.done():
            await forgetting


# Each socket server forgets what a previous run of it left behind once, before its first page.
_forgetting: dict[str, asyncio.Future] = {}


def presence_message() -> dict:
    """The group message that redraws who is here on a game's pages."""
    return GameChanged(parts=PRESENCE_PARTS, event=secrets.token_hex(8)).to_message()
