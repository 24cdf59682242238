"""Load benchmark (issue 5): whole online games through the real endpoints and sockets.

    .venv/bin/python benchmarks/bench_load.py                      # embedded default, SQLite
    .venv/bin/python benchmarks/bench_load.py --database postgres  # embedded, PostgreSQL
    .venv/bin/python benchmarks/bench_load.py --stack --http 2 --ws 2  # scaled out, PostgreSQL
    .venv/bin/python benchmarks/bench_load.py --url http://127.0.0.1:8000  # a running server

Phases (``--phases``, all by default):

- ``assets``: the first visit of the home page, a solo game page and an online game page with
  an empty cache (``Accept-Encoding: gzip, deflate, br``): bytes of the page and every asset it
  and its stylesheets reference, as transferred.
- ``saturation``: ``--games`` two-player online games at once, each player posting its roll,
  hold, roll, score as soon as its previous answer arrives, for ``--seconds``; games that end
  are replaced by new ones. Then as many clients post the reference action (benchref/: one row
  lock, one insert, a 3 KB fragment, through the same middleware) for as long. Prints
  throughput, p50/p95/p99 per action and the real actions' throughput as a ratio of the
  reference's.
- ``human``: ``--players`` players (two a game) at human pace: the player to move acts once
  every ``--pace`` seconds. Prints p50/p95/p99 per action and the live push latency: from
  sending a move's POST to the other seat's socket receiving the redrawn fragments. Then (unless
  ``--no-human-reference``) one client a game posts the reference action at that pace, as many
  actions a second. On the stack, where gunicorn serves posts, that is the floor for an action
  on this machine; the embedded server serves posts through Django's ASGI path, where the
  reference costs more than a move sent over a socket.

Players go online, challenge and accept through the real lobby endpoints (fresh visitors per
game, so no rate limit is hit), open the game's WebSocket as a page does and post forms as htmx
does. The client is lean on purpose (raw asyncio streams for HTTP, the ``websockets`` package for
sockets, one process): it prints its own CPU use so that a saturated client shows. It handles
keep-alive and ``Connection: close`` (gunicorn's sync workers) alike. Every request has a
timeout and every phase a deadline; only 127.0.0.1 is loaded.

A server given with ``--url`` must run with ``YAHTZEE_BENCH_REFERENCE=1`` (and have migrated
with it) for the reference action; the embedded default and ``--stack`` are started that way,
with static files collected and compressed as ``scripts/serve`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gzip
import json
import math
import os
import random
import re
import secrets
import shutil
import string
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from stack.services import Postgres, free_port, wait_for_port  # noqa: E402

REQUEST_TIMEOUT = 10.0  # seconds: a request slower than this counts as an error
SETUP_TIMEOUT = 30.0  # seconds to get two players into a game and their sockets open
PUSH_GRACE = 5.0  # seconds to wait after a phase for the pushes of its last moves
SETUP_AT_ONCE = 4  # games being set up concurrently before a phase
BROWSER_ENCODINGS = "gzip, deflate, br"
VERSION = re.compile(r'data-version="(\d+)"')
SELECT = re.compile(r"\?select=(\w+)")
# One turn: roll all five, hold the first die, roll the other four, score the first box offered.
TURN = (("roll", "00000"), ("hold", None), ("roll", "10000"), ("score", None))
KINDS = ("roll", "hold", "score")
ANSWER = "<!-- answer -->"  # games.live.moves.ANSWER: starts the answer to a socket move


# -- a lean HTTP/1.1 client ------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    wire: int  # bytes received: status line, headers and body as sent

    def header(self, name: str) -> str:
        return next((value for key, value in self.headers if key == name), "")

    def text(self) -> str:
        """The body decoded from its content encoding (gzip or deflate) as text."""
        encoding = self.header("content-encoding").lower()
        body = self.body
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        elif encoding:
            raise ValueError(f"cannot decode a {encoding} body")
        return body.decode("utf-8", "replace")


class Connection:
    """One client connection: kept alive while the server allows, reopened when it closes."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.opened = 0

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def exchange(self, request: bytes, head_only: bool = False) -> Response:
        try:
            return await self._exchange(request, head_only)
        except BaseException:
            self.close()  # a half-read answer (an error or a timeout) leaves the stream unusable
            raise

    async def _exchange(self, request: bytes, head_only: bool) -> Response:
        for _attempt in range(2):
            reused = self.writer is not None
            if reused and self.reader.at_eof():  # the server closed it while idle
                self.close()
                reused = False
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.opened += 1
            try:
                self.writer.write(request)
                await self.writer.drain()
                status_line = await self.reader.readline()
            except ConnectionError:
                status_line = b""
            if status_line:
                break
            self.close()
            if not reused:
                raise ConnectionError("the server closed the connection without answering")
        reader = self.reader
        version, status = status_line.split()[:2]
        headers, wire = [], len(status_line)
        while (line := await reader.readline()) not in (b"\r\n", b""):
            wire += len(line)
            name, _, value = line.decode("latin-1").partition(":")
            headers.append((name.strip().lower(), value.strip()))
        wire += 2
        response = Response(int(status), headers, b"", wire)
        tokens = {t.strip().lower() for t in response.header("connection").split(",")}
        keep = "keep-alive" in tokens if version == b"HTTP/1.0" else "close" not in tokens
        if head_only or response.status in (204, 304) or response.status < 200:
            pass
        elif response.header("transfer-encoding").lower() == "chunked":
            chunks = []
            while True:
                size_line = await reader.readline()
                wire += len(size_line)
                size = int(size_line.split(b";")[0], 16)
                chunk = await reader.readexactly(size + 2)
                wire += len(chunk)
                if size == 0:
                    break
                chunks.append(chunk[:-2])
            response.body = b"".join(chunks)
        elif response.header("content-length"):
            response.body = await reader.readexactly(int(response.header("content-length")))
        else:
            response.body = await reader.read()
            keep = False
        response.wire = wire + len(response.body)
        if not keep:
            self.close()
        return response


