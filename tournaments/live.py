"""A tournament's open pages, live: the shared parts (status, standings, games under way, the
results) rendered once per change and sent through the channel layer; consumers only forward.

The domain sends ``tournament_changed`` after each commit that changes a tournament (an entry, a
pairing, a game's result, a round, the end). Here the process that committed it reads the
tournament once, renders its shared parts in each of the site's languages (every page sees the
same: a player's own row is marked in the browser) and sends them in one ``TournamentChanged``
message to the tournament's group (``tournaments.events.tournament_group``).

A 200-player arena's storm of changes (games ending together, each one's result and pairings)
is coalesced per process: while a thread of this process draws a tournament, the changes that
come meanwhile only mark it to be drawn once more when that drawing ends, which reads all of them
(``_draw_coalesced``). Nothing there matters for correctness: each change is followed by a
drawing that read the database after it, in the process that committed it; another process
draws its own changes. Redraws from two processes may arrive out of order: each carries when it
was read (``drawn``), and a page keeps the newest (static/js/tournament.js).
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from core.socket_messages import TournamentChanged
from games.live.sending import broadcast
from tournaments import presenters
from tournaments.events import tournament_group
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

# The tournament page's parts every page sees alike, by the id each swaps (templates/
# tournaments/tournament.html).
SHARED_PARTS = ("status", "standings", "games", "results")


def render_shared(context: dict, language: str) -> str:
    """The shared parts as out-of-band swaps, in ``language``."""
    with translation.override(language):
        return "".join(
            render_to_string(f"tournaments/tournament.html#{part}", context | {"oob": True})
            for part in SHARED_PARTS
        )


def changed_message(tournament_id: str) -> dict | None:
    """The group message that redraws the tournament's pages, rendered in every language (None:
    no such tournament)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    context = presenters.shared_context(tournament)
    views = {code: render_shared(context, code) for code, _ in settings.LANGUAGES}
    drawn = float(context["drawn"])
    message = TournamentChanged(
        status=tournament.status, drawn=drawn, views=views, players=context["player_states"]
    )
    return message.to_message()


def push(tournament_id: str) -> None:
    """Read, render and send the tournament's redraw to its open pages."""
    message = changed_message(tournament_id)
    if message is not None:
        broadcast(tournament_group(tournament_id), message)


# Tournaments a thread of this process is drawing now -> whether a change came since it read.
_drawing: dict[str, bool] = {}
_drawing_lock = threading.Lock()


def _draw_coalesced(tournament_id: str) -> None:
    """Push the tournament's redraw, unless a thread of this process is drawing it now: then that
    thread draws it once more when it is done, for every change that came meanwhile."""
    with _drawing_lock:
        if tournament_id in _drawing:
            _drawing[tournament_id] = True
            return
        _drawing[tournament_id] = False
    try:
        while True:
            push(tournament_id)
            with _drawing_lock:  # decided and let go at once: a change now starts a drawing
                if not _drawing[tournament_id]:
                    del _drawing[tournament_id]
                    return
                _drawing[tournament_id] = False
    except BaseException:
        with _drawing_lock:
            _drawing.pop(tournament_id, None)
        raise


def on_tournament_changed(sender, *, tournament_id: str, **kwargs) -> None:
    """``tournament_changed``: redraw the tournament's open pages. Sent after the commit, in the
    request (or sweep) that made the change: a failure to draw is logged, never that request's."""
    try:
        _draw_coalesced(tournament_id)
    except Exception:  # the pages catch up when they reconnect or reload
        logger.exception("Could not redraw tournament %s's pages", tournament_id)
