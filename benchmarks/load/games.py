"""Two-player online games played through the real lobby, pages and sockets."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import random
import re
import string
import time

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from benchmarks.load.client import (
    KINDS,
    PAGE_BURST,
    PAGE_FRAMES_PER_S,
    PUSH_GRACE,
    REQUEST_TIMEOUT,
    SELECT,
    SETUP_AT_ONCE,
    SETUP_TIMEOUT,
    TURN,
    VERSION,
    SetupFailed,
    Visitor,
)
from benchmarks.load.recording import CpuMeter, Recorder, result_of, summary
from core.socket_messages import ANSWER


class Pace:
    """A page's frames on its socket kept within the server's budget (a token bucket, as
    ``games.live.moves.FrameBudget`` counts them, with a margin: ``client.PAGE_BURST``)."""

    def __init__(self, burst: int = PAGE_BURST, per_second: float = PAGE_FRAMES_PER_S) -> None:
        self.burst, self.per_second = burst, per_second
        self.tokens, self.at = float(burst), time.perf_counter()

    async def wait(self) -> None:
        """Wait until one more frame may go, and spend it."""
        while True:
            now = time.perf_counter()
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
            self.at = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / self.per_second)


async def open_page_socket(visitor: Visitor, base: str, path: str) -> ClientConnection:
    """A page's socket to ``path``, opened as the page does (its cookies, its origin)."""
    url = base.replace("http://", "ws://", 1) + path
    headers = {"Cookie": visitor.cookie_header(), "User-Agent": "bench_load"}
    return await connect(url, origin=base, additional_headers=headers, open_timeout=10)


async def close_page_socket(socket: ClientConnection | None, listener: asyncio.Task | None) -> None:
    """Close a page's socket and stop the task that listened to it."""
    if socket is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(socket.close(), 5)
    if listener is not None:
        listener.cancel()


class Seat:
    """One player of a game: the browser, its socket and what the socket received when."""

    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor
        self.pace = Pace()
        self.socket: ClientConnection | None = None
        self.listener: asyncio.Task | None = None
        self.arrivals: list[tuple[float, int]] = []  # (time, version shown), in arrival order
        self.expected: list[tuple[float, int, str]] = []  # other seat's moves: (sent, version)
        self.answers: asyncio.Queue[tuple[float, str]] = asyncio.Queue()  # to moves sent here

    async def open_socket(self, base: str, game_id: str) -> None:
        # rows=1: as a page's game.js, which swaps card rows pushed on their own.
        query = f"?tab={self.visitor.tab}&rows=1"
        self.socket = await open_page_socket(self.visitor, base, f"/ws/game/{game_id}/{query}")
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

    async def close(self, keep_browser: bool = False) -> None:
        """Close the page's socket, and the browser's connection unless it goes on elsewhere
        (a tournament's player, paired again meanwhile)."""
        await close_page_socket(self.socket, self.listener)
        if not keep_browser:
            self.visitor.close()


class OnlineGame:
    """Two fresh visitors who went online, challenged, accepted, and opened the game's page."""

    over = "socket"  # moves go over the page's socket, as pages send them; or "http": posted
    last_label = ""  # what the game's last move is recorded as ("": "score", as the others)

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
        player = re.search(rf'value="(\d+)" aria-label="Challenge {names[1]}"', lobby)
        if player is None:
            raise SetupFailed(f"{names[1]} is not in the lobby")
        await ana.expect(302, "POST", "/online/challenge/", {"player": player[1]})
        page = await bo.expect(200, "GET", "/online/")
        accept = re.search(r'action="(/online/challenge/\d+/accept/)"', page)
        if accept is None:
            raise SetupFailed(f"{names[1]} sees no challenge to accept")
        game_id = re.search(r"/game/([\w-]+)/", await bo.expect(302, "POST", accept[1], {}))[1]
        return await cls.seated(base, game_id, [ana, bo])

    @classmethod
    async def seated(cls, base: str, game_id: str, visitors: list[Visitor]) -> OnlineGame:
        """The game ``game_id`` of these two visitors, who were put into it (a challenge
        accepted, a tournament's pairing): their pages loaded to see who moves first."""
        for first, visitor in enumerate(visitors):
            page = await visitor.expect(200, "GET", f"/game/{game_id}/")
            if 'class="roll-form"' in page:  # only the seat to move has the Roll button
                step = int(re.search(r'name="step" value="(\d+)"', page)[1])
                return cls(base, game_id, [Seat(visitor) for visitor in visitors], first, step)
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

    async def act(
        self, seat: int, kind: str, data: dict, record: Recorder, label: str = ""
    ) -> str | None:
        """Post one move as htmx does; the answer's text, or None after recording an error
        (recorded as ``label``, by default the move's kind)."""
        label = label or kind
        if self.over == "socket":
            return await self.send(seat, kind, data, record, label)
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
            record.error(label, f"{type(e).__name__}: {e}")
            return None
        if answer.status != 200:
            record.error(label, f"HTTP {answer.status}")
            return None
        return self.answered(seat, label, html, sent, finished, record)

    async def send(
        self, seat: int, kind: str, data: dict, record: Recorder, label: str
    ) -> str | None:
        """Send one move over the seat's socket as the page does (its form fields as JSON)."""
        me = self.seats[seat]
        fields = {key: str(value) for key, value in data.items()} | {"move": kind}
        fields["csrfmiddlewaretoken"] = me.visitor.cookies.get("csrftoken", "")
        await me.pace.wait()  # not measured: the page's own pace, not the server's
        sent = time.perf_counter()
        try:
            await me.socket.send(json.dumps(fields))
            finished, html = await asyncio.wait_for(me.answers.get(), REQUEST_TIMEOUT)
        except (TimeoutError, WebSocketException) as e:
            record.error(label, f"{type(e).__name__}: {e}")
            return None
        if 'role="alert"' in html:
            reason = " ".join(re.sub(r"<[^>]+>", " ", html.split('role="alert">')[1]).split())[:80]
            record.error(label, f"refused: {reason}")
            return None
        return self.answered(seat, label, html, sent, finished, record)

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
        as soon as the previous answer arrives and its page's frame budget allows (``Pace``).
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
                last = kind == "score" and _turn == 13 * len(self.seats) - 1
                html = await self.act(seat, kind, data, record, self.last_label if last else "")
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

    async def close(self, wait: float = 0.0, keep_browsers: bool = False) -> None:
        """Close both pages, after waiting up to ``wait`` s for the pushes of the last moves."""
        deadline = time.perf_counter() + wait
        while time.perf_counter() < deadline and not all(s.all_shown() for s in self.seats):
            await asyncio.sleep(0.02)
        for seat in self.seats:
            await seat.close(keep_browsers)


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
    push = push_summary(everyone, record)
    return result_of(record, KINDS, usage) | {
        "games": len(games),
        "games_finished": played,
        "push": push,
    }


def push_summary(games: list[OnlineGame], record: Recorder) -> dict:
    """How soon each move reached the other seat's socket, over these games; a move that never
    did is an error."""
    pushes, missing = [], 0
    for game in games:
        for seat in game.seats:
            latencies, lost = seat.push_latencies()
            pushes += latencies
            missing += lost
    if missing:
        record.error("push", f"{missing} moves never reached the other seat's socket")
        record.errors["push"] = missing
    return summary(pushes)