class Visitor:
    """A browser: its cookies (the session is its identity) and one connection to the server."""

    def __init__(self, base: str) -> None:
        url = urllib.parse.urlsplit(base)
        self.base, self.netloc = base, url.netloc
        self.connection = Connection(url.hostname, url.port or 80)
        self.cookies: dict[str, str] = {}
        # The game page this browser has open: its socket and its posts name it, as a page does.
        self.tab = secrets.token_hex(6)

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    async def request(
        self,
        method: str,
        path: str,
        data: dict | None = None,
        *,
        htmx: bool = False,
        encodings: str = "gzip, deflate",
    ) -> Response:
        """Send one request as a browser would (a POST as htmx or a plain form posts it)."""
        body = urllib.parse.urlencode(data or {}).encode() if method == "POST" else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.netloc}", "User-Agent: bench_load",
                 "Accept: */*", f"Accept-Encoding: {encodings}"]  # fmt: skip
        if self.cookies:
            lines.append(f"Cookie: {self.cookie_header()}")
        if method == "POST":
            lines += [f"Origin: {self.base}", f"Content-Length: {len(body)}",
                      "Content-Type: application/x-www-form-urlencoded"]  # fmt: skip
            if "csrftoken" in self.cookies:
                lines.append(f"X-CSRFToken: {self.cookies['csrftoken']}")
        if htmx:
            lines += ["HX-Request: true", f"X-Tab: {self.tab}"]
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        response = await self.connection.exchange(raw, head_only=method == "HEAD")
        for name, value in response.headers:
            if name == "set-cookie":
                pair = value.split(";")[0]
                key, _, cookie = pair.partition("=")
                if "max-age=0" in value.lower().replace(" ", ""):
                    self.cookies.pop(key.strip(), None)
                else:
                    self.cookies[key.strip()] = cookie.strip()
        return response

    async def expect(self, status: int, method: str, path: str, data: dict | None = None) -> str:
        """A setup request that must answer ``status``; the answer's text (or its Location)."""
        response = await asyncio.wait_for(self.request(method, path, data), REQUEST_TIMEOUT)
        if response.status != status:
            raise SetupFailed(f"{method} {path}: HTTP {response.status}, expected {status}")
        return response.header("location") if 300 <= status < 400 else response.text()

    def close(self) -> None:
        self.connection.close()


class SetupFailed(Exception):
    """Two players could not be put into a game."""


# -- recording ---------------------------------------------------------------------------------


@dataclass
class Recorder:
    """Latencies of the moves sent inside the measured window, and every error of the phase."""

    measure_from: float
    until: float
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    completed: Counter = field(default_factory=Counter)  # finished inside the window
    errors: Counter = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)  # the first few distinct errors

    def measured(self, sent: float) -> bool:
        return sent >= self.measure_from

    def done(self, kind: str, sent: float, finished: float) -> None:
        if sent >= self.measure_from:
            self.latencies[kind].append((finished - sent) * 1000)
            if finished <= self.until:
                self.completed[kind] += 1

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] += 1
        if len(self.samples) < 10 and f"{kind}: {what}" not in self.samples:
            self.samples.append(f"{kind}: {what}")

    @property
    def window(self) -> float:
        return self.until - self.measure_from


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def summary(values: list[float]) -> dict:
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "p50_ms": round(percentile(values, 0.50), 2),
        "p95_ms": round(percentile(values, 0.95), 2),
        "p99_ms": round(percentile(values, 0.99), 2),
        "max_ms": round(max(values), 2),
    }


# -- online games ------------------------------------------------------------------------------


