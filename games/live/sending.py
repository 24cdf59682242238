"""Sending to the open pages' groups: from synchronous code (views, services), and from a move
applied over a socket, whose sends are kept for its consumer to send from the event loop."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterator

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger(__name__)

SEND_TIMEOUT = 2  # seconds a request waits for the channel layer to take a message


class KeptSends(threading.local):
    """What a move applied on this thread sends (``threads.keeping_sends``), for its consumer."""

    sends: list[Iterator[tuple[str, dict]]] | None = None


kept = KeptSends()


def broadcast(group: str, message: dict) -> None:
    """Send a message to a group from synchronous code (views, services)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if kept.sends is not None:  # a move applied over a socket: see ``threads.keeping_sends``
        kept.sends.append(iter([(group, message)]))
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        # Sync code running on an event loop's thread (a sync test driving a browser): schedule it.
        asyncio.ensure_future(layer.group_send(group, message))
        return
    if isinstance(layer, InMemoryChannelLayer):
        # One process: the consumers run on the server's event loop, which async_to_sync finds.
        async_to_sync(deliver)(layer, group, message)
    else:
        # Redis: async_to_sync would start a new loop, and so a new connection, for every message
        # (5-8 ms from a WSGI worker); a loop kept for the process keeps its connection open.
        # A bounded wait: the move has committed; a Redis that does not answer must not hold the
        # mover's answer (the other pages catch up when their sockets reconnect).
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _sender())
        try:
            sent.result(timeout=SEND_TIMEOUT)
        except Exception:
            sent.cancel()
            logger.exception("Could not send a live update to %s", group)


_sending: tuple[int, asyncio.AbstractEventLoop] | None = None
_sending_lock = threading.Lock()


def _sender() -> asyncio.AbstractEventLoop:
    """This process's event loop for sending to Redis from sync code, started on first use."""
    global _sending
    with _sending_lock:
        if _sending is None or _sending[0] != os.getpid():  # none yet, or a forked copy
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="channel-sender", daemon=True).start()
            _sending = (os.getpid(), loop)
        return _sending[1]


# Turns of the event loop that a send from sync code waits for after it: see ``deliver``.
DELIVERY_TURNS = 8


async def deliver(layer, group: str, message: dict) -> None:
    """Send a message, then let the consumers of this process forward it before returning.

    On one server process (the in-memory layer) the consumers run on the loop this is sent on,
    while the code that sent it goes on rendering the mover's own answer on another thread: the
    loop would otherwise wait for it to let go of the GIL (5 ms switch interval).
    """
    await layer.group_send(group, message)
    for _ in range(DELIVERY_TURNS):
        await asyncio.sleep(0)
