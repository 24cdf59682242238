"""How soon a move shows on the other player's screen: click (POST sent) to WebSocket push received.

    uv run python benchmarks/bench_live.py [--games 3] [--watchers 1]
    uv run python benchmarks/bench_live.py --stack          # the scaled-out stack, see below
    uv run python benchmarks/bench_live.py --url http://127.0.0.1:8000 [--url <B's address>]

By default it starts the embedded default (one uvicorn process, SQLite, in-memory channel layer)
on a free loopback port with a throwaway data directory. ``--url`` points it at a running site
instead; a second ``--url`` puts the second player there (e.g. another pair of processes of the
stack). ``--stack`` starts the scaled-out stack (``devstack.stack.Stack``: gunicorn for HTTP,
uvicorn for WebSockets, Redis, PostgreSQL, nginx) and puts each player on their own pair of
processes.

It puts two players in an online game through the real endpoints and has them play whole games.
For every roll, hold and score one player sends, it times the moment the other player's socket
receives the redraw of that move (the push carrying the move's log position), and the mover's own
answer; ``--watchers`` adds pages that only watch. A lean client: raw asyncio streams for HTTP and
the `websockets` package for the sockets, in one process; each socket's messages are timestamped
as they arrive, by a task of their own.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import hashlib
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
from core.socket_messages import ANSWER  # noqa: E402  (the answer to the page's own move)
from tests.servers import Browser, Server  # noqa: E402

VERSION = re.compile(r'data-version="(\d+)"')
# A page's socket takes 10 frames a second after a burst (games.live.moves.FrameBudget) and
# drops the rest unanswered: moves over the socket are sent at most this often per page.
FRAME_INTERVAL = 0.1


def tab_of(cookies: str) -> str:
    """The name of the one game page a player has open (as the page's ws-connect URL has it)."""
    return hashlib.sha1(cookies.encode()).hexdigest()[:12]


class Http:
    """A keep-alive HTTP/1.1 connection that posts forms the way htmx does."""

    def __init__(self, base: str, cookies: str, csrf: str) -> None:
        address = urllib.parse.urlsplit(base)
        self.host, self.port = address.hostname, address.port or 80
        self.cookies, self.csrf = cookies, csrf

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method: str, path: str, data: dict | None = None) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else b""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nCookie: {self.cookies}\r\n"
            f"X-CSRFToken: {self.csrf}\r\nHX-Request: true\r\nX-Tab: {tab_of(self.cookies)}\r\n"
        )
        if data is not None:
            head += "Content-Type: application/x-www-form-urlencoded\r\n"
        head += f"Content-Length: {len(body)}\r\n\r\n"
        self.writer.write(head.encode() + body)
        await self.writer.drain()
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, (await self.reader.readexactly(length)).decode()


class Socket:
    """A game page's WebSocket; every message is kept with the moment it arrived."""

    def __init__(self, connection) -> None:
        self.connection = connection
        self.messages: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())
        self.sent_at = 0.0

    async def send_move(self, fields: dict) -> float:
        """Send a move as the page does, no faster than its frame budget; when it was sent."""
        await asyncio.sleep(self.sent_at + FRAME_INTERVAL - time.perf_counter())
        self.sent_at = time.perf_counter()
        await self.connection.send(json.dumps(fields))
        return self.sent_at

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for message in self.connection:
                self.messages.put_nowait((time.perf_counter(), message))

    async def arrival_of(self, version: int, timeout: float = 10) -> float:
        """When the redraw of this log position arrived (waiting for it if need be)."""
        async with asyncio.timeout(timeout):
            while True:
                arrived, message = await self.messages.get()
                found = VERSION.search(message)
                if found and int(found[1]) >= version:
                    return arrived

    async def answer(self, timeout: float = 10) -> tuple[float, str]:
        """When the answer to this page's own move sent over the socket arrived, and the answer."""
        async with asyncio.timeout(timeout):
            while True:
                arrived, message = await self.messages.get()
                if message.startswith(ANSWER):
                    return arrived, message

    async def close(self) -> None:
        await self.connection.close()
        await self.reader


def cookie_header(browser: Browser) -> tuple[str, str]:
    cookies = {c.name: c.value for c in browser.cookies}
    return "; ".join(f"{k}={v}" for k, v in cookies.items()), cookies["csrftoken"]


def start_game(bases: list[str], number: int) -> tuple[str, list[Browser]]:
    ana, bo = Browser(bases[0]), Browser(bases[-1])
    # A fresh pair of names per run: the site keeps players (and names) between runs.
    tag = f"{number}-{int(time.time() * 1000) % 1_000_000}"
    for player, name in ((ana, f"Ana {tag}"), (bo, f"Bo {tag}")):
        player.get("/online/")
        player.post("/online/name/", {"name": name})
    for _ in range(50):  # Bo shows in Ana's lobby once his name is stored
        _, lobby = ana.get("/online/")
        found = re.search(rf'value="(\d+)" aria-label="Challenge Bo {tag}"', lobby)
        if found:
            break
        time.sleep(0.1)
    bo_id = found[1]
    ana.post("/online/challenge/", {"player": bo_id})
    _, page = bo.get("/online/")
    accept = re.search(r'action="(/online/challenge/\d+/accept/)"', page).group(1)
    _, game_page = bo.post(accept, {})
    game_id = re.search(r"/ws/game/([\w-]+)/", game_page).group(1)
    return game_id, [ana, bo]


