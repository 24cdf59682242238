"""The redraws of a game's open pages: rendered once by the process that applied the move (with
the same partials as the views), sent in group messages that consumers only forward; and the
redraw a page renders itself when a message has none for it.

One group per game, ``game-<id>``. Right after a move commits, the process that applied it
renders the redraw of each other seat with an open page (only a seat whose turn it is gets
controls), then the watchers' one. A page that finds no redraw of its own in the messages
(another language, presence changes) renders it, once per process for all the pages that see
the same (``render_once``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections.abc import Iterable, Iterator

from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.utils import translation

from core.socket_messages import GameChanged
from games.live.csrf import CSRF_SLOT
from games.live.pages import group_name
from games.live.sending import broadcast, kept
from games.models import Action, Game
from games.presenters.page import game_context, render_parts
from games.presenters.parts import redrawn

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

    ``onlookers``: the parts that change on everyone else's pages than the mover's, or without
    a mover on the pages that cannot play now (by default ``parts``).
    With ``game`` (as just committed), the redraws of the other seats that have a page open, then
    the watchers' (if the game has any), are rendered here in the active language, and each is
    sent as soon as it is ready: their consumers only forward them. Pages in another language and
    the mover's own other pages render their own, once per process.
    """
    language = translation.get_language() or settings.LANGUAGE_CODE
    messages = redraws(game_id, parts, onlookers, game, mover, tab, language)
    if kept.sends is not None:
        # A move applied over a socket: its consumer has these rendered and sends them one by
        # one, letting each go out before the next is rendered (``live.moves.send_and_answer``).
        kept.sends.append(messages)
        return
    for group, message in messages:
        broadcast(group, message)


def on_game_changed(sender, *, game_id, change, game, mover, tab, **kwargs) -> None:
    """``events.game_changed``: push the redraws of the change to the game's open pages."""
    parts, onlookers = redrawn(change, game)
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
    message = GameChanged(
        parts=list(parts),
        onlookers=list(parts if onlookers is None else onlookers),
        event=secrets.token_hex(8),
        tab=tab,
        mover=mover,
    )
    if game is None:
        yield group_name(game_id), message.to_message()
        return
    seats = game.ordered_seats()
    message = dataclasses.replace(
        message,
        seated=sorted({s.visitor for s in seats if s.visitor}),
        csrf=CSRF_SLOT,
        version=game.log_length,
    )
    open_pages = list(dict.fromkeys(s.visitor for s in seats if s.visitor and s.connections > 0))
    here = [visitor for visitor in open_pages if visitor != mover]
    if game.watched:
        here.append("")  # the watchers' redraw: they all see the same
    mover_pages = next((s.connections for s in seats if s.visitor == mover), 0)
    other_tabs = mover_pages > (1 if tab else 0)
    if other_tabs and isinstance(get_channel_layer(), InMemoryChannelLayer):
        # One process: the mover's consumer would render on the thread that is still answering
        # the mover, delaying that answer; render it here instead, once the others have theirs.
        # (Through Redis, the socket process renders it while this one answers.)
        here.append(mover)
    if not here:
        yield group_name(game_id), message.to_message()
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
        views = dataclasses.replace(message, views={keys[done - 1]: html}, pending=keys[done:])
        yield group_name(game_id), views.to_message()


def read_ahead(game: Game, mover: str | None) -> None:
    """Read what this move's redraws and answer will need from the database, here, with the move
    (``games.live.moves.apply_move``), in a query or two rather than one per rendering.

    While a game is played, a redraw's one query is its seat's latest actions for the message line
    (``games.recent`` keeps them, but a page whose last redraw this process did not render reads
    them again: on the stack, with a game's two players on different socket processes, nearly
    every move's). On the loop that query held up every socket of the process for a round trip
    to PostgreSQL. (The move that ends a game also reads its rematch and rating changes while
    rendering: once a game, left there.)
    """
    for seat in game.ordered_seats():
        if seat.visitor and (seat.visitor == mover or seat.connections > 0):
            Action.objects.recent(game, seat)
    if game.watched:
        Action.objects.recent(game, None)


# What wraps the card's rows pushed on their own (templates/games/play.html): only a page whose
# game.js swaps them (``rows=1`` on its socket's address) is sent them.
ROWS = "<template data-rows>"


def view_key(visitor: str, language: str) -> str:
    """Which pages see the same redraw: a seat's in a language, or a watcher's (visitor "")."""
    return f"{visitor}|{language}"


def render_context(game: Game, visitor: str | None, page: dict, message: GameChanged) -> str:
    """The parts the message names as this visitor sees the game, as out-of-band swaps.

    The pages of the visitor who moved redraw the message's ``parts``; everyone else's (or,
    without a mover, the pages that cannot play) its ``onlookers``: what the move changed there.
    A page that renders its own later, once the game has moved on (``version``), is sent the
    whole game area: it drops the redraws of the moves in between, which are not newer than
    what it then shows (static/js/game.js).
    """
    context = game_context(game, visitor) | {"live": True} | page
    parts = message.parts
    mover = message.mover
    if (visitor != mover) if mover else not context["can_play"]:
        parts = message.onlookers_parts
    if message.version is not None and message.version != game.log_length:
        parts = ["game"]
    if not context["winbar_styles"]:  # a page that cannot show the chances is sent no empty bar
        parts = [part for part in parts if part != "winbar"]
    return render_parts(context, parts)


def render_game(game_id: str, visitor: str | None, page: dict, message: GameChanged) -> str:
    """The parts a message names as this visitor should see them now, as out-of-band swaps.

    ``page`` gives the language and the token that forms carry.
    """
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        return ""
    with translation.override(page["language"]):
        return render_context(game, visitor, page, message)


# Redraws rendered by this process's consumers, by (event, view), shared by the pages that see the
# same; only the latest few are kept (a message reaches every page of a process at once).
_renders: dict[tuple[str, str], asyncio.Future] = {}
RENDERS_KEPT = 64


async def render_once(game_id: str, event: GameChanged, key: str, page: dict) -> str:
    """A page's own redraw of a message (``key``: whose view), rendered once for all the pages
    of this process that see the same; with the forms' token left as ``CSRF_SLOT``."""
    visitor = key.partition("|")[0] or None
    page = page | {"csrf_token": CSRF_SLOT}
    render = database_sync_to_async(render_game)
    if event.event is None:  # the catch-up of a page that just connected
        return await render(game_id, visitor, page, event)
    shared = (event.event, key)
    task = _renders.get(shared)
    if task is None:
        task = _renders[shared] = asyncio.ensure_future(render(game_id, visitor, page, event))
        while len(_renders) > RENDERS_KEPT:
            del _renders[next(iter(_renders))]
    try:
        return await task
    except Exception:
        _renders.pop(shared, None)  # the next page tries again rather than reuse a failure
        raise
