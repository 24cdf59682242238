"""Chat pushed live over the game's and the table's sockets (issue 19): each page gets the new
line as its own visitor reads it; a muter, or a reader with chat off, is sent nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from chat import services
from chat.models import Message
from lobby import services as lobby
from lobby.models import Player
from tests.sockets import caught_up, connect, drain, new_online_game, receive_containing

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def say(visitor: str, game_id: str, **line) -> None:
    services.say(visitor, services.place_of_game(game_id), **line)


@database_sync_to_async
def mute(visitor: str, game_id: str, other: str) -> None:
    number = str(Player.objects.get(visitor=other).pk)
    services.set_muted(visitor, services.place_of_game(game_id), number, True)


async def open_pages(game_id: str, *visitors: str, cookies: str = ""):
    pages = []
    for visitor in visitors:
        page = await connect(f"/ws/game/{game_id}/", visitor, cookies)
        await caught_up(page)
        pages.append(page)
    return pages


async def test_a_line_reaches_the_other_seat_and_a_watcher():
    game = await new_online_game()
    ana, bo, watcher = await open_pages(game.id, "ana", "bo", "watcher")
    await say("ana", game.id, text="hello <3")
    for page in (bo, watcher, ana):
        pushed = await receive_containing(page, 'id="chat-log"')
        assert "Ana:</span> hello &lt;3" in pushed
        assert 'hx-swap-oob="innerHTML"' in pushed
    for page in (ana, bo, watcher):
        await page.disconnect()


async def test_a_phrase_is_pushed_in_each_pages_language():
    game = await new_online_game()
    (bo,) = await open_pages(game.id, "bo")
    (watcher,) = await open_pages(game.id, "watcher", cookies="django_language=es")
    await say("ana", game.id, phrase="luck")
    assert "Ana:</span> Good luck!" in await receive_containing(bo, 'id="chat-log"')
    assert "Ana:</span> ¡Buena suerte!" in await receive_containing(watcher, 'id="chat-log"')
    await bo.disconnect()
    await watcher.disconnect()


async def test_a_muted_senders_lines_do_not_reach_the_muter():
    game = await new_online_game()
    await mute("bo", game.id, "ana")
    bo, watcher = await open_pages(game.id, "bo", "watcher")
    await say("ana", game.id, phrase="oops")
    assert "Ana:</span> Oops" in await receive_containing(watcher, 'id="chat-log"')
    assert not any("chat-log" in message for message in await drain(bo))
    await say("bo", game.id, phrase="thanks")  # the muter still gets the others' lines
    pushed = await receive_containing(bo, 'id="chat-log"')
    assert "Bo:</span> Thanks" in pushed and "Oops" not in pushed
    await bo.disconnect()
    await watcher.disconnect()


async def test_chat_off_gets_nothing():
    game = await new_online_game()
    await database_sync_to_async(services.set_off)("bo", True)
    bo, watcher = await open_pages(game.id, "bo", "watcher")
    await say("ana", game.id, phrase="gg")
    await receive_containing(watcher, 'id="chat-log"')
    assert not any("chat-log" in message for message in await drain(bo))
    await bo.disconnect()
    await watcher.disconnect()


async def test_a_flood_is_slowed_down_and_pushes_nothing_more():
    game = await new_online_game()
    (bo,) = await open_pages(game.id, "bo")
    for n in range(services.BURST):
        await say("ana", game.id, text=f"line {n}")
    with pytest.raises(services.SlowDown):
        await say("ana", game.id, text="one too many")
    pushed = [m for m in await drain(bo) if 'id="chat-log"' in m]
    await bo.receive_nothing(timeout=0.3)
    pushed += [m for m in await drain(bo) if 'id="chat-log"' in m]
    assert len(pushed) == services.BURST
    assert all("one too many" not in m for m in pushed)
    assert await database_sync_to_async(Message.objects.count)() == services.BURST
    await bo.disconnect()


@database_sync_to_async
def table_of_two() -> str:
    Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    Player.objects.create(visitor="bo", name="Bo", name_key="bo")
    code = lobby.create_table("ana").code
    lobby.join_table("bo", code)
    return code


async def test_a_line_at_a_table_reaches_its_other_player():
    code = await table_of_two()
    bo = await connect(f"/ws/table/{code}/", "bo")
    await drain(bo)
    place = await database_sync_to_async(services.place_of_table)(code)
    await database_sync_to_async(services.say)("ana", place, text="ready?")
    assert "Ana:</span> ready?" in await receive_containing(bo, 'id="chat-log"')
    await bo.disconnect()


async def test_a_page_that_reconnects_catches_up_on_what_was_said_meanwhile():
    game = await new_online_game()
    first = await connect(f"/ws/game/{game.id}/", "bo")
    messages = await caught_up(first)
    assert not any("chat-log" in message for message in messages)  # nothing said: nothing sent
    await first.disconnect()
    await say("ana", game.id, text="are you there?")  # while Bo's socket is away
    again = await connect(f"/ws/game/{game.id}/", "bo")
    assert "Ana:</span> are you there?" in await receive_containing(again, 'id="chat-log"')
    await again.disconnect()
