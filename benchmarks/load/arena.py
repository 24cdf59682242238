"""The arena phase (issue 31): players in one arena tournament, playing at human pace the games
it pairs them into, until it ends.

A maker goes online and makes the arena through the "new tournament" form; each player opens
its page, joins through its form (choosing a name there, as a newcomer with the link does) and
opens its socket, as tournament.js does; the maker starts it. From then on the tournament pairs:
a player's page is pushed "your game starts now" with the game's link, and when both players
of a game have been told, the two play it through the game's page and socket exactly as the
``human`` phase's games are played (``games.OnlineGame``), the player to move acting every
``pace`` seconds. When a game ends the arena pairs its players again (``tournaments.clock``),
never with the opponent they just played; at the arena's end no one is paired and the games
under way are played to their end. Every move sent counts, the last games' too.

The arena's minutes are the form's (10 at least), sped up on the server by
``TURN_TIMER_SPEED`` (set here for the servers the benchmark starts; a ``--url`` server must be
started with the same value), which shortens its turn timer alike: the longest, 120 s, is
chosen, 24 s a turn at a speed of 5, where a turn at human pace takes four actions, 2 s at the
default pace, so that only a stalled server runs a turn out (an error here).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, WebSocketException

from benchmarks.load.client import (
    KINDS,
    PUSH_GRACE,
    SETUP_AT_ONCE,
    SETUP_TIMEOUT,
    SetupFailed,
    Visitor,
)
from benchmarks.load.games import (
    Labels,
    OnlineGame,
    close_page_socket,
    open_page_socket,
    push_summary,
)
from benchmarks.load.recording import CpuMeter, Recorder, result_of

YOUR_GAME = re.compile(r'href="/game/([\w-]+)/" data-your-game')
TOURNAMENT = re.compile(r"/tournament/([\w-]+)/")
STATUS = re.compile(r'id="t-status-title">([^<]*)<')
# A game's 26 turns of four actions at the pace, and a margin for a loaded server.
GAME_ACTIONS = 26 * 4
LAST_GAME_MARGIN = 60.0  # seconds
# A game's last move (its last score) is recorded apart: it ends the game, and the tournament
# records the result, pairs its players again and redraws its pages.
LAST_MOVE = "last score"


class Entrant:
    """A player of the arena: the browser, its tournament page's socket and the games it was
    told of."""

    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor
        self.socket: ClientConnection | None = None
        self.listener: asyncio.Task | None = None
        self.told: asyncio.Queue[str] = asyncio.Queue()  # game ids, as pushed
        self.seen: set[str] = set()
        self.pushes = 0  # every message the tournament page was sent (standings, ...)

    async def join(self, base: str, tournament_id: str, name: str) -> None:
        page = f"/tournament/{tournament_id}/"
        await self.visitor.expect(200, "GET", page)
        await self.visitor.expect(302, "POST", f"{page}join/", {"name": name})

    async def open_socket(self, base: str, tournament_id: str) -> None:
        path = f"/ws/tournament/{tournament_id}/"
        self.socket = await open_page_socket(self.visitor, base, path)
        self.listener = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in self.socket:
                self.pushes += 1
                for game_id in YOUR_GAME.findall(message):
                    if game_id not in self.seen:
                        self.seen.add(game_id)
                        self.told.put_nowait(game_id)

    async def close(self) -> None:
        await close_page_socket(self.socket, self.listener)
        self.visitor.close()


async def make_arena(base: str, players: int, minutes: int, name: str) -> tuple[Visitor, str]:
    """The maker, online, and the id of the arena they made (anyone with the link may join)."""
    maker = Visitor(base)
    await maker.expect(200, "GET", "/online/")
    await maker.expect(302, "POST", "/online/name/", {"name": f"{name}maker"})
    await maker.expect(200, "GET", "/tournaments/new/")
    form = {
        "name": f"{name}arena", "format": "arena", "group": "", "start": "now",
        "minutes": minutes, "rounds": 5, "best_of": 1, "turn_seconds": 120, "entry_fee": 0,
        "capacity": players, "computer": "",
    }  # fmt: skip
    where = TOURNAMENT.search(await maker.expect(302, "POST", "/tournaments/new/", form))
    if where is None:
        raise SetupFailed("the new arena's page was not where the form sent its maker")
    return maker, where[1]


async def run_arena(
    base: str, players: int, minutes: int, speed: float, pace: float, warmup: float, labels: Labels
) -> dict:
    """Make an arena, let ``players`` join and play it through at ``pace`` until it ends."""
    maker, tournament_id = await make_arena(base, players, minutes, labels.next())
    gate = asyncio.Semaphore(SETUP_AT_ONCE)

    async def entrant() -> Entrant:
        async with gate:
            one = Entrant(Visitor(base))
            await asyncio.wait_for(one.join(base, tournament_id, labels.next()), SETUP_TIMEOUT)
            await asyncio.wait_for(one.open_socket(base, tournament_id), SETUP_TIMEOUT)
            return one

    everyone = list(await asyncio.gather(*(entrant() for _ in range(players))))
    await maker.expect(302, "POST", f"/tournament/{tournament_id}/start/", {})
    start = time.perf_counter()
    ends = start + minutes * 60 / speed
    last_move = ends + GAME_ACTIONS * pace + LAST_GAME_MARGIN
    record = Recorder(measure_from=start + warmup, until=ends)
    meeting: dict[str, list[Visitor]] = {}
    played: list[asyncio.Task] = []
    games: list[OnlineGame] = []

    async def play(game_id: str, pair: list[Visitor]) -> bool:
        try:
            game = await asyncio.wait_for(OnlineGame.seated(base, game_id, pair), SETUP_TIMEOUT)
            await asyncio.wait_for(game.open_sockets(), SETUP_TIMEOUT)
        except (SetupFailed, OSError, TimeoutError, WebSocketException) as error:
            record.error("setup", f"{type(error).__name__}: {error}")
            return False
        games.append(game)
        game.last_label = LAST_MOVE
        finished = await game.play(last_move, pace, record)
        await game.close(wait=PUSH_GRACE, keep_browsers=True)  # they may be playing again
        return finished

    async def follow(player: Entrant) -> None:
        """Go to each game the page is told of; a game starts once both its players are told."""
        while (left := ends + PUSH_GRACE - time.perf_counter()) > 0:
            try:
                game_id = await asyncio.wait_for(player.told.get(), left)
            except TimeoutError:
                return
            pair = meeting.setdefault(game_id, [])
            pair.append(player.visitor)
            if len(pair) == 2:
                played.append(asyncio.create_task(play(game_id, pair)))

    cpu = CpuMeter()
    await asyncio.gather(*(follow(player) for player in everyone))
    finished = sum(await asyncio.gather(*played))
    usage = cpu.read()
    alone = sum(1 for pair in meeting.values() if len(pair) == 1)
    if alone:  # a game whose other player was never told (or not in time)
        record.error("setup", f"{alone} games with only one player told")
    status = await maker.expect(200, "GET", f"/tournament/{tournament_id}/")
    push = push_summary(games, record)
    for player in everyone:
        await player.close()
    maker.close()
    return result_of(record, (*KINDS, LAST_MOVE), usage) | {
        "players": players,
        "arena_seconds": round(ends - start, 1),
        "games": len(games),
        "games_finished": finished,
        "tournament_pushes": sum(player.pushes for player in everyone),
        "status_at_the_end": (found[1] if (found := STATUS.search(status)) else "?"),
        "push": push,
    }
