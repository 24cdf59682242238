"""A tournament's open page: it forwards the redraws rendered once per change
(``tournaments.live``) and sends its player to their game when they are paired.

Only moves messages, as lila-ws does: the page's own parts (its buttons, its player's line) are
rendered here only when the page connects and they were drawn for another status or state of
its player, and when either changes (it starts or ends; the player's game, pause or leaving).
While it is open its player counts as online, as on the lobby's pages
(``lobby.consumers.PresenceConsumer``).
"""

from __future__ import annotations

import asyncio
import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import translation

from core.socket_messages import Close, Navigate, TournamentChanged
from lobby.consumers import PresenceConsumer, fresh
from tournaments import live, presenters
from tournaments.events import tournament_group
from tournaments.models import Tournament

# The parts each page renders for its own visitor.
OWN_PARTS = ("controls", "you")


def _render_own(tournament: Tournament, visitor: str | None, page: dict) -> str:
    context = presenters.viewer_context(tournament, visitor) | {"oob": True} | fresh(page)
    return "".join(
        render_to_string(f"tournaments/tournament.html#{part}", context) for part in OWN_PARTS
    )


def render_own(tournament_id: str, visitor: str | None, page: dict) -> tuple[str, str] | None:
    """The page's own parts, as out-of-band swaps, and the tournament's status (None: gone)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    with translation.override(page["language"]):
        return _render_own(tournament, visitor, page), tournament.status


def read_shared(tournament_id: str, language: str) -> tuple[str, str, dict] | None:
    """The shared parts in ``language`` as they are now, the tournament's status and each
    player's state (None: no such tournament)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    context = presenters.shared_context(tournament)
    html = live.render_shared(context, language)
    return html, tournament.status, context["player_states"]


# Catch-ups being read by this process's pages, by (tournament, language): when its time the
# read started, and the read. Pages that connect together (a server restarted under 200 open
# pages) share one; a page takes only one started after it joined the tournament's group, so
# that any change it could have missed is either in it or pushed to it (nothing here is needed
# for correctness: a page without one starts its own).
_catch_ups: dict[tuple[str, str], tuple[float, asyncio.Future]] = {}
CATCH_UPS_KEPT = 64


async def catch_up(tournament_id: str, language: str, joined: float):
    """``read_shared`` for a page that joined the tournament's group at ``joined``."""
    key = (tournament_id, language)
    found = _catch_ups.get(key)
    if found is None or found[0] < joined:
        read = database_sync_to_async(read_shared)
        found = _catch_ups[key] = (time.monotonic(), asyncio.ensure_future(read(*key)))
        while len(_catch_ups) > CATCH_UPS_KEPT:
            del _catch_ups[next(iter(_catch_ups))]
    try:
        return await found[1]
    except Exception:
        if _catch_ups.get(key) is found:
            del _catch_ups[key]  # the next page tries again rather than reuse a failure
        raise


def render_your_game(url: str, language: str) -> str:
    """The page's "your game starts now", which static/js/tournament.js signals and follows."""
    with translation.override(language):
        return render_to_string("tournaments/tournament.html#your_game", {"url": url, "oob": True})


class TournamentConsumer(PresenceConsumer):
    """One open tournament page."""

    status = ""  # the tournament's status its own parts were drawn for
    state = ""  # and its player's state (``presenters.player_state``; "": not in it)

    async def connect(self) -> None:
        self.tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.groups_of_page = (tournament_group(self.tournament_id),)
        self.path = f"/tournament/{self.tournament_id}/"
        exists = Tournament.objects.filter(pk=self.tournament_id).aexists
        if not await exists():
            # Opened, then closed with a code the page does not reconnect on (as a table's).
            await self.accept()
            await self.close(code=Close.GONE)
            return
        await super().connect()
        if self.arrived:
            await self.catch_up(joined=time.monotonic())  # in the group since before now

    async def catch_up(self, joined: float) -> None:
        """Send what the page may have missed: the shared parts, and its own parts if the
        status or its player's state changed since they were drawn (the page's address says
        for what: ``drawn_for``; else they are left alone: a choice being made there stays)."""
        shared = await catch_up(self.tournament_id, self.page["language"], joined)
        if shared is None:
            return
        html, status, states = shared
        state = states.get(self.visitor or "", "")
        query = parse_qs(self.scope.get("query_string", b"").decode())
        if (status, state) != (query.get("status", [""])[0], query.get("state", [""])[0]):
            own = await database_sync_to_async(render_own)(
                self.tournament_id, self.visitor, self.page
            )
            html += own[0] if own else ""
        self.status, self.state = status, state
        await self.send(text_data=html)

    async def tournament_changed(self, event: dict) -> None:
        message = TournamentChanged.read(event)
        html = message.views.get(self.page["language"], "")
        state = message.players.get(self.visitor or "", "")
        # It started or ended, or this page's player's game, pause or leaving changed: its own
        # parts (buttons, "your game is on") change; every other page's stay as they are.
        if message.status != self.status or state != self.state:
            render = database_sync_to_async(render_own)
            own = await render(self.tournament_id, self.visitor, self.page)
            if own is not None:
                html += own[0]
                self.status, self.state = message.status, state
        if html:
            await self.send(text_data=html)

    async def navigate(self, event: dict) -> None:
        """This page's player was paired: their game starts now (every other page of theirs,
        the lobby's too, goes there)."""
        url = Navigate.read(event).url
        await self.send(text_data=render_your_game(url, self.page["language"]))
