"""A six-dice game's moves over its page's socket: the sixth die held, a seventh refused in
words and nothing logged, as a plain post would be."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from engine.rulesets import MAXI_YATZY_SAVED
from games import services
from games.models import Game
from tests.sockets import connect, drain, receive_containing

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TOKEN = "m" * 32  # the page's CSRF cookie


@database_sync_to_async
def maxi_game() -> Game:
    return services.start_game("ana", ["Ana"], mode=Game.Mode.SOLO, rules=MAXI_YATZY_SAVED)


@database_sync_to_async
def logged(game_id: str) -> list[tuple[str, dict]]:
    return list(Game.objects.get(pk=game_id).actions.values_list("kind", "payload"))


async def test_the_sixth_die_over_the_socket_and_a_seventh_refused():
    game = await maxi_game()
    page = await connect(f"/ws/game/{game.id}/", "ana", "csrftoken=" + TOKEN)
    await drain(page)
    move = {"csrfmiddlewaretoken": TOKEN}
    await page.send_json_to(move | {"move": "roll", "step": "0", "held": "000000"})
    assert "Die 6: " in await receive_containing(page, "Rolled")
    await page.send_json_to(move | {"move": "hold", "step": "1", "die": "5", "held": "1"})
    await receive_containing(page, "Holding")
    await page.send_json_to(move | {"move": "hold", "step": "1", "die": "6", "held": "1"})
    assert "There is no such die: choose one of the six." in await receive_containing(
        page, 'role="alert"'
    )
    await page.send_json_to(move | {"move": "roll", "step": "1", "held": "0000010"})
    assert "There is no such die: a game has five or six." in await receive_containing(
        page, 'role="alert"'
    )
    kinds = [kind for kind, _ in await logged(game.id)]
    assert kinds == ["roll", "hold"]
    await page.disconnect()
