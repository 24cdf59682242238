"""Messages to open lobby, table and game pages, sent once the change is committed."""

from __future__ import annotations

from core.socket_messages import LobbyChanged, Navigate, SignedOut, TableChanged
from games import events
from lobby import hooks

LOBBY_GROUP = "lobby"


def player_group(visitor: str) -> str:
    """The group of one browser's open lobby and table pages."""
    return f"player-{visitor}"


def table_group(code: str) -> str:
    """The group of a private table's open pages."""
    return f"table-{code}"


def _send(group: str, message: LobbyChanged | TableChanged | Navigate | SignedOut) -> None:
    events.announce(group, message.to_message())


def lobby_changed() -> None:
    """Who is online changed: every lobby page redraws its list."""
    _send(LOBBY_GROUP, LobbyChanged())


def players_changed(*visitors: str) -> None:
    """These players' challenges changed: their lobby pages redraw them."""
    for visitor in visitors:
        _send(player_group(visitor), LobbyChanged())


def table_changed(code: str) -> None:
    """A table's seats changed: its pages redraw them (and any other page that lists it:
    ``hooks.table_changed``)."""
    _send(table_group(code), TableChanged())
    hooks.table_changed.send(sender=None, code=code)


def navigate(visitors: list[str], game, table: str | None = None, rematch_of=None) -> None:
    """Send these players' open lobby/table pages (and, for a rematch, the old game's) to a game."""
    message = Navigate(url=f"/game/{game.id}/", rematch_of=rematch_of)
    for visitor in visitors:
        _send(player_group(visitor), message)
    if table:
        _send(table_group(table), message)


def signed_out(visitor: str, kept: str) -> None:
    """This profile signed out its other browsers, all but the one ``kept`` names
    (``core.identity.browser_mark``): every open page of theirs (lobby, table, game) closes its
    socket at once, which read the profile when it opened and would go on acting as it, and loads
    again as nobody's."""
    _send(player_group(visitor), SignedOut(kept=kept))


def game_changed(game_id: str) -> None:
    """A finished game's status redraws (a rematch was offered); the log did not change."""
    from games.services import notify_game

    notify_game(game_id, events.Change(rematch=True))
