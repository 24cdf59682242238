"""A tournament's open page: it forwards the redraws rendered once per change
(``tournaments.live``) and sends its player to their game when they are paired.

Only moves messages, as lila-ws does: the page's own parts (its buttons, its player's line) are
rendered here only when the page connects and when the tournament's status changes (it starts,
ends), which changes what the buttons offer. While it is open its player counts as online, as on
the lobby's pages (``lobby.consumers.PresenceConsumer``).
"""

from __future__ import annotations

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


def render_catch_up(
    tournament_id: str, visitor: str | None, page: dict, drawn_for: tuple[str, str]
) -> tuple[str, str, str]:
    """What a page that just (re)connected may have missed: the shared parts in its language,
    and its own parts if the status or its player's state changed since they were drawn
    (``drawn_for``); and the status and the state its own parts now show ("": gone)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return "", "", ""
    context = presenters.shared_context(tournament)
    html = live.render_shared(context, page["language"])
    now = (tournament.status, context["player_states"].get(visitor or "", ""))
    if now != drawn_for:  # else left alone: a choice being made in its form stays
        with translation.override(page["language"]):
            html += _render_own(tournament, visitor, page)
    return html, *now


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
            # What the page's own parts were drawn for (its address says: ``drawn_for``).
            query = parse_qs(self.scope.get("query_string", b"").decode())
            drawn_for = (query.get("status", [""])[0], query.get("state", [""])[0])
            render = database_sync_to_async(render_catch_up)
            html, self.status, self.state = await render(
                self.tournament_id, self.visitor, self.page, drawn_for
            )
            if html:
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
