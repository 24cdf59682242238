"""How soon a move shows on the other player's screen: click (POST sent) to WebSocket push received.

    uv run python benchmarks/bench_live.py [--games 3]

Starts the embedded default (one uvicorn process, SQLite, in-memory channel layer) on a free
loopback port with a throwaway data directory, puts two players in an online game through the
real endpoints, and has them play whole games. For every roll, hold and score one player sends,
it times the moment the other player's socket receives the redrawn game. A lean client: raw
asyncio streams for HTTP and the `websockets` package for the sockets, in one process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.servers import Browser, Server  # noqa: E402


class Http:
    """A keep-alive HTTP/1.1 connection that posts forms the way htmx does."""

    def __init__(self, port: int, cookies: str, csrf: str) -> None:
        self.port, self.cookies, self.csrf = port, cookies, csrf

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def post(self, path: str, data: dict) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {self.cookies}\r\n"
            f"X-CSRFToken: {self.csrf}\r\nHX-Request: true\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        await self.writer.drain()
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, (await self.reader.readexactly(length)).decode()


def cookie_header(browser: Browser) -> tuple[str, str]:
    cookies = {c.name: c.value for c in browser.cookies}
    return "; ".join(f"{k}={v}" for k, v in cookies.items()), cookies["csrftoken"]


def start_game(server: Server, number: int) -> tuple[str, list[Browser]]:
    ana, bo = Browser(server.url), Browser(server.url)
    for player, name in ((ana, f"Ana {number}"), (bo, f"Bo {number}")):
        player.get("/online/")
        player.post("/online/name/", {"name": name})
    _, lobby = ana.get("/online/")
    bo_id = re.search(rf'value="(\d+)"><button[^>]*aria-label="Challenge Bo {number}"', lobby)[1]
    ana.post("/online/challenge/", {"player": bo_id})
    _, page = bo.get("/online/")
    accept = re.search(r'action="(/online/challenge/\d+/accept/)"', page).group(1)
    _, game_page = bo.post(accept, {})
    game_id = re.search(r"/ws/game/([\w-]+)/", game_page).group(1)
    return game_id, [ana, bo]


async def play(server: Server, number: int, samples: list[float], answers: list[float]) -> None:
    game_id, browsers = start_game(server, number)
    clients, sockets = [], []
    for browser in browsers:
        cookies, csrf = cookie_header(browser)
        http = Http(server.port, cookies, csrf)
        await http.open()
        clients.append(http)
        url = f"ws://127.0.0.1:{server.port}/ws/game/{game_id}/"
        headers = {"Cookie": cookies, "Origin": server.url}
        sockets.append(await websockets.connect(url, additional_headers=headers))
    await asyncio.sleep(0.3)
    for sock in sockets:  # presence updates from connecting
        while True:
            try:
                await asyncio.wait_for(sock.recv(), 0.2)
            except TimeoutError:
                break

    step = 0
    for _round in range(13):
        for me in (0, 1):
            other = sockets[1 - me]
            actions = [
                ("roll", {"step": step, "held": "00000"}),
                ("hold", {"step": step + 1, "die": 0, "held": "1"}),
                ("hold", {"step": step + 1, "die": 0, "held": "0"}),
                ("roll", {"step": step + 1, "held": "00000"}),
                ("score", {"step": step + 2, "box": None}),
            ]
            for kind, data in actions:
                if kind == "score":
                    data["box"] = json.loads(await first_open_box(clients[me], game_id))
                sent = time.perf_counter()
                # The push may arrive before the clicker's own answer: wait for both at once.
                pushed = asyncio.ensure_future(other.recv())
                status, _ = await clients[me].post(f"/game/{game_id}/{kind}/", data)
                answered = time.perf_counter()
                assert status == 200, (kind, status)
                await pushed
                samples.append((time.perf_counter() - sent) * 1000)
                answers.append((answered - sent) * 1000)
            step += 3
    for sock in sockets:
        await sock.close()


async def first_open_box(client: Http, game_id: str) -> str:
    """The first box the current dice may go in, read from the card the server renders."""
    client.writer.write(
        f"GET /game/{game_id}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {client.cookies}\r\n"
        "HX-Request: true\r\n\r\n".encode()
    )
    await client.writer.drain()
    await client.reader.readline()
    length = 0
    while (line := await client.reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    page = (await client.reader.readexactly(length)).decode()
    return json.dumps(re.search(r"\?select=(\w+)", page).group(1))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    samples: list[float] = []
    answers: list[float] = []
    with tempfile.TemporaryDirectory() as data, Server(Path(data)) as server:
        for number in range(args.games):
            asyncio.run(play(server, number, samples, answers))
    print(f"moves measured: {len(samples)} over {args.games} games (embedded default, 1 process)")
    print(
        f"click -> other screen: p50 {statistics.median(samples):.1f} ms, "
        f"p95 {percentile(samples, 0.95):.1f} ms, p99 {percentile(samples, 0.99):.1f} ms, "
        f"max {max(samples):.1f} ms"
    )
    print(
        f"click -> own answer:   p50 {statistics.median(answers):.1f} ms, "
        f"p95 {percentile(answers, 0.95):.1f} ms"
    )


if __name__ == "__main__":
    main()
