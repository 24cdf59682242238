"""The embedded default's channel layer: Channels' in-memory layer with its clean-up spaced out."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from backends import channel_layers as layers
from backends.channel_layers import QuickInMemoryChannelLayer

pytestmark = pytest.mark.asyncio


async def test_the_site_uses_it_without_redis(settings):
    if settings.REDIS_URL:
        pytest.skip("REDIS_URL is set: the Redis layer is in use")
    assert isinstance(get_channel_layer(), QuickInMemoryChannelLayer)


async def test_a_group_message_reaches_a_page_between_two_receives():
    layer = QuickInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("game-x", channel)
    # The page is not waiting in receive() (it is busy with the previous message): no queue yet.
    assert channel not in layer.channels
    await layer.group_send("game-x", {"type": "game.changed", "parts": ["dice"]})
    await layer.group_send("game-x", {"type": "game.changed", "parts": ["card"]})
    first = await asyncio.wait_for(layer.receive(channel), 1)
    second = await asyncio.wait_for(layer.receive(channel), 1)
    assert [first["parts"], second["parts"]] == [["dice"], ["card"]]


async def test_each_page_gets_its_own_copy_of_a_message():
    layer = QuickInMemoryChannelLayer()
    channels = [await layer.new_channel() for _ in range(2)]
    for channel in channels:
        await layer.group_add("game-x", channel)
    await layer.group_send("game-x", {"type": "game.changed", "parts": ["dice"]})
    first = await layer.receive(channels[0])
    first["parts"].append("changed by one page")
    assert (await layer.receive(channels[1]))["parts"] == ["dice"]


async def test_expired_messages_are_cleaned_at_most_once_per_period(monkeypatch):
    layer = QuickInMemoryChannelLayer(expiry=-1)  # every message has expired when it is sent
    gone, kept = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("game-x", gone)
    await layer.group_send("game-x", {"type": "game.changed"})  # cleans first, then queues
    monkeypatch.setattr(layers, "CLEAN_EVERY", 3600)
    await layer.group_send("game-y", {"type": "game.changed"})  # within the period: no scan
    assert gone in layer.groups["game-x"]
    monkeypatch.setattr(layers, "CLEAN_EVERY", 0)
    await layer.group_add("game-x", kept)
    await layer.group_send("game-y", {"type": "game.changed"})
    # As in Channels: a page whose message expired unread is dropped from its groups.
    assert list(layer.groups["game-x"]) == [kept]
