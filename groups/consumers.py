"""A group's live page: its members (and who of them is online) and its open tables redraw as
they change. Only forwards: what changed is announced by the services (``groups.notify``) and by
the lobby (who came online or went: ``lobby.notify.LOBBY_GROUP``)."""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from core.socket_messages import Close
from groups import notify, presenters
from groups.models import Group
from lobby.access import player_of
from lobby.consumers import PresenceConsumer, fresh
from lobby.notify import LOBBY_GROUP

LIVE_PARTS = ("members", "tables")


def render_group(group_id: str, visitor: str | None, page: dict) -> str:
    """The group page's live parts for this member, as out-of-band swaps; for a browser that is
    no longer a member (removed, left, the group ended), a move to My groups."""
    with translation.override(page["language"]):
        group = Group.objects.filter(pk=group_id).first()
        me = player_of(visitor)
        if group is None or not presenters.member_of(group, me):
            return render_to_string("groups/_gone.html", {"url": reverse("groups:mine")})
        context = presenters.live_context(group, me) | {"oob": True} | fresh(page)
        return "".join(
            render_to_string(f"groups/group.html#{part}", context) for part in LIVE_PARTS
        )


def is_member(scope: dict, group_id: str) -> bool:
    """Whether this socket's browser is a member of the group."""
    session = scope.get("session")
    visitor = session.get("visitor") if session is not None else None
    group = Group.objects.filter(pk=group_id).first()
    return group is not None and presenters.member_of(group, player_of(visitor))


class GroupConsumer(PresenceConsumer):
    """A group's page: its member counts as online while it is open, as on the lobby's."""

    async def connect(self) -> None:
        self.group_id = self.scope["url_route"]["kwargs"]["group_id"]
        self.groups_of_page = (LOBBY_GROUP, notify.group_channel(self.group_id))
        self.path = reverse("groups:group", args=[self.group_id])
        if not await database_sync_to_async(is_member)(self.scope, self.group_id):
            await self.accept()  # closed with a code the page does not reconnect on
            await self.close(code=Close.GONE)
            return
        await super().connect()

    async def redraw(self) -> None:
        html = await database_sync_to_async(render_group)(self.group_id, self.visitor, self.page)
        await self.send(text_data=html)

    async def lobby_changed(self, event: dict) -> None:
        """Someone came online or went: the members redraw."""
        await self.redraw()

    async def group_changed(self, event: dict) -> None:
        await self.redraw()

    async def table_changed(self, event: dict) -> None:
        """Asked by the first catch-up (``PresenceConsumer.connect``): the parts redraw."""
        await self.redraw()