class Seat:
    """One player of a game: the browser, its socket and what the socket received when."""

    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor
        self.socket: ClientConnection | None = None
        self.listener: asyncio.Task | None = None
        self.arrivals: list[tuple[float, int]] = []  # (time, version shown), in arrival order
        self.expected: list[tuple[float, int, str]] = []  # other seat's moves: (sent, version)
        self.answers: asyncio.Queue[tuple[float, str]] = asyncio.Queue()  # to moves sent here

    async def open_socket(self, base: str, game_id: str) -> None:
        url = base.replace("http://", "ws://", 1) + f"/ws/game/{game_id}/?tab={self.visitor.tab}"
        headers = {"Cookie": self.visitor.cookie_header(), "User-Agent": "bench_load"}
        self.socket = await connect(url, origin=base, additional_headers=headers, open_timeout=10)
        self.listener = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in self.socket:
                arrived = time.perf_counter()
                if message.startswith(ANSWER):
                    self.answers.put_nowait((arrived, message))
                elif found := VERSION.search(message):  # presence redraws carry no version
                    self.arrivals.append((arrived, int(found[1])))

    def push_latencies(self) -> tuple[list[float], int]:
        """For each expected move: when this screen first showed it (or a later state)."""
        times = [t for t, _ in self.arrivals]
        shown, highest = [], -1
        for _, version in self.arrivals:
            highest = max(highest, version)
            shown.append(highest)
        latencies, missing = [], 0
        for sent, version, _kind in self.expected:
            index = bisect.bisect_left(shown, version)
            if index < len(shown):
                latencies.append((times[index] - sent) * 1000)
            else:
                missing += 1
        return latencies, missing

    def all_shown(self) -> bool:
        wanted = max((version for _, version, _ in self.expected), default=-1)
        return max((version for _, version in self.arrivals), default=-1) >= wanted

    async def close(self) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.socket.close(), 5)
        if self.listener is not None:
            self.listener.cancel()
        self.visitor.close()


class OnlineGame:
    """Two fresh visitors who went online, challenged, accepted, and opened the game's page."""

    over = "socket"  # moves go over the page's socket, as pages send them; or "http": posted

    def __init__(self, base: str, game_id: str, seats: list[Seat], first: int, step: int) -> None:
        self.base, self.id, self.seats = base, game_id, seats
        self.first, self.step = first, step

    @classmethod
    async def start(cls, base: str, label: str) -> OnlineGame:
        ana, bo = Visitor(base), Visitor(base)
        names = [f"{label}a", f"{label}b"]
        for visitor, name in zip((ana, bo), names, strict=True):
            await visitor.expect(200, "GET", "/online/")
            await visitor.expect(302, "POST", "/online/name/", {"name": name})
        lobby = await ana.expect(200, "GET", "/online/")
        player = re.search(rf'value="(\d+)"><button[^>]*aria-label="Challenge {names[1]}"', lobby)
        if player is None:
            raise SetupFailed(f"{names[1]} is not in the lobby")
        await ana.expect(302, "POST", "/online/challenge/", {"player": player[1]})
        page = await bo.expect(200, "GET", "/online/")
        accept = re.search(r'action="(/online/challenge/\d+/accept/)"', page)
        if accept is None:
            raise SetupFailed(f"{names[1]} sees no challenge to accept")
        game_id = re.search(r"/game/([\w-]+)/", await bo.expect(302, "POST", accept[1], {}))[1]
        for first, visitor in enumerate((ana, bo)):
            page = await visitor.expect(200, "GET", f"/game/{game_id}/")
            if 'class="roll-form"' in page:  # only the seat to move has the Roll button
                step = int(re.search(r'name="step" value="(\d+)"', page)[1])
                return cls(base, game_id, [Seat(ana), Seat(bo)], first, step)
        raise SetupFailed(f"nobody may roll in game {game_id}")

    async def open_sockets(self) -> None:
        """Open both pages' sockets and wait for the state each is sent on connecting."""
        for seat in self.seats:
            await seat.open_socket(self.base, self.id)
        deadline = time.perf_counter() + 10
        while not all(seat.arrivals for seat in self.seats):
            if time.perf_counter() > deadline:
                raise SetupFailed("a socket was sent nothing on connecting")
            await asyncio.sleep(0.01)

    async def act(self, seat: int, kind: str, data: dict, record: Recorder) -> str | None:
        """Post one move as htmx does; the answer's text, or None after recording an error."""
        if self.over == "socket":
            return await self.send(seat, kind, data, record)
        visitor = self.seats[seat].visitor
        sent = time.perf_counter()
        try:
            answer = await asyncio.wait_for(
                visitor.request("POST", f"/game/{self.id}/{kind}/", data, htmx=True),
                REQUEST_TIMEOUT,
            )
            finished = time.perf_counter()
            html = answer.text()
        except (OSError, TimeoutError, ValueError, IndexError, asyncio.IncompleteReadError) as e:
            record.error(kind, f"{type(e).__name__}: {e}")
            return None
        if answer.status != 200:
            record.error(kind, f"HTTP {answer.status}")
            return None
        return self.answered(seat, kind, html, sent, finished, record)

    async def send(self, seat: int, kind: str, data: dict, record: Recorder) -> str | None:
        """Send one move over the seat's socket as the page does (its form fields as JSON)."""
        me = self.seats[seat]
        fields = {key: str(value) for key, value in data.items()} | {"move": kind}
        fields["csrfmiddlewaretoken"] = me.visitor.cookies.get("csrftoken", "")
        sent = time.perf_counter()
        try:
            await me.socket.send(json.dumps(fields))
            finished, html = await asyncio.wait_for(me.answers.get(), REQUEST_TIMEOUT)
        except (TimeoutError, WebSocketException) as e:
            record.error(kind, f"{type(e).__name__}: {e}")
            return None
        if 'role="alert"' in html:
            reason = re.sub(r"<[^>]+>", "", html.split('role="alert">')[1])[:80]
            record.error(kind, f"refused: {reason}")
            return None
        return self.answered(seat, kind, html, sent, finished, record)

    def answered(
        self, seat: int, kind: str, html: str, sent: float, finished: float, record: Recorder
    ) -> str | None:
        """Record a move's answer; its text, or None after recording an error."""
        version = VERSION.search(html)
        if version is None:
            record.error(kind, "the answer shows no log version")
            return None
        record.done(kind, sent, finished)
        if record.measured(sent):
            self.seats[1 - seat].expected.append((sent, int(version[1]), kind))
        return html

    async def play(self, until: float, pace: float | None, record: Recorder) -> bool:
        """Play the game to its end (True) or until the deadline or an error (False).

        With ``pace`` the player to move acts once every ``pace`` seconds (a person); without,
        as soon as the previous answer arrives.
        """
        seat, step = self.first, self.step
        next_at = time.perf_counter() + random.uniform(0, pace or 0)
        for _turn in range(13 * len(self.seats)):
            box = None
            for kind, held in TURN:
                if pace:
                    await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                    next_at = max(next_at + pace, time.perf_counter())  # late: no catching up
                if time.perf_counter() >= until:
                    return False
                data = {"step": step, "held": held}
                if kind == "hold":
                    data = {"step": step, "die": 0, "held": "1"}
                elif kind == "score":
                    data = {"step": step, "box": box}
                html = await self.act(seat, kind, data, record)
                if html is None:
                    return False
                if kind != "hold":
                    step += 1
                if kind == "roll" and held != "00000":
                    offered = SELECT.search(html)
                    if offered is None:
                        record.error("score", "the card offers no box")
                        return False
                    box = offered[1]
            seat = (seat + 1) % len(self.seats)
        return True

    async def close(self, wait: float = 0.0) -> None:
        """Close both pages, after waiting up to ``wait`` s for the pushes of the last moves."""
        deadline = time.perf_counter() + wait
        while time.perf_counter() < deadline and not all(s.all_shown() for s in self.seats):
            await asyncio.sleep(0.02)
        for seat in self.seats:
            await seat.close()


