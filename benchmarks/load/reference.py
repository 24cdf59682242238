"""The reference action, back to back or at a pace: the floor the real actions are compared with."""

from __future__ import annotations

import asyncio
import secrets
import string
import sys
import time

from benchmarks.load.client import REQUEST_TIMEOUT, Visitor
from benchmarks.load.recording import CpuMeter, Recorder, result_of


def csrf_secret() -> str:
    """A CSRF cookie value of Django's form: the same value is accepted as the header token."""
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))


async def check_reference(base: str) -> None:
    visitor = Visitor(base)
    visitor.cookies["csrftoken"] = csrf_secret()
    try:
        answer = await asyncio.wait_for(
            visitor.request("POST", "/bench/reference/1/", {}, htmx=True), REQUEST_TIMEOUT
        )
    finally:
        visitor.close()
    if answer.status != 200:
        sys.exit(
            f"the reference action answered HTTP {answer.status}: start the server with "
            "DJANGO_SETTINGS_MODULE=benchmarks.settings (and run migrate with it)"
        )


async def run_reference(
    base: str, clients: int, seconds: float, warmup: float, pace: float | None = None
) -> dict:
    """``clients`` clients posting the reference action for ``seconds``.

    Back to back, or each once every ``pace`` seconds (their starts spread over the first one).
    """
    start = time.perf_counter()
    record = Recorder(measure_from=start + warmup, until=start + seconds)
    sizes: list[int] = []

    async def client(slot: int) -> None:
        visitor = Visitor(base)
        visitor.cookies["csrftoken"] = csrf_secret()
        due = start + (pace * slot / clients if pace else 0.0)
        while (sent := time.perf_counter()) < record.until:
            if pace:
                await asyncio.sleep(max(0.0, due - sent))
                due = max(due + pace, time.perf_counter())  # late: no catching up, as players
                if (sent := time.perf_counter()) >= record.until:
                    break
            try:
                answer = await asyncio.wait_for(
                    visitor.request("POST", f"/bench/reference/{slot}/", {"n": slot}, htmx=True),
                    REQUEST_TIMEOUT,
                )
            except (OSError, TimeoutError, ValueError, IndexError) as error:
                record.error("reference", f"{type(error).__name__}: {error}")
                await asyncio.sleep(0.05)  # a server that refuses at once: no busy loop
                continue
            if answer.status != 200:
                record.error("reference", f"HTTP {answer.status}")
                continue
            record.done("reference", sent, time.perf_counter())
            if len(sizes) < 10:  # the fragment as rendered, before any compression
                sizes.append(len(answer.text().encode()))
        visitor.close()

    cpu = CpuMeter()
    await asyncio.gather(*(client(slot) for slot in range(1, clients + 1)))
    result = result_of(record, ("reference",), cpu.read())
    result["actions"].pop("all")
    return result | {"clients": clients, "fragment_bytes": max(sizes, default=0)}
