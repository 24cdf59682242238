"""With REDIS_URL set, live updates go through a real Redis, so several processes share them."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import services
from tests.servers import Redis
from tests.sockets import connect, drain, new_online_game, receive_containing

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def redis_layer(settings):
    redis = Redis()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis.url]},
        }
    }
    yield redis
    redis.stop()


async def test_a_move_reaches_the_other_seat_through_redis(redis_layer):
    assert type(get_channel_layer()).__name__ == "RedisChannelLayer"
    game = await new_online_game()
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    await drain(bo)
    await database_sync_to_async(services.perform)(
        game.id, "ana", "roll", {"held": [False] * 5}, 0, roll=lambda n: [2, 3, 4, 5, 6]
    )
    update = await receive_containing(bo, "Ana rolled")
    assert "Ana rolled 2 3 4 5 6." in update
    await bo.disconnect()
