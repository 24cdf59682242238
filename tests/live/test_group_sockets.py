"""A group's page over its socket (Channels' communicator against the real routing): members
coming online, joining and leaving, a table for the group opening and filling, a member removed
sent away; a browser that is not a member gets nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from core.socket_messages import (
    Close,
    GroupChanged,
    LobbyChanged,
    Navigate,
    SignedOut,
    TableChanged,
)
from groups import services
from groups.consumers import GroupConsumer
from lobby import tables
from lobby.models import Player
from tests.sockets import connect, drain, receive_containing

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def friends() -> str:
    """Ana's group with Bo in it; Cy has a profile and is not in it. Nobody is online."""
    for visitor, name in (("ana", "Ana"), ("bo", "Bo"), ("cy", "Cy")):
        Player.objects.create(visitor=visitor, name=name, name_key=name.lower())
    group = services.create_group("ana", "Friday dice")
    services.join_group("bo", group.invite_code)
    return group.pk


def in_sync(call, *args):
    return database_sync_to_async(call)(*args)


async def test_members_coming_online_joining_and_leaving_redraw_the_page():
    group_id = await friends()
    ana = await connect(f"/ws/group/{group_id}/", "ana")
    caught_up = await receive_containing(ana, 'id="members"')
    assert "1 online now" in caught_up  # Ana herself: her page keeps her online
    await drain(ana)
    bo = await connect(f"/ws/group/{group_id}/", "bo")  # Bo opens the group's page
    update = await receive_containing(ana, "2 online now")
    assert 'hx-swap-oob="innerHTML"' in update and 'class="dot online"' in update
    code = (await in_sync(lambda: services.Group.objects.get(pk=group_id))).invite_code
    await in_sync(services.join_group, "cy", code)
    assert ">Cy</a>" in await receive_containing(ana, "3 members")
    await in_sync(services.leave_group, "cy", group_id)
    assert ">Cy</a>" not in await receive_containing(ana, "2 members, 2 online now")
    await bo.disconnect()
    await receive_containing(ana, "2 members, 1 online now")
    await ana.disconnect()


async def test_a_table_for_the_group_is_shown_as_it_opens_fills_and_starts():
    group_id = await friends()
    bo = await connect(f"/ws/group/{group_id}/", "bo")
    await receive_containing(bo, 'id="group-tables"')
    await drain(bo)
    table = await in_sync(services.open_table, "ana", group_id)
    opened = await receive_containing(bo, "Ana's table (1 of 6)")
    assert f'action="/t/{table.code}/join/"' in opened
    await in_sync(tables.join_table, "bo", table.code)
    seated = await receive_containing(bo, "Ana's table (2 of 6)")
    assert f'href="/t/{table.code}/"' in seated  # Bo's own table now: open it
    await in_sync(tables.start_table, "ana", table.code)
    started = await receive_containing(bo, 'href="/game/')  # Bo's page goes to the game
    assert "data-navigate" in started
    await bo.disconnect()


async def test_a_members_lobby_is_told_of_a_table_for_the_group():
    group_id = await friends()
    bo = await connect("/ws/lobby/", "bo")
    await drain(bo)
    table = await in_sync(services.open_table, "ana", group_id)
    told = await receive_containing(bo, "Ana opened a table for Friday dice (1 of 6)")
    assert 'id="challenges"' in told and f'href="/t/{table.code}/"' in told
    await in_sync(tables.join_table, "bo", table.code)
    seated = await receive_containing(bo, 'id="challenges"')
    assert "opened a table" not in seated
    await bo.disconnect()


async def test_a_removed_member_is_sent_to_my_groups_and_outsiders_get_nothing():
    group_id = await friends()
    outsider = await connect(f"/ws/group/{group_id}/", "cy")
    assert await outsider.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": Close.GONE,
    }
    bo = await connect(f"/ws/group/{group_id}/", "bo")
    await receive_containing(bo, 'id="members"')
    bo_pk = await in_sync(lambda: Player.objects.get(visitor="bo").pk)
    await in_sync(services.remove_member, "ana", group_id, bo_pk)
    gone = await receive_containing(bo, "data-navigate")
    assert 'href="/groups/"' in gone and 'id="members"' not in gone
    await bo.disconnect()


async def test_the_group_page_takes_each_message_sent_to_it():
    for message in (GroupChanged, LobbyChanged, TableChanged, Navigate, SignedOut):
        handler = message.type.replace(".", "_")
        assert callable(getattr(GroupConsumer, handler, None)), handler