async def connect(base: str, game_id: str, cookies: str) -> Socket:
    url = base.replace("http://", "ws://", 1) + f"/ws/game/{game_id}/?tab={tab_of(cookies)}&rows=1"
    headers = {"Cookie": cookies, "Origin": base}
    return Socket(await websockets.connect(url, additional_headers=headers))


async def play(
    bases: list[str], number: int, watchers: int, times: dict[str, list], over: str
) -> None:
    game_id, browsers = start_game(bases, number)
    clients, seats = [], []
    for base, browser in zip([bases[0], bases[-1]], browsers, strict=True):
        cookies, csrf = cookie_header(browser)
        http = Http(base, cookies, csrf)
        await http.open()
        clients.append(http)
        seats.append(await connect(base, game_id, cookies))
    lookers = [await connect(bases[i % len(bases)], game_id, "") for i in range(watchers)]
    await asyncio.sleep(0.3)  # presence updates from connecting

    step = version = 0
    for _round in range(13):
        for me in (0, 1):
            actions = [
                ("roll", {"step": step, "held": "00000"}),
                ("hold", {"step": step + 1, "die": 0, "held": "1"}),
                ("hold", {"step": step + 1, "die": 0, "held": "0"}),
                ("roll", {"step": step + 1, "held": "00000"}),
                ("score", {"step": step + 2, "box": None}),
            ]
            for kind, data in actions:
                if kind == "score":
                    data["box"] = await first_open_box(clients[me], game_id)
                version += 1
                sent = time.perf_counter()
                if over == "socket":  # as the page sends it while its socket is open
                    fields = {key: str(value) for key, value in data.items()}  # as FormData
                    fields["csrfmiddlewaretoken"] = clients[me].csrf
                    sent = await seats[me].send_move(fields | {"move": kind})
                    arrived, answer = await seats[me].answer()
                    times["answer"].append(arrived - sent)
                    assert 'role="alert"' not in answer, (kind, answer)
                else:
                    status, _ = await clients[me].request("POST", f"/game/{game_id}/{kind}/", data)
                    times["answer"].append(time.perf_counter() - sent)
                    assert status == 200, (kind, status)
                times["other"].append(await seats[1 - me].arrival_of(version) - sent)
                times[f"other {kind}"].append(times["other"][-1])
                for looker in lookers:
                    times["watcher"].append(await looker.arrival_of(version) - sent)
            step += 3
    for socket in [*seats, *lookers]:
        await socket.close()


async def first_open_box(client: Http, game_id: str) -> str:
    """The first box the current dice may go in, read from the card the server renders."""
    _, page = await client.request("GET", f"/game/{game_id}/")
    return re.search(r"\?select=(\w+)", page).group(1)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(times: dict[str, list[float]], games: int, where: str) -> None:
    print(f"moves measured: {len(times['answer'])} over {games} games ({where})")
    labels = {"other": "other screen"}
    labels |= {f"other {kind}": f"  ...a {kind}" for kind in ("roll", "hold", "score")}
    labels |= {"watcher": "a watcher", "answer": "own answer"}
    for key, label in labels.items():
        values = [t * 1000 for t in times[key]]
        if values:
            print(
                f"click -> {label + ':':14} p50 {statistics.median(values):5.1f} ms, "
                f"p95 {percentile(values, 0.95):5.1f} ms, p99 {percentile(values, 0.99):5.1f} ms, "
                f"max {max(values):5.1f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--watchers", type=int, default=0, help="pages that only watch")
    parser.add_argument("--url", action="append", help="a running site (twice: A's, then B's)")
    parser.add_argument("--stack", action="store_true", help="start the scaled-out stack")
    parser.add_argument(
        "--moves",
        choices=["socket", "http"],
        default="socket",
        help="send moves over the page's socket (what pages do while it is open) or post them "
        "(pages without JavaScript, or while the socket reconnects)",
    )
    args = parser.parse_args()
    times: dict[str, list[float]] = collections.defaultdict(list)
    with contextlib.ExitStack() as running:
        if args.url:
            bases, where = [url.rstrip("/") for url in args.url[:2]], " and ".join(args.url[:2])
        elif args.stack:
            from devstack.stack import Stack

            stack = running.enter_context(Stack(http=2, ws=2))
            bases = stack.pair_urls[:2]
            where = "stack: gunicorn + uvicorn + Redis + PostgreSQL, a pair of processes each"
        else:
            data = running.enter_context(tempfile.TemporaryDirectory())
            bases = [running.enter_context(Server(Path(data))).url]
            where = "embedded default, 1 process"
        for number in range(args.games):
            asyncio.run(play(bases, number, args.watchers, times, args.moves))
    report(times, args.games, f"{where}; moves over {args.moves}")


if __name__ == "__main__":
    main()
