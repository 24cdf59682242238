"""The channel layer of the embedded default: Channels' in-memory layer, made cheaper per message.

Channels' ``InMemoryChannelLayer`` scans every channel and group for expired entries on each
send and receive, which grows with the number of open pages (5% of the server's CPU with 64
players), and hands each group message to a task per page. Here the scan runs at most once a
second, and a group message is put on each page's queue at once: what the queues hold, and when
entries expire, is as in Channels.

Why it stays: ``benchmarks/bench_channel_layer.py`` (a group message to both pages of a game, all
pages waiting in ``receive()``) took 249 us of CPU per message with Channels' layer against 53
us with this one at 64 pages (4.7x), and 534 against 53 us at 256 pages (10x): Channels' cost
grows with the open pages, this one's does not. ``_clean_expired`` is a private method of
Channels' layer, as are its ``channels`` and ``groups``: tests/live/test_layers.py fails if they
change.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from copy import deepcopy

from channels.layers import InMemoryChannelLayer

CLEAN_EVERY = 1.0  # seconds between scans for expired messages and group memberships


class QuickInMemoryChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer with its expiry scan spaced out and group sends queued at once."""

    cleaned = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self.cleaned >= CLEAN_EVERY:
            self.cleaned = now
            super()._clean_expired()

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            # A page's consumer between two receives has no queue: the next receive finds this.
            queue = self.channels.get(channel)
            if queue is None:
                queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
            with contextlib.suppress(asyncio.QueueFull):  # as Channels: a full page is skipped
                queue.put_nowait((time.time() + self.expiry, deepcopy(message)))
