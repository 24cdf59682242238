"""Every message of the live pages, each shape named once, as lila-ws names its own (``ipc``:
``ClientOut`` what a page sends, ``ClientIn`` what it is sent, ``LilaIn``/``LilaOut`` what the
servers tell each other): here what a game page sends over its socket (``MoveFrame``), what a
page is sent (HTML frames and close codes: ``ANSWER``, ``Close``), and the group messages that
services and consumers send each other through the channel layer for the open pages of a group
(``GameChanged``, ``Navigate``, ``LobbyChanged``, ``TableChanged``, ``GroupChanged``,
``PanelChanged``, ``SignedOut``, ``TournamentChanged``).

Incoming frames are parsed here (``MoveFrame.parse`` refuses a malformed one with its reason);
group messages are written with ``to_message`` (a dict of plain values: the channel layer
carries it between processes as msgpack) and read back with ``read``. The wire does not change
with the types: the browser's JavaScript (static/js/game.js) reads the same frames as before,
and tests/live/test_socket_messages.py checks each shape against what it reads. Shared by the game,
the lobby and the chat, so it lives in the core and imports no app.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ClassVar, Self

# --- What a page sends (lila-ws: ClientOut) ------------------------------------------------------

MAX_MOVE_BYTES = 2000  # a move's fields are a few dozen bytes; anything longer is refused


class MalformedFrame(ValueError):
    """A frame no page of this site sends; its reason says why (the socket is closed with
    ``Close.INVALID``)."""


@dataclass(frozen=True)
class MoveFrame:
    """A move a game page sends over its socket while it is open: the fields of its form (roll,
    hold, score) as JSON, plus ``"move"``, its kind (static/js/game.js)."""

    kind: str
    fields: dict[str, str]  # the form's fields that are text ("move" included), as posted

    @classmethod
    def parse(cls, text: str | None, kinds: Collection[str]) -> MoveFrame:
        """The move in a frame; ``MalformedFrame`` if it is not one of ``kinds`` sent as a page
        sends it. Fields whose values are not text are left out (a form posts only text)."""
        if not text or not text.strip():
            raise MalformedFrame("an empty frame")
        if len(text) > MAX_MOVE_BYTES:
            raise MalformedFrame(f"a frame of more than {MAX_MOVE_BYTES} characters")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: thousands of nested brackets
            raise MalformedFrame("a frame that is not JSON") from None
        if not isinstance(data, dict):
            raise MalformedFrame("a frame that is not a JSON object")
        kind = data.get("move")
        if not isinstance(kind, str) or kind not in kinds:
            raise MalformedFrame(f"no move a page sends: {kind!r}")
        return cls(kind, {key: value for key, value in data.items() if isinstance(value, str)})


# --- What a page is sent (lila-ws: ClientIn) -----------------------------------------------------
# HTML: fragments marked as out-of-band swaps, which htmx's ws extension or game.js swaps in by id.

# Marks the answer to a page's own move: the page applies it even when it shows no newer version
# than the page has (a refusal), unlike a push (static/js/game.js reads it).
ANSWER = "<!-- answer -->"


def answer(html: str) -> str:
    """The frame that answers a page's own move (or tells it "too fast": ``data-too-fast``)."""
    return ANSWER + html


class Close(IntEnum):
    """Why a socket is closed. game.js and htmx's ws extension try again on 1011 (among
    ``RETRIED_CLOSES``), never on the application's own codes (4000-4999)."""

    INVALID = 1007  # RFC 6455: a frame that is not a move (``MalformedFrame``)
    FAILED = 1011  # a move failed (the database, a bug): the page reconnects, is sent the game
    SIGNED_OUT = 4401  # the browser was signed out from another browser of its profile
    PRIVATE = 4403  # not yours to see: an unshared solo game, a daily attempt of today
    GONE = 4404  # no such game, or no such table


# --- What goes through the channel layer to a group's open pages (lila-ws: LilaIn/LilaOut) -------


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


