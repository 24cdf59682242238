"""Load benchmark (issue 5): whole online games through the real endpoints and sockets.

    .venv/bin/python -m benchmarks.load                      # embedded default, SQLite
    .venv/bin/python -m benchmarks.load --database postgres  # embedded, PostgreSQL
    .venv/bin/python -m benchmarks.load --stack --http 2 --ws 2  # scaled out, PostgreSQL
    .venv/bin/python -m benchmarks.load --url http://127.0.0.1:8000  # a running server

Phases (``--phases``, all by default):

- ``assets``: the first visit of the home page, a solo game page and an online game page with
  an empty cache (``Accept-Encoding: gzip, deflate, br``): bytes of the page and every asset it
  and its stylesheets reference, as transferred.
- ``saturation``: ``--games`` two-player online games at once, each player sending its roll,
  hold, roll, score as soon as its previous answer arrives and its page's frame budget allows
  (a page may send 10 frames a second after a burst; each seat keeps to 9), for ``--seconds``;
  games that end are replaced by new ones. A game then moves at most about 18 times a second:
  the load comes from the number of games, enough to keep the server busy. Then as many
  clients post the reference action (benchmarks/reference/: one row lock, one insert, a 3 KB
  fragment, through the same middleware) for as long. Prints throughput, p50/p95/p99 per
  action and the real actions' throughput as a ratio of the reference's.
- ``human``: ``--players`` players (two a game) at human pace: the player to move acts once
  every ``--pace`` seconds. Prints p50/p95/p99 per action and the live push latency: from
  sending a move's POST to the other seat's socket receiving the redrawn fragments. Then (unless
  ``--no-human-reference``) one client a game posts the reference action at that pace, as many
  actions a second. On the stack, where gunicorn serves posts, that is the floor for an action
  on this machine; the embedded server serves posts through Django's ASGI path, where the
  reference costs more than a move sent over a socket.

- ``arena`` (issue 31; best run alone, ``--phases arena``): ``--arena-players`` players join
  one arena tournament made through the "new tournament" form, open its page's socket and play
  the games it pairs them into at human pace (``--pace``) until it ends (``--arena-minutes``,
  sped up ``--arena-speed`` times on the server, turn timer too: ``benchmarks/load/arena.py``).
  Prints p50/p95/p99 per action, the push to the other seat, every move served (errors), then
  (unless ``--no-human-reference``) the reference action at the same rate, one client a game
  at the pace, and the real p99 over the reference's (the issue: at most 2x).

Players go online, challenge and accept through the real lobby endpoints (fresh visitors per
game, so no rate limit is hit), open the game's WebSocket as a page does and post forms as htmx
does. The client is lean on purpose (raw asyncio streams for HTTP, the ``websockets`` package for
sockets, one process): it prints its own CPU use so that a saturated client shows. It handles
keep-alive and ``Connection: close`` (gunicorn's sync workers) alike. Every request has a
timeout and every phase a deadline; only 127.0.0.1 is loaded.

A server given with ``--url`` must run with ``DJANGO_SETTINGS_MODULE=benchmarks.settings`` (and
have migrated with it) for the reference action; the embedded default and ``--stack`` are started
that way, with static files collected and compressed as ``scripts/serve`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

from benchmarks.load.arena import run_arena
from benchmarks.load.assets import run_assets
from benchmarks.load.games import Labels, OnlineGame, run_games, start_games
from benchmarks.load.reference import check_reference, run_reference
from benchmarks.load.report import error_count, machine, report
from benchmarks.load.servers import Embedded, Running, ScaledOut


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
    if "arena" in phases:
        if args.human_reference:
            await check_reference(base)
        results["arena"] = await run_arena(
            base,
            args.arena_players,
            args.arena_minutes,
            args.arena_speed,
            args.pace,
            args.warmup,
            labels,
        )
        results["pace"] = args.pace
        if args.human_reference:
            await asyncio.sleep(1)
            results["arena_reference"] = await run_reference(
                base, args.arena_players // 2, args.human_seconds, args.warmup, args.pace
            )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.load",
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", help="a running server on 127.0.0.1 (with the reference action)")
    where.add_argument("--stack", action="store_true", help="start devstack's scaled-out stack")
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
    parser.add_argument("--games", type=int, default=32, help="saturation: games at once")
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
    parser.add_argument("--arena-players", type=int, default=50, help="arena: players")
    parser.add_argument("--arena-minutes", type=int, default=10, help="arena: its length")
    parser.add_argument(
        "--arena-speed",
        type=float,
        default=5.0,
        help="arena: the servers' TURN_TIMER_SPEED (the arena and its turns that much shorter)",
    )
    parser.add_argument("--warmup", type=float, default=2, help="seconds not measured per phase")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON (-: stdout)")
    args = parser.parse_args()
    OnlineGame.over = args.moves
    unknown = set(args.phases.split(",")) - {"assets", "saturation", "human", "arena"}
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")

    if "arena" in args.phases.split(",") and not args.url:
        os.environ["TURN_TIMER_SPEED"] = str(args.arena_speed)  # the servers started inherit it
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
        failed = any(error_count(phase) for phase in results.values())
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