class Labels:
    """Unique player names for this run (names are unique among players online)."""

    def __init__(self) -> None:
        self.run = "".join(random.choices(string.ascii_uppercase, k=4))
        self.count = 0

    def next(self) -> str:
        self.count += 1
        return f"Bench {self.run} {self.count} "


async def start_games(base: str, count: int, labels: Labels) -> list[OnlineGame]:
    """``count`` games set up a few at a time, their sockets open."""
    gate = asyncio.Semaphore(SETUP_AT_ONCE)

    async def one() -> OnlineGame:
        async with gate:
            game = await asyncio.wait_for(OnlineGame.start(base, labels.next()), SETUP_TIMEOUT)
            await asyncio.wait_for(game.open_sockets(), SETUP_TIMEOUT)
            return game

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def run_games(
    base: str,
    games: list[OnlineGame],
    labels: Labels,
    seconds: float,
    warmup: float,
    pace: float | None,
) -> dict:
    """Play these games (and new ones as they end) for ``seconds``; latencies, pushes, errors."""
    start = time.perf_counter()
    record = Recorder(measure_from=start + warmup, until=start + seconds)
    everyone: list[OnlineGame] = []
    closing: list[asyncio.Task] = []

    async def table(game: OnlineGame) -> int:
        played = 0
        while True:
            everyone.append(game)
            finished = await game.play(record.until, pace, record)
            played += finished
            closing.append(asyncio.create_task(game.close(wait=PUSH_GRACE)))
            if time.perf_counter() >= record.until:
                return played
            # The game ended, or an error left it in an unknown state: go on with a new one.
            try:
                game = await asyncio.wait_for(OnlineGame.start(base, labels.next()), SETUP_TIMEOUT)
                await asyncio.wait_for(game.open_sockets(), SETUP_TIMEOUT)
            except (SetupFailed, OSError, TimeoutError, WebSocketException) as error:
                record.error("setup", f"{type(error).__name__}: {error}")
                return played

    cpu = CpuMeter()
    played = sum(await asyncio.gather(*(table(game) for game in games)))
    usage = cpu.read()
    await asyncio.gather(*closing)
    pushes, missing = [], 0
    for game in everyone:
        for seat in game.seats:
            latencies, lost = seat.push_latencies()
            pushes += latencies
            missing += lost
    if missing:
        record.error("push", f"{missing} moves never reached the other seat's socket")
        record.errors["push"] = missing
    return result_of(record, KINDS, usage) | {
        "games": len(games),
        "games_finished": played,
        "push": summary(pushes),
    }


