"""Waiting for a condition, up to a deadline, instead of sleeping a fixed time: a test goes on as
soon as what it waits for has happened, and says what it waited for when it never does."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


def wait_until(
    condition: Callable[[], object],
    what: str,
    timeout: float = 10,
    pause: Callable[[], object] = lambda: time.sleep(0.02),
) -> None:
    """Poll ``condition`` until it holds; fail saying ``what`` was awaited after ``timeout`` s.

    ``pause`` waits between two polls (a page's ``wait_for_timeout`` where Playwright's events
    arrive only while it is called)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout} s in vain for {what}"
        pause()


async def eventually(condition: Callable[[], object], what: str, timeout: float = 10) -> None:
    """``wait_until`` for a test on an event loop: the loop goes on running meanwhile."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout} s in vain for {what}"
        await asyncio.sleep(0.02)
