"""The leaderboard and a profile page against the home page, with many profiles and games.

    .venv/bin/python benchmarks/bench_profiles.py [--profiles 10000] [--games 100000] [--reps 200]

Issue 17 asks that, with 10,000 profiles and 100,000 games, the leaderboard and a profile page
take at most 1.5x the server time of the home page in the same run. This builds that many in a
throwaway data directory (SQLite; two seats a finished online game, a third of them ranked with
both players' rating changes, every profile's welcome grant, a quarter of the profiles with an
established rating), then asks Django for each page in turn through its test client (the whole
middleware stack, sessions, templates; no sockets) as a player with a profile: the home page, the
leaderboard, the busiest profile (the most games) and a quiet one. Times are wall time of each
request, p50 and p95 over ``--reps`` rounds, after a warm-up, and each page's p50 and p95 as a
ratio of the home page's. DEBUG is off (the cached template loader, as in production).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BATCH = 5000


def populate(profiles: int, games: int) -> tuple[int, int]:
    """Bulk-create the profiles and games; the pks of the busiest and of a quiet profile."""
    from django.utils import timezone

    from engine import rating as ratings
    from games.models import Game, Seat
    from lobby.models import DiamondEntry, Player, RatingChange

    now = timezone.now()
    rng = random.Random(17)
    players = []
    for n in range(profiles):
        key = f"player {n}"
        player = Player(visitor=f"v{n:06}", name=f"Player {n}", name_key=key, name_fold=key)
        player.created_at = now - timedelta(days=rng.randrange(365))
        player.diamonds = 500
        if n % 4 == 0:  # established: rated within the last few days
            player.rating = ratings.Rating(
                rng.gauss(1500, 250), 60 + rng.random() * 40, 0.06, now - timedelta(days=2)
            )
        players.append(player)
    Player.objects.bulk_create(players, batch_size=BATCH)
    players = list(Player.objects.order_by("pk"))
    DiamondEntry.objects.bulk_create(
        (DiamondEntry(player=p, amount=500, reason="grant", balance_after=500) for p in players),
        batch_size=BATCH,
    )
    # The busiest profile plays one game in 20; everyone else picks opponents at random.
    busiest = players[0]
    for start in range(0, games, BATCH):
        chunk = range(start, min(start + BATCH, games))
        made, seats, changes = [], [], []
        for n in chunk:
            a = busiest if n % 20 == 0 else rng.choice(players)
            b = rng.choice(players)
            while b.pk == a.pk:
                b = rng.choice(players)
            game = Game(
                id=f"g{n:010}", mode=Game.Mode.ONLINE, status=Game.Status.FINISHED,
                ranked=n % 3 == 0,
            )  # fmt: skip
            made.append(game)
            for position, player in enumerate((a, b)):
                scores = [rng.randrange(0, 30) for _ in range(13)]
                seats.append(
                    Seat(
                        game=game, position=position, name=player.name, visitor=player.visitor,
                        scores=scores,
                    )
                )  # fmt: skip
                if game.ranked:
                    before = 1500 + rng.gauss(0, 100)
                    changes.append(
                        RatingChange(
                            player=player, game=game, value_before=before,
                            value_after=before + rng.gauss(0, 15), deviation_after=80,
                            score=float(position == 0), created_at=now - timedelta(minutes=n),
                        )
                    )  # fmt: skip
        Game.objects.bulk_create(made)
        Seat.objects.bulk_create(seats)
        RatingChange.objects.bulk_create(changes)
    quiet = players[-1]
    return busiest.pk, quiet.pk


def time_pages(client, pages: dict[str, str], reps: int) -> dict[str, list[float]]:
    """Each page's request times in ms, asked in turn, after five warm-up rounds."""
    times = {name: [] for name in pages}
    for round_ in range(reps + 5):
        for name, url in pages.items():
            start = time.perf_counter_ns()
            response = client.get(url)
            elapsed = (time.perf_counter_ns() - start) / 1e6
            assert response.status_code == 200, (url, response.status_code)
            if round_ >= 5:
                times[name].append(elapsed)
    return times


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
    os.environ["YAHTZEE_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-profiles-")
    # The home page's coach needs the strategy table: the repository's, not one built meanwhile.
    strategy = Path(__file__).resolve().parent.parent / "var" / "strategy"
    os.environ.setdefault("YAHTZEE_STRATEGY_DIR", str(strategy))
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("DEBUG", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    busiest, quiet = populate(args.profiles, args.games)
    print(f"built {args.profiles:,} profiles and {args.games:,} games in "
          f"{time.perf_counter() - started:.1f} s")  # fmt: skip

    client = Client()
    session = client.session
    session["visitor"] = "v000001"  # a player with a profile, looking around
    session.save()
    pages = {
        "home page": "/",
        "leaderboard": "/leaderboard/",
        "busiest profile": f"/p/{busiest}/",
        "a quiet profile": f"/p/{quiet}/",
    }
    times = time_pages(client, pages, args.reps)
    home = times["home page"]
    print(f"{'page':<18} {'p50 ms':>8} {'p95 ms':>8} {'p50 / home':>11} {'p95 / home':>11}")
    for name, values in times.items():
        p50 = statistics.median(values)
        print(
            f"{name:<18} {p50:8.2f} {p95(values):8.2f} "
            f"{p50 / statistics.median(home):10.2f}x {p95(values) / p95(home):10.2f}x"
        )


if __name__ == "__main__":
    main()