def result_of(record: Recorder, kinds: tuple[str, ...], usage: dict) -> dict:
    actions = {kind: summary(record.latencies[kind]) for kind in kinds}
    for kind in kinds:
        actions[kind]["per_s"] = round(record.completed[kind] / record.window, 1)
    every = [value for kind in kinds for value in record.latencies[kind]]
    actions["all"] = summary(every) | {
        "per_s": round(sum(record.completed[k] for k in kinds) / record.window, 1)
    }
    return {
        "seconds_measured": round(record.window, 1),
        "actions": actions,
        "errors": dict(record.errors),
        "error_samples": record.samples,
        "cpu": usage,
    }


# -- the reference action ----------------------------------------------------------------------


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
            "YAHTZEE_BENCH_REFERENCE=1 (and run migrate with it)"
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


# -- first visit -------------------------------------------------------------------------------

ASSET = re.compile(r"<(?:link|script|img)\b[^>]*?\b(?:href|src)=\"([^\"]+)\"", re.I)
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


async def first_visit(base: str, path: str, cookies: dict[str, str]) -> dict:
    """A page and everything it references, fetched with an empty cache as a browser would."""
    visitor = Visitor(base)
    visitor.cookies = dict(cookies)
    fetched: list[dict] = []
    try:
        page = await visitor.request("GET", path, encodings=BROWSER_ENCODINGS)
        html = await _readable(visitor, path, page)
        fetched.append(_line(path, page))
        todo = [urllib.parse.urljoin(base + path, ref) for ref in ASSET.findall(html)]
        seen = set()
        while todo:
            url = urllib.parse.urlsplit(todo.pop(0))
            if url.netloc != visitor.netloc or url.path in seen:
                continue
            seen.add(url.path)
            asset = await visitor.request("GET", url.path, encodings=BROWSER_ENCODINGS)
            fetched.append(_line(url.path, asset))
            if url.path.endswith(".css") and asset.status == 200:
                css = await _readable(visitor, url.path, asset)
                found = [ref for ref in CSS_URL.findall(css) if not ref.startswith("data:")]
                todo += [urllib.parse.urljoin(base + url.path, ref) for ref in found]
    finally:
        visitor.close()
    return {
        "path": path,
        "requests": len(fetched),
        "body_bytes": sum(f["body"] for f in fetched),
        "wire_bytes": sum(f["wire"] for f in fetched),
        "html_bytes": len(html.encode()),
        "html_gzip_bytes": len(gzip.compress(html.encode(), 6)),
        "html_encoding": page.header("content-encoding") or "none",
        "files": fetched,
    }


async def _readable(visitor: Visitor, path: str, response: Response) -> str:
    if response.header("content-encoding").lower() == "br":  # no brotli here: ask for gzip
        response = await visitor.request("GET", path, encodings="gzip")
    return response.text()


def _line(path: str, response: Response) -> dict:
    encoding = response.header("content-encoding") or "none"
    return {"path": path, "status": response.status, "encoding": encoding,
            "body": len(response.body), "wire": response.wire}  # fmt: skip


async def run_assets(base: str, labels: Labels) -> list[dict]:
    pages = [await first_visit(base, "/", {})]
    solo = Visitor(base)
    await solo.expect(200, "GET", "/")
    game = await solo.expect(302, "POST", "/new/", {"mode": "solo", "multiple_yahtzees": "on"})
    solo.close()
    pages.append(await first_visit(base, urllib.parse.urlsplit(game).path, solo.cookies))
    online = await asyncio.wait_for(OnlineGame.start(base, labels.next()), SETUP_TIMEOUT)
    pages.append(await first_visit(base, f"/game/{online.id}/", online.seats[0].visitor.cookies))
    await online.close()
    for page, name in zip(pages, ("home", "solo game", "online game"), strict=True):
        page["page"] = name
    return pages


# -- CPU use -----------------------------------------------------------------------------------


