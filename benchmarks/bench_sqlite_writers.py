"""How long a move's transaction takes when several threads of one process write at once, with the
project's SQLite backend (writers queue on a lock) and with Django's (SQLite's busy handler).

    .venv/bin/python benchmarks/bench_sqlite_writers.py [--threads 5] [--moves 600] [--rounds 2]

``--threads`` threads (the embedded server's mover threads and its request thread) each write
``--moves`` move-shaped transactions (take the write lock, read a game's row, update it, append
an action), one every ``--pace`` seconds, to one database file in ``var/``. Prints the
percentiles of a transaction's time, from asking for the write lock to the end of its commit.
Each round runs both backends, in alternating order; compare within one run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def settings_for(name: str) -> dict:
    """The embedded default's database settings for the file ``name``."""
    return {
        "ENGINE": "backends.sqlite", "NAME": name,
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20,
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        "ATOMIC_REQUESTS": False, "AUTOCOMMIT": True, "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False, "TIME_ZONE": None, "TEST": {}, "USER": "", "PASSWORD": "",
        "HOST": "", "PORT": "",
    }  # fmt: skip


def run(wrapper: type, threads: int, moves: int, pace: float) -> list[float]:
    """Transaction times in ms of every thread's moves on a new database file."""
    directory = Path(tempfile.mkdtemp(prefix="bench-writers-", dir=ROOT / "var"))
    settings = settings_for(str(directory / "db.sqlite3"))
    setup = wrapper(settings, alias="setup")
    with setup.cursor() as cursor:
        cursor.execute("CREATE TABLE game (id INTEGER PRIMARY KEY, step INT, dice TEXT, pad TEXT)")
        cursor.execute("CREATE TABLE action (id INTEGER PRIMARY KEY, game INT, payload TEXT)")
        for game in range(32):
            cursor.execute("INSERT INTO game VALUES (%s, 0, '[]', %s)", [game, "x" * 600])
    setup.close()
    times: list[float] = []
    payload = json.dumps({"dice": [1, 2, 3, 4, 5], "held": [True] * 5})

    def writer(number: int) -> None:
        connection = wrapper(settings, alias=f"writer-{number}")
        mine = []
        for n in range(moves):
            game = (number * 7 + n) % 32
            start = time.perf_counter()
            connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
            with connection.cursor() as cursor:
                cursor.execute("SELECT * FROM game WHERE id = %s", [game])
                cursor.fetchall()
                cursor.execute("UPDATE game SET step = step + 1 WHERE id = %s", [game])
                cursor.execute("INSERT INTO action (game, payload) VALUES (%s, %s)",
                               [game, payload])  # fmt: skip
            connection.commit()
            connection.set_autocommit(True)
            mine.append((time.perf_counter() - start) * 1000)
            time.sleep(pace)
        connection.close()
        times.extend(mine)

    workers = [threading.Thread(target=writer, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    for path in directory.iterdir():
        path.unlink()
    directory.rmdir()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=5)
    parser.add_argument("--moves", type=int, default=600, help="transactions per thread")
    parser.add_argument("--pace", type=float, default=0.002, help="seconds between a thread's")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    import django
    from django.conf import settings
    from django.db.backends.sqlite3.base import DatabaseWrapper as DjangoWrapper

    settings.configure(USE_TZ=True)
    django.setup()
    from backends.sqlite.base import DatabaseWrapper as ProjectWrapper

    backends = {"a lock (the site)": ProjectWrapper, "busy handler (Django)": DjangoWrapper}
    print(
        f"{args.threads} threads x {args.moves} move-like transactions, one every "
        f"{args.pace * 1000:.0f} ms each; ms from asking for the write lock to committed"
    )
    print(f"{'writers wait on':>24}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}{'> 20 ms':>8}")
    for round_ in range(args.rounds):
        order = list(backends.items())
        for name, wrapper in order if round_ % 2 == 0 else order[::-1]:
            times = sorted(run(wrapper, args.threads, args.moves, args.pace))
            at = [times[min(len(times) - 1, int(len(times) * q))] for q in (0.95, 0.99)]
            figures = "".join(f"{ms:8.2f}" for ms in [statistics.median(times), *at, times[-1]])
            print(f"{name:>24}{figures}{sum(t > 20 for t in times):8d}")


if __name__ == "__main__":
    main()
