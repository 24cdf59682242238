"""How soon a waiting player's page hears that their game started: a ranked pairing against a
challenge accepted.

    .venv/bin/python benchmarks/bench_pairing.py [--rounds 40]

Issue 17 asks that the "paired" push to the second player of a ranked pairing have a p95 within
1.5x of a challenge being accepted. On the embedded default (one uvicorn process, SQLite, a
throwaway data directory), each round puts fresh players online with their lobby pages' sockets
open, then times, from the moment the POST is sent to the moment the other player's lobby socket
receives the push that sends it to the game:

- challenge: Ana has challenged Bo; Bo accepts. Ana's page is told.
- ranked: Cy waits in the ranked queue; Di joins it and the two are paired at once (both new,
  so their ratings are in each other's window). Cy's page is told.

The two alternate in each round, so that the machine's load falls on both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.bench_live import Http, cookie_header, percentile  # noqa: E402
from tests.servers import Browser, Server  # noqa: E402

NAVIGATE = "data-navigate"


def online(base: str, name: str) -> tuple[Browser, str, str]:
    player = Browser(base)
    player.get("/online/")
    status, page = player.post("/online/name/", {"name": name})
    assert status == 200 and f"You are online as {name}" in page, page[-500:]
    return (player, *cookie_header(player))


async def lobby_socket(base: str, cookies: str):
    url = base.replace("http://", "ws://", 1) + "/ws/lobby/"
    socket = await websockets.connect(url, additional_headers={"Cookie": cookies, "Origin": base})
    await socket.recv()  # the lobby's catch-up
    return socket


async def told_after(socket, started: float, timeout: float = 10) -> float:
    """Milliseconds from ``started`` to the push that sends this page to its game."""
    async with asyncio.timeout(timeout):
        while True:
            message = await socket.recv()
            if NAVIGATE in message:
                return (time.perf_counter() - started) * 1000


async def challenge_round(base: str, tag: str) -> float:
    (ana, ana_cookies, _), (bo, bo_cookies, bo_csrf) = (
        online(base, f"Ana {tag}"), online(base, f"Bo {tag}"),
    )  # fmt: skip
    _, lobby = ana.get("/online/")
    bo_id = re.search(rf'value="(\d+)" aria-label="Challenge Bo {tag}"', lobby)[1]
    ana.post("/online/challenge/", {"player": bo_id})
    _, lobby = bo.get("/online/")
    accept = re.search(r'action="(/online/challenge/\d+/accept/)"', lobby)[1]
    waiting = await lobby_socket(base, ana_cookies)
    client = Http(base, bo_cookies, bo_csrf)
    await client.open()
    started = time.perf_counter()
    await client.request("POST", accept, {})
    elapsed = await told_after(waiting, started)
    await waiting.close()
    return elapsed


async def ranked_round(base: str, tag: str) -> float:
    (cy, cy_cookies, _), (_di, di_cookies, di_csrf) = (
        online(base, f"Cy {tag}"), online(base, f"Di {tag}"),
    )  # fmt: skip
    waiting = await lobby_socket(base, cy_cookies)
    status, _ = cy.post("/online/ranked/join/", {})
    assert status == 200, status
    other = await lobby_socket(base, di_cookies)  # Di's page is open too: both count as online
    client = Http(base, di_cookies, di_csrf)
    await client.open()
    started = time.perf_counter()
    status, _ = await client.request("POST", "/online/ranked/join/", {})
    assert status in (200, 204), status
    elapsed = await told_after(waiting, started)
    await waiting.close()
    await other.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    times = {"challenge accepted": [], "ranked pairing": []}
    with tempfile.TemporaryDirectory() as data, Server(Path(data)) as server:
        for number in range(args.rounds + 3):
            tag = f"{number}-{int(time.time() * 1000) % 100_000}"
            challenge = asyncio.run(challenge_round(server.url, tag))
            ranked = asyncio.run(ranked_round(server.url, tag))
            if number >= 3:  # warm-up rounds left out
                times["challenge accepted"].append(challenge)
                times["ranked pairing"].append(ranked)
    print(f"embedded default, {args.rounds} rounds; ms from the POST to the waiting page's push")
    print(f"{'':<20} {'p50':>7} {'p95':>7}")
    for name, values in times.items():
        print(f"{name:<20} {statistics.median(values):7.1f} {percentile(values, 0.95):7.1f}")
    ratio = percentile(times["ranked pairing"], 0.95) / percentile(
        times["challenge accepted"], 0.95
    )
    print(f"ranked p95 / challenge p95: {ratio:.2f}x (issue 17: at most 1.5x)")


if __name__ == "__main__":
    main()
