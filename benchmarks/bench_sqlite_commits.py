"""How long a move's commit takes on the embedded default's SQLite, with and without the process's
checkpointer thread (``backends/sqlite``).

    uv run python benchmarks/bench_sqlite_commits.py [--moves 3000] [--pace 0.004] [--rounds 2]

Writes ``--moves`` transactions shaped like a move (take the write lock, read a game's row,
update it, append an action) through the project's SQLite backend, one every ``--pace`` seconds,
to a database file in ``var/`` (the disk the embedded server writes to), then prints the commit
times' percentiles. Each round runs once with the checkpointer and once without it (the commit
that takes the write-ahead log past 1,000 pages then copies it into the database itself), in
alternating order; compare within one run, as the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def run(moves: int, pace: float, background: bool) -> list[float]:
    """Commit times in ms of ``moves`` move-like transactions on a new database file."""
    import backends.sqlite.base as sqlite_backend

    started = sqlite_backend.checkpointer
    if not background:
        sqlite_backend.checkpointer = lambda path: None
    directory = tempfile.mkdtemp(prefix="bench-commits-", dir=ROOT / "var")
    settings = {
        "ENGINE": "backends.sqlite",
        "NAME": str(Path(directory) / "db.sqlite3"),
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
        "ATOMIC_REQUESTS": False, "AUTOCOMMIT": True, "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False, "TIME_ZONE": None, "TEST": {}, "USER": "", "PASSWORD": "",
        "HOST": "", "PORT": "",
    }  # fmt: skip
    connection = sqlite_backend.DatabaseWrapper(settings, alias="bench")
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "CREATE TABLE game (id INTEGER PRIMARY KEY, step INT, dice TEXT, pad TEXT)"
            )
            cursor.execute(
                "CREATE TABLE action (id INTEGER PRIMARY KEY, game INT, seq INT, payload TEXT)"
            )
            cursor.execute("CREATE INDEX action_seq ON action (game, seq)")
            for game in range(32):
                cursor.execute("INSERT INTO game VALUES (%s, 0, '[]', %s)", [game, "x" * 600])
        times = []
        payload = json.dumps({"dice": [1, 2, 3, 4, 5], "held": [True] * 5})
        for n in range(moves):
            game = n % 32
            start = time.perf_counter()
            connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
            with connection.cursor() as cursor:
                cursor.execute("SELECT * FROM game WHERE id = %s", [game])
                cursor.fetchall()
                cursor.execute("UPDATE game SET step = step + 1, dice = %s WHERE id = %s",
                               ["[1, 2, 3, 4, 5]", game])  # fmt: skip
                cursor.execute("INSERT INTO action (game, seq, payload) VALUES (%s, %s, %s)",
                               [game, n, payload])  # fmt: skip
            connection.commit()
            connection.set_autocommit(True)
            times.append((time.perf_counter() - start) * 1000)
            time.sleep(pace)
        return times
    finally:
        connection.close()
        sqlite_backend.checkpointer = started
        for path in Path(directory).iterdir():
            path.unlink()
        Path(directory).rmdir()


def quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--pace", type=float, default=0.004, help="seconds between moves")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    import django
    from django.conf import settings

    settings.configure(USE_TZ=True)
    django.setup()
    print(f"{args.moves} move-like transactions a run, one every {args.pace * 1000:.0f} ms")
    print(f"{'checkpoints':>24}{'p50':>8}{'p99':>8}{'p99.9':>8}{'max':>8}{'> 5 ms':>8}")
    for round_ in range(args.rounds):
        for background in (True, False) if round_ % 2 == 0 else (False, True):
            times = sorted(run(args.moves, args.pace, background))
            where = "on a thread (the site)" if background else "in the commit"
            tail = [quantile(times, 0.99), quantile(times, 0.999), times[-1]]
            slow = sum(t > 5 for t in times)
            figures = "".join(f"{ms:8.2f}" for ms in [statistics.median(times), *tail])
            print(f"{where:>24}{figures}{slow:8d}")


if __name__ == "__main__":
    main()