class CpuMeter:
    """CPU time of this client, of the server's processes (when known) and of the machine."""

    # The server's processes by role, e.g. {"gunicorn": {...}, "uvicorn": {...}}, when known:
    # looked up when a phase starts, so that workers and database backends started by then count.
    server_processes: Callable[[], dict[str, set[int]]] = dict

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.client = time.process_time()
        self.groups = self.server_processes()
        self.server = {name: _process_seconds(pids) for name, pids in self.groups.items()}
        self.busy, self.total = _machine()

    def read(self) -> dict:
        wall = time.perf_counter() - self.wall
        busy, total = _machine()
        usage = {
            "client_core_share": round((time.process_time() - self.client) / wall, 2),
            "machine_busy_share": round((busy - self.busy) / max(1, total - self.total), 2),
        }
        for name, pids in self.groups.items():
            used = _process_seconds(pids) - self.server[name]
            usage.setdefault("server_cores", {})[name] = round(used / wall, 2)
        return usage


def _process_seconds(pids: set[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def _tree(root: int) -> set[int]:
    """``root`` and its descendants alive now (gunicorn's workers, PostgreSQL's backends...)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
    found = {root}
    while grown := {pid for pid, parent in parents.items() if parent in found} - found:
        found |= grown
    return found


def _machine() -> tuple[int, int]:
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


# -- servers -----------------------------------------------------------------------------------


class Embedded:
    """The embedded default as scripts/serve runs it: one uvicorn process, static files collected
    and compressed (STATIC_MANIFEST=1), in a throwaway data directory; SQLite or PostgreSQL."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.directory = Path(tempfile.mkdtemp(prefix="yahtzee-bench-"))
        self.postgres: Postgres | None = None
        self.process: subprocess.Popen | None = None
        self.port = free_port()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def describe(self) -> str:
        name = "SQLite" if self.database == "sqlite" else "PostgreSQL"
        return f"embedded default: 1 uvicorn process, {name}, in-memory channel layer"

    def start(self) -> Embedded:
        env = _bench_env() | {"YAHTZEE_DATA_DIR": str(self.directory), "STATIC_MANIFEST": "1",
                              "ALLOWED_HOSTS": "127.0.0.1", "PYTHONUNBUFFERED": "1"}  # fmt: skip
        for name in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "DJANGO_ALLOW_ASYNC_UNSAFE"):
            env.pop(name, None)
        if self.database == "postgres":
            self.postgres = Postgres().start()
            env["DATABASE_URL"] = self.postgres.create_database("yahtzee")
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v", "0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                           check=True, capture_output=True)  # fmt: skip
        command = [sys.executable, "-m", "uvicorn", "yahtzee_site.asgi:application",
                   "--host", "127.0.0.1", "--port", str(self.port), "--no-access-log"]  # fmt: skip
        self.log = (self.directory / "server.log").open("wb")
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT)  # fmt: skip
        wait_for_port(self.port, self.process, timeout=30)
        CpuMeter.server_processes = self.processes
        return self

    def processes(self) -> dict[str, set[int]]:
        found = {"uvicorn": _tree(self.process.pid)}
        if self.postgres is not None:
            with contextlib.suppress(OSError, ValueError):
                postmaster = (self.postgres.data / "postmaster.pid").read_text().split()[0]
                found["postgres"] = _tree(int(postmaster))
        return found

    def log_tail(self, lines: int = 40) -> str:
        log = self.directory / "server.log"
        text = log.read_text(errors="replace") if log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        if self.postgres is not None:
            self.postgres.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


class ScaledOut:
    """stack/stack.py: nginx over gunicorn (HTTP) and uvicorn (WebSocket) processes."""

    def __init__(self, http: int, ws: int, workers: int, database: str) -> None:
        from stack.stack import Stack

        env = {"YAHTZEE_BENCH_REFERENCE": "1"} | _strategy_env()
        if database == "sqlite":
            env["DATABASE_URL"] = ""  # settings fall back to SQLite in the stack's data directory
        self.stack = Stack(http=http, ws=ws, workers=workers, env=env)
        name = "SQLite" if database == "sqlite" else "PostgreSQL"
        self.describe = (
            f"scaled out (stack/stack.py): nginx, {http} gunicorn process(es) x {workers} sync "
            f"worker(s), {ws} uvicorn WebSocket process(es), {name}, Redis"
        )

    @property
    def url(self) -> str:
        return self.stack.url

    def start(self) -> ScaledOut:
        self.stack.start()
        CpuMeter.server_processes = self.processes
        return self

    def processes(self) -> dict[str, set[int]]:
        http = {pid for p in self.stack.http for pid in _tree(p.popen.pid)}
        ws = {pid for p in self.stack.ws for pid in _tree(p.popen.pid)}
        return {"gunicorn": http, "uvicorn": ws, "nginx+db+redis": self.stack.pids() - http - ws}

    def log_tail(self, lines: int = 40) -> str:
        return self.stack.log_tail(lines)

    def stop(self) -> None:
        self.stack.stop()


