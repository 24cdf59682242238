"""Play now's waiting page over its socket: it keeps its player here (closing it does not),
the second press sends it to the game, and a socket that opens after the pairing (the page
loaded just before it) is sent there at once."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from lobby import playnow, services
from lobby.models import Player
from tests.sockets import connect, drain

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GAME_LINK = re.compile(r'href="(/game/[\w-]+/)" data-navigate')


@database_sync_to_async
def pressed(visitor: str, name: str) -> Game | None:
    services.go_online(visitor, name)
    return playnow.press(visitor)


async def navigated(page) -> str:
    """The link of the push that sends this page to a game, waited for up to 10 s."""
    while True:
        message = await page.receive_from(timeout=10)
        if "data-navigate" in message:
            return GAME_LINK.search(message)[1]


async def test_the_second_press_sends_the_waiting_page_to_the_game():
    assert await pressed("ana", "Ana") is None
    ana = await connect("/ws/play-now/", "ana")
    await drain(ana)
    game = await pressed("bo", "Bo")
    assert await navigated(ana) == f"/game/{game.id}/"
    await ana.disconnect()


async def test_a_socket_opened_after_the_pairing_goes_to_the_game():
    await pressed("ana", "Ana")
    game = await pressed("bo", "Bo")  # before Ana's waiting page's socket opened
    ana = await connect("/ws/play-now/", "ana")
    assert await navigated(ana) == f"/game/{game.id}/"
    await ana.disconnect()


async def test_closing_the_waiting_page_takes_its_player_offline():
    await pressed("ana", "Ana")
    ana = await connect("/ws/play-now/", "ana")
    await drain(ana)
    await ana.disconnect()
    assert await pressed("bo", "Bo") is None  # not paired with Ana, who closed her page
    online = await database_sync_to_async(list)(Player.objects.online().values_list("visitor"))
    assert online == [("bo",)]
