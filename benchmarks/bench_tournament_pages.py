"""How soon a game's end shows on every open page of a big arena: the standings redrawn on 200
pages (issue 31: within 1 s p95 of a game's end).

    .venv/bin/python benchmarks/bench_tournament_pages.py [--players 200] [--pages 200] [--ends 20]
        [--no-compression]

On the embedded default (one uvicorn process, SQLite, the in-memory channel layer, a throwaway
data directory): an arena of ``--players`` players is made, joined and started through the
services (in this process, on the server's database), which pairs them all; ``--pages`` of
them open the tournament's page (its socket, with their own session, as their browsers would).
Then, one at a time, a player of a game under way resigns it (the resign form's POST, over HTTP
to the server): the game ends, the tournament records the result, the standings are redrawn
once and pushed to every page, and both players are paired again. For each end, every page's
time from the POST sent to the first push whose standings show that player's loss, each
socket's frames timestamped as they arrive by a task of its own. Reported: over all pages and
ends (p50/p95/max), and per end the time until the last page had it (p50/p95/max).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.bench_live import percentile  # noqa: E402
from tests.servers import Server  # noqa: E402

CSRF = "b" * 32  # a CSRF secret of our own: Django takes the cookie's secret as the header's token
END_TIMEOUT = 15.0  # seconds an end may take to reach every page before the run gives up


def setup(players: int) -> tuple[str, list[tuple[str, str]]]:
    """The arena, started (everyone paired); each player's (visitor, session key)."""
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore

    from games.names import look_alike_key
    from lobby.models import Player
    from tournaments import services
    from tournaments.services import TournamentOptions

    people = []
    for number in range(players):
        visitor, name = f"bench-{number:03}", f"Player {number:03}"
        Player.objects.create(visitor=visitor, name=name, name_key=look_alike_key(name))
        session = SessionStore()
        session["visitor"] = visitor
        session.create()
        people.append((visitor, session.session_key))
    options = TournamentOptions(
        name="Big arena", format="arena", minutes=240, turn_seconds=120, capacity=players
    )
    arena = services.create(people[0][0], options)
    for visitor, _ in people:
        services.join(arena.pk, visitor)
    services.start_now(arena.pk, people[0][0])
    return arena.pk, people


def game_to_end(tournament_id: str, used: set[str]) -> tuple[str, str, int, int] | None:
    """A game under way, not ended before: (game id, the resigner's visitor, seat, entry id)."""
    from tournaments.models import TournamentGame

    under_way = TournamentGame.objects.filter(
        tournament_id=tournament_id, finished_at__isnull=True
    ).exclude(game_id__in=used)
    row = under_way.select_related("entry__player", "game").order_by("?").first()
    if row is None:
        return None
    visitor = row.entry.player.visitor
    seat = row.game.seat_of(visitor)
    return row.game_id, visitor, seat.position, row.entry_id


def resign(base: str, session: str, game_id: str, position: int) -> int:
    request = urllib.request.Request(
        f"{base}/game/{game_id}/resign/",
        data=f"seat={position}".encode(),
        headers={"Cookie": f"sessionid={session}; csrftoken={CSRF}", "X-CSRFToken": CSRF},
    )
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Page:
    """One open tournament page: its socket, every frame timestamped as it arrives."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.frames: list[tuple[float, str]] = []
        self.arrived = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for frame in self.socket:
            self.frames.append((time.time(), frame))
            self.arrived.set()

    def shown_at(self, since: float, entry: int) -> float | None:
        """When this page was first sent standings in which ``entry`` has lost a game."""
        row = re.compile(rf'<tr data-entry="{entry}"[^>]*>(.*?)</tr>', re.S)
        for at, frame in self.frames:
            if at < since:
                continue
            found = row.search(frame)
            if found and re.search(r">\d+-\d+-[1-9]\d*<", found[1]):
                return at
        return None


async def open_pages(
    base: str, tournament_id: str, sessions: list[str], compressed: bool
) -> list[Page]:
    url = base.replace("http://", "ws://") + f"/ws/tournament/{tournament_id}/"
    pages = []
    for session in sessions:
        socket = await websockets.connect(
            url,
            origin=base,
            additional_headers={"Cookie": f"sessionid={session}"},
            max_size=None,
            compression="deflate" if compressed else None,
            open_timeout=30,
        )
        page = Page(socket)
        await asyncio.wait_for(page.arrived.wait(), 30)  # its catch-up
        pages.append(page)
    return pages


async def run(base: str, tournament_id: str, people, args) -> tuple[list[float], list[float]]:
    sessions = dict(people)
    keys = [key for _, key in people[: args.pages]]
    pages = await open_pages(base, tournament_id, keys, not args.no_compression)
    print(f"{len(pages)} pages open")
    per_page, per_end, used = [], [], set()
    for _ in range(args.ends):
        await asyncio.sleep(0.5)  # the previous end's pairings pushed and settled
        picked = await asyncio.to_thread(game_to_end, tournament_id, used)
        if picked is None:
            break
        game_id, visitor, position, entry = picked
        used.add(game_id)
        sent = time.time()
        status = await asyncio.to_thread(resign, base, sessions[visitor], game_id, position)
        assert status == 302, status
        deadline = time.monotonic() + END_TIMEOUT
        while time.monotonic() < deadline:
            times = [page.shown_at(sent, entry) for page in pages]
            if all(t is not None for t in times):
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(f"an end reached {sum(t is not None for t in times)} pages")
        lags = [t - sent for t in times]
        per_page += lags
        per_end.append(max(lags))
    for page in pages:
        await page.socket.close()
    return per_page, per_end


def ms(values: list[float]) -> str:
    return " / ".join(
        f"{1000 * v:.0f}"
        for v in (statistics.median(values), percentile(values, 0.95), max(values))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--ends", type=int, default=20)
    # Browsers ask for permessage-deflate, as this client does by default; each page's frame is
    # then compressed by the server and inflated here, all 200 in this one process.
    parser.add_argument("--no-compression", action="store_true")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="bench-tournament-"))
    server = Server(data)  # migrates the data directory's database
    # This process makes the arena on the server's database: its data directory's SQLite, or on
    # PostgreSQL (DATABASE_URL, as scripts/test's second pass runs) the database made for it.
    os.environ |= {
        key: server.env[key]
        for key in ("YAHTZEE_DATA_DIR", "DJANGO_SETTINGS_MODULE", "DATABASE_URL")
        if key in server.env
    }
    started = time.monotonic()
    tournament_id, people = setup(args.players)
    print(f"arena of {args.players} made, joined and paired in {time.monotonic() - started:.1f} s")
    with server:
        per_page, per_end = asyncio.run(run(server.url, tournament_id, people, args))
    print(f"game ends: {len(per_end)}, pages: {args.pages} (ms, p50 / p95 / max)")
    print(f"  each page, from the resign sent to its new standings: {ms(per_page)}")
    print(f"  each end, until the last page had them:              {ms(per_end)}")
    print("  each end's, in order:", " ".join(f"{1000 * t:.0f}" for t in per_end))


if __name__ == "__main__":
    main()