class Running:
    """A server someone else started (``--url``)."""

    def __init__(self, url: str) -> None:
        host = urllib.parse.urlsplit(url).hostname
        if host not in ("127.0.0.1", "localhost"):
            sys.exit("only a server on 127.0.0.1 may be loaded")
        self.url = url.rstrip("/")
        self.describe = f"running server at {self.url}"

    def start(self) -> Running:
        return self

    def log_tail(self, lines: int = 40) -> str:
        return ""

    def stop(self) -> None:
        pass


def _strategy_env() -> dict[str, str]:
    """Point the server at the solved tables when this checkout has them (read only)."""
    strategy = Path(os.environ.get("YAHTZEE_STRATEGY_DIR", ROOT / "var" / "strategy"))
    return {"YAHTZEE_STRATEGY_DIR": str(strategy)} if any(strategy.glob("*.npy")) else {}


def _bench_env() -> dict[str, str]:
    env = dict(os.environ) | {"DJANGO_SETTINGS_MODULE": "yahtzee_site.settings"}
    return env | {"YAHTZEE_BENCH_REFERENCE": "1"} | _strategy_env()


# -- the report --------------------------------------------------------------------------------


def action_table(actions: dict) -> list[str]:
    lines = [f"  {'action':<10}{'count':>8}{'per s':>9}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}"]
    for kind, figures in actions.items():
        if not figures.get("count"):
            lines.append(f"  {kind:<10}{0:>8}")
            continue
        lines.append(
            f"  {kind:<10}{figures['count']:>8}{figures.get('per_s', ''):>9}"
            f"{figures['p50_ms']:>9.1f}{figures['p95_ms']:>9.1f}"
            f"{figures['p99_ms']:>9.1f}{figures['max_ms']:>9.1f}"
        )
    return lines


def push_line(push: dict) -> list[str]:
    """The live-push latency of a phase, if any move was pushed."""
    if not push.get("count"):
        return []
    return [
        f"  push to the other seat: p50 {push['p50_ms']:.1f} ms, p95 {push['p95_ms']:.1f} ms, "
        f"p99 {push['p99_ms']:.1f} ms, max {push['max_ms']:.1f} ms ({push['count']} moves)"
    ]


def phase_footer(result: dict) -> list[str]:
    cpu = result["cpu"]
    lines = [
        f"  errors: {sum(result['errors'].values())} {result['errors'] or ''}".rstrip(),
        *(f"    e.g. {sample}" for sample in result["error_samples"]),
        f"  CPU (cores): client {cpu['client_core_share']:.2f}"
        + "".join(f", {name} {cores:.2f}" for name, cores in cpu.get("server_cores", {}).items())
        + f"; whole machine {cpu['machine_busy_share']:.0%} busy",
    ]
    return lines


def report(results: dict) -> str:
    out = [f"Server: {results['server']}", f"Machine: {results['machine']}", ""]
    if "assets" in results:
        out.append("First visit, empty cache (Accept-Encoding: gzip, deflate, br):")
        out.append(
            f"  {'page':<13}{'requests':>9}{'transferred':>13}{'+headers':>10}"
            f"{'HTML':>9}{'HTML gz':>9}  HTML encoding"
        )
        for page in results["assets"]:
            out.append(
                f"  {page['page']:<13}{page['requests']:>9}{page['body_bytes'] / 1024:>10.1f} KB"
                f"{page['wire_bytes'] / 1024:>7.1f} KB{page['html_bytes'] / 1024:>6.1f} KB"
                f"{page['html_gzip_bytes'] / 1024:>6.1f} KB  {page['html_encoding']}"
            )
        for page in results["assets"][:1]:
            for line in page["files"]:
                out.append(
                    f"    {line['path']:<58}{line['encoding']:>6}{line['body'] / 1024:>7.1f} KB"
                )
        out.append("  (HTML gz: the page gzipped here, to compare with raw HTML; target 30 KB)")
        out.append("")
    if "saturation" in results:
        real, ref = results["saturation"]["real"], results["saturation"]["reference"]
        out.append(
            f"Saturation: {real['games']} online games at once, as fast as answers come, "
            f"{real['seconds_measured']} s measured ({real['games_finished']} games finished):"
        )
        out += action_table(real["actions"])
        out += push_line(real["push"])
        out += phase_footer(real)
        out.append(f"Reference action: {ref['clients']} clients, {ref['fragment_bytes']} B each:")
        out += action_table(ref["actions"])
        out += phase_footer(ref)
        out.append(
            f"  real/reference throughput: {results['saturation']['ratio']:.2f} (target >= 0.8)"
        )
        out.append("")
    if "human" in results:
        human = results["human"]
        out.append(
            f"Human pace: {human['games'] * 2} players in {human['games']} games, the player "
            f"to move acts every {results['pace']} s, {human['seconds_measured']} s measured "
            f"(asked {human['games'] / results['pace']:.0f} actions/s):"
        )
        out += action_table(human["actions"])
        out += push_line(human["push"])
        out += phase_footer(human)
    if "human_reference" in results:
        ref = results["human_reference"]
        out.append(
            f"Reference action at the same rate: {ref['clients']} clients, each posting it "
            f"every {results['pace']} s:"
        )
        out += action_table(ref["actions"])
        out += phase_footer(ref)
    return "\n".join(out)