class GroupMessage:
    """A message for the consumers of a group's open pages: ``type`` names the handler Channels
    calls (``game.changed`` -> ``game_changed``)."""

    type: ClassVar[str]

    def to_message(self) -> dict:
        """The message as the channel layer carries it; unset (None) fields are left out."""
        fields = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
        return {"type": self.type} | {k: v for k, v in fields.items() if v is not None}

    @classmethod
    def read(cls, message: Mapping) -> Self:
        """The message a handler was given (fields it does not know are ignored)."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{key: value for key, value in message.items() if key in names})


@dataclass(frozen=True)
class GameChanged(GroupMessage):
    """A game's pages redraw ``parts`` (after a move, a presence change, a rematch offer).

    The process that applied a move renders the redraws of the pages it can (``views``, by whose
    view: ``games.live.redraws.view_key``) and sends them in messages of the same ``event``;
    a page finds its own there, or renders it (``games.live.redraws``).
    """

    type: ClassVar[str] = "game.changed"
    parts: list[str] | tuple[str, ...] = ("game",)  # what the mover's pages redraw
    onlookers: list[str] | tuple[str, ...] | None = None  # everyone else's (None: ``parts``)
    event: str | None = None  # the move's id, shared by its messages (None: a page's catch-up)
    tab: str | None = None  # the page that made the move: its answer already shows it
    mover: str | None = None
    seated: list[str] | tuple[str, ...] | None = None  # the seats' visitors (None: unknown)
    csrf: str | None = None  # the stand-in for the token in ``views`` (``live.csrf.CSRF_SLOT``)
    version: int | None = None  # the log position the parts were chosen for
    views: dict[str, str | None] = field(default_factory=dict)  # view key -> rendered redraw
    pending: list[str] | tuple[str, ...] = ()  # views that follow in a later message

    def to_message(self) -> dict:
        message = super().to_message()
        for empty in ("views", "pending"):
            if not message[empty]:
                del message[empty]
        return message

    @property
    def onlookers_parts(self) -> list[str] | tuple[str, ...]:
        return self.parts if self.onlookers is None else self.onlookers


@dataclass(frozen=True)
class Navigate(GroupMessage):
    """Open pages go to ``url``: a game that started (lobby and table pages), a rematch (the
    old game's pages, which follow only ``rematch_of`` their own game)."""

    type: ClassVar[str] = "navigate"
    url: str
    rematch_of: str | None = None


@dataclass(frozen=True)
class LobbyChanged(GroupMessage):
    """Lobby pages redraw who is online and their challenges."""

    type: ClassVar[str] = "lobby.changed"


@dataclass(frozen=True)
class TableChanged(GroupMessage):
    """A table's pages redraw its seats."""

    type: ClassVar[str] = "table.changed"


@dataclass(frozen=True)
class GroupChanged(GroupMessage):
    """A group's pages redraw its members and its open tables (someone joined, left or was
    removed; a table for the group opened, filled or started)."""

    type: ClassVar[str] = "group.changed"


@dataclass(frozen=True)
class PanelChanged(GroupMessage):
    """An app's panel on a page redraws (``core.panels``): the chat, when a line was said at a
    game or a table (each page renders the log as its visitor reads it; ``sender`` says who)."""

    type: ClassVar[str] = "panel.changed"
    panel: str = ""
    sender: str = ""


@dataclass(frozen=True)
class SignedOut(GroupMessage):
    """A profile signed out its other browsers: every page but those of ``kept`` (a browser's
    mark, ``core.identity.browser_mark``) closes its socket and loads again as nobody's."""

    type: ClassVar[str] = "signed.out"
    kept: str = ""


@dataclass(frozen=True)
class TournamentChanged(GroupMessage):
    """A tournament's pages redraw its shared parts (standings, games, status): rendered once per
    change by the process that saw it, in each language (``views``: language -> HTML).

    ``drawn`` orders the redraws (the time the standings were read): a page drops one older than
    what it shows, as two processes' redraws may arrive out of order. ``status`` is the
    tournament's status then, and ``players`` each player's state (by visitor: their game, paused,
    left): a page whose own parts were drawn for another status or state of its player redraws
    them, and only that page.
    """

    type: ClassVar[str] = "tournament.changed"
    status: str = ""
    drawn: float = 0.0
    views: dict[str, str] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
