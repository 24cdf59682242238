"""Start the scaled-out stack on loopback and keep it running until Ctrl-C.

    python -m devstack [--http 2] [--ws 2] [--port 8000] [--workers 1]

(``scripts/stack`` sets up the environment and runs this.) Prints the main URL and one URL per
pair of processes; stops everything on Ctrl-C, SIGTERM or SIGHUP, or when a server dies.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time

from devstack.stack import ROOT, Stack


def _stop_on(signum: int, _frame) -> None:
    # One signal is enough: ignore the next ones while everything shuts down in order.
    for other in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(other, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devstack", description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, default=2, help="gunicorn processes (default 2)")
    parser.add_argument("--ws", type=int, default=2, help="uvicorn WebSocket processes (default 2)")
    parser.add_argument("--port", type=int, default=8000, help="the main port (default 8000)")
    parser.add_argument(
        "--workers", type=int, default=1, help="sync workers per gunicorn process (default 1)"
    )
    args = parser.parse_args(argv)
    # The computer's tables are the same for every database: share them with scripts/serve.
    os.environ.setdefault("YAHTZEE_STRATEGY_DIR", str(ROOT / "var" / "strategy"))
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop_on)

    stack = Stack(http=args.http, ws=args.ws, port=args.port, workers=args.workers, solve=True)
    print("Starting PostgreSQL, Redis, gunicorn, uvicorn and nginx...", flush=True)
    try:
        with stack:
            print(describe(stack), flush=True)
            while not (dead := stack.dead()):
                time.sleep(0.5)
            print(f"{', '.join(dead)} stopped; stopping the rest.\n{stack.log_tail()}", flush=True)
            return 1
    except KeyboardInterrupt:
        print("Stopped everything.", flush=True)
        return 0
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1


def describe(stack: Stack) -> str:
    """The URLs of a running stack, for people."""
    assert stack.postgres is not None and stack.redis is not None
    lines = [
        f"Yahtzee at {stack.url}/  (nginx over {len(stack.http)} HTTP and "
        f"{len(stack.ws)} WebSocket processes)",
    ]
    for i, url in enumerate(stack.pair_urls):
        http = stack.http[i % len(stack.http)]
        ws = stack.ws[i % len(stack.ws)]
        lines.append(
            f"  pair {i + 1}: {url}/  ({http.name} gunicorn on :{http.port}, "
            f"{ws.name} uvicorn on :{ws.port})"
        )
    lines += [
        f"  PostgreSQL {stack.postgres.url('yahtzee')}",
        f"  Redis {stack.redis.url}",
        f"  logs in {stack.directory / 'logs'}",
        "Ctrl-C stops everything.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