def _errors(phase: object) -> int:
    """How many errors a phase's results (or the saturation pair of them) hold."""
    if isinstance(phase, dict):
        return sum(phase.get("errors", {}).values()) + sum(map(_errors, phase.values()))
    return 0


def machine() -> str:
    model = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")), "unknown CPU",
    )  # fmt: skip
    memory = int(Path("/proc/meminfo").read_text().split()[1]) / 1024 / 1024
    load = os.getloadavg()[0]
    return f"{os.cpu_count()} cores ({model}), {memory:.0f} GiB, load average {load:.1f} at start"


# -- main --------------------------------------------------------------------------------------


async def measure(args: argparse.Namespace, base: str) -> dict:
    labels = Labels()
    results: dict = {}
    phases = set(args.phases.split(","))
    if "assets" in phases:
        results["assets"] = await run_assets(base, labels)
    if "saturation" in phases:
        await check_reference(base)
        games = await start_games(base, args.games, labels)
        real = await run_games(base, games, labels, args.seconds, args.warmup, None)
        await asyncio.sleep(1)  # let the last pushes and closings settle
        ref = await run_reference(base, args.games, args.seconds, args.warmup)
        ratio = real["actions"]["all"]["per_s"] / max(0.1, ref["actions"]["reference"]["per_s"])
        results["saturation"] = {"real": real, "reference": ref, "ratio": round(ratio, 2)}
        await asyncio.sleep(1)
    if "human" in phases:
        if args.human_reference:  # before the games, so that a missing one costs no run
            await check_reference(base)
        games = await start_games(base, args.players // 2, labels)
        results["human"] = await run_games(
            base, games, labels, args.human_seconds, args.warmup, args.pace
        )
        results["pace"] = args.pace
        if args.human_reference:  # the least any action costs at that pace: a floor
            await asyncio.sleep(1)  # let the last pushes and closings settle
            results["human_reference"] = await run_reference(  # as many actions a second
                base, args.players // 2, args.human_seconds, args.warmup, args.pace
            )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", help="a running server on 127.0.0.1 (with the reference action)")
    where.add_argument("--stack", action="store_true", help="start stack/stack.py's scaled-out set")
    parser.add_argument("--database", choices=["sqlite", "postgres"], help="default: sqlite "
                        "embedded, postgres with --stack (throwaway either way)")  # fmt: skip
    parser.add_argument("--http", type=int, default=2, help="--stack: gunicorn processes")
    parser.add_argument("--ws", type=int, default=2, help="--stack: uvicorn WebSocket processes")
    parser.add_argument("--workers", type=int, default=1, help="--stack: sync workers each")
    parser.add_argument("--phases", default="assets,saturation,human")
    parser.add_argument(
        "--moves",
        choices=["socket", "http"],
        default="socket",
        help="moves over the page's socket (as pages with JavaScript send them) or posted",
    )
    parser.add_argument("--games", type=int, default=8, help="saturation: games at once")
    parser.add_argument("--seconds", type=float, default=20, help="saturation: each half")
    parser.add_argument("--players", type=int, default=64, help="human pace: players")
    parser.add_argument("--pace", type=float, default=0.5, help="human pace: seconds per action")
    parser.add_argument("--human-seconds", type=float, default=30)
    parser.add_argument(
        "--human-reference",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="human pace: then one client a game posts the reference action at that pace",
    )
    parser.add_argument("--warmup", type=float, default=2, help="seconds not measured per phase")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON (-: stdout)")
    args = parser.parse_args()
    OnlineGame.over = args.moves
    unknown = set(args.phases.split(",")) - {"assets", "saturation", "human"}
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")

    if args.url:
        server = Running(args.url)
    elif args.stack:
        server = ScaledOut(args.http, args.ws, args.workers, args.database or "postgres")
    else:
        server = Embedded(args.database or "sqlite")
    where_run = machine()
    print(f"Starting: {server.describe}", file=sys.stderr, flush=True)
    server.start()
    try:
        results = asyncio.run(measure(args, server.url))
        failed = any(_errors(phase) for phase in results.values())
    except BaseException:
        failed = True
        raise
    finally:
        if failed and (tail := server.log_tail()):
            print(f"Errors: the server's log ends with\n{tail}", file=sys.stderr)
        server.stop()
    server_run = f"{server.describe}; moves over {args.moves}"
    results = {"server": server_run, "machine": where_run, "date": time.strftime("%F")} | results
    print(report(results))
    if args.json == "-":
        print(json.dumps(results, indent=2))
    elif args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
