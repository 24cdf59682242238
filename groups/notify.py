"""Messages to a group's open pages, sent once the change is committed (as ``lobby.notify``)."""

from __future__ import annotations

from core.socket_messages import GroupChanged
from games import events
from lobby import notify as lobby_notify


def group_channel(group_id: str) -> str:
    """The channel-layer group of a group's open pages."""
    return f"group-{group_id}"


def group_changed(group_id: str) -> None:
    """Its members or its open tables changed, or it ended: a group's pages redraw them (or,
    no longer a member's, go to My groups: ``groups.consumers.render_group``)."""
    events.announce(group_channel(group_id), GroupChanged().to_message())


def tables_changed(group_id: str, visitors: list[str]) -> None:
    """A table for the group opened, filled or started: the group's pages redraw it, and so do
    the members' lobbies, which list it among their challenges (``lobby.hooks.TABLES_FOR``)."""
    group_changed(group_id)
    lobby_notify.players_changed(*visitors)
