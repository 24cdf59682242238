"""Messages to a group's open pages, sent once the change is committed (as ``lobby.notify``)."""

from __future__ import annotations

from core.socket_messages import GroupChanged
from games import events


def group_channel(group_id: str) -> str:
    """The channel-layer group of a group's open pages."""
    return f"group-{group_id}"


def group_changed(group_id: str) -> None:
    """Its members or its open tables changed, or it ended: a group's pages redraw them (or,
    no longer a member's, go to My groups: ``groups.consumers.render_group``)."""
    events.announce(group_channel(group_id), GroupChanged().to_message())
