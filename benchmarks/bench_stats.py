"""A profile with 1,000 finished games: its page (with the stats) and My games against a game page.

    .venv/bin/python benchmarks/bench_stats.py [--games 1000] [--reps 200]

Issue 18 asks that the stats page of a profile with 1,000 games take at most 2x the server time
of the game page in the same run. This builds, in a throwaway data directory (SQLite), one
profile's games: half solo, the rest online against other profiles (a third of those ranked),
each finished with a full card and its ``history.Summary`` as the finish writes it, plus the
rated games' rating changes; and a solo game in play, whose page is the reference. Then it asks
Django for each page in turn through its test client (the whole middleware stack, sessions,
templates; no sockets) as that player: the game page, the profile page (its solo and online
stats, charts, last games), the profile page of a player without games (what the page costs
without any), My games (first page) and My games filtered to online. Times are wall
time of each request, p50 and p95 over ``--reps`` rounds after a warm-up, and each page's p50
and p95 as a ratio of the game page's. DEBUG is off (the cached template loader, as in production).
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

from benchmarks.bench_profiles import p95, time_pages  # noqa: E402

ME = "v-stats-000"
TARGET = 2.0  # issue 18: the stats page at most 2x the server time of the game page (p50)
OPPONENTS = 50


def full_card(rng: random.Random) -> tuple[list[int], int]:
    """A plausible filled card (13 boxes) and its Yahtzee bonus."""
    upper = [face * rng.choice((1, 2, 3, 3, 4)) for face in range(1, 7)]
    lower = [
        rng.choice((0, 15, 20, 25)),
        rng.choice((0, 0, 12, 20)),
        rng.choice((0, 25)),
        rng.choice((0, 30)),
        rng.choice((0, 40)),
        rng.choice((0, 0, 0, 50)),
        rng.randrange(15, 30),
    ]
    bonus = 100 * rng.choice((0, 0, 0, 0, 1)) if lower[5] else 0
    return upper + lower, bonus


def populate(games: int) -> tuple[int, int, str]:
    """Bulk-create the games and summaries: the pks of the profile and a quiet one, a game."""
    from django.utils import timezone

    from engine.rules import Scorecard
    from engine.rulesets import YAHTZEE
    from games import services
    from games.models import Game, Seat
    from history.models import Summary
    from lobby.models import DiamondEntry, Player, RatingChange

    now = timezone.now()
    rng = random.Random(18)
    players = [
        Player(visitor=ME if n == 0 else f"v-stats-{n:03}", name=f"Player {n}",
               name_key=f"player {n}", name_fold=f"player {n}", diamonds=500)
        for n in range(OPPONENTS + 1)
    ]  # fmt: skip
    Player.objects.bulk_create(players)
    players = list(Player.objects.order_by("pk"))
    me = players[0]
    DiamondEntry.objects.create(player=me, amount=500, reason="grant", balance_after=500)
    made, seats, summaries, changes = [], [], [], []
    for n in range(games):
        online = n % 2 == 1
        finished = now - timedelta(minutes=games - n)
        game = Game(
            id=f"s{n:09}", mode=Game.Mode.ONLINE if online else Game.Mode.SOLO,
            status=Game.Status.FINISHED, ranked=online and n % 3 == 0,
        )  # fmt: skip
        made.append(game)
        people = [me, rng.choice(players[1:-1])] if online else [me]  # the last plays none
        cards = []
        for position, player in enumerate(people):
            scores, bonus = full_card(rng)
            seat = Seat(
                game=game, position=position, name=player.name, visitor=player.visitor,
                scores=scores, yahtzee_bonus=bonus,
            )  # fmt: skip
            seats.append(seat)
            cards.append((seat, Scorecard(YAHTZEE, tuple(scores), bonus)))
        totals = [card.total for _seat, card in cards]
        for position, (seat, card) in enumerate(cards):
            best = max(totals)
            result = (1.0 if totals.count(best) == 1 else 0.5) if card.total == best else 0.0
            decisions = rng.randrange(26, 40)
            loss = rng.random() * 40
            summaries.append(
                Summary(
                    seat=seat, game=game, visitor=seat.visitor, mode=game.mode,
                    ranked=game.ranked, finished_at=finished, total=card.total,
                    upper_bonus=card.upper_bonus > 0,
                    yahtzees=(card.boxes["yahtzee"] == 50) + card.yahtzee_bonus // 100,
                    result=result if online else 1.0, decisions=decisions, loss=loss,
                    accuracy=100 - loss, costliest=[{"index": 3, "loss": 2.5}],
                )
            )  # fmt: skip
            if game.ranked:
                before = 1500 + rng.gauss(0, 100)
                changes.append(
                    RatingChange(
                        player=people[position], game=game, value_before=before,
                        value_after=before + rng.gauss(0, 15), deviation_after=80,
                        score=result, created_at=finished,
                    )
                )  # fmt: skip
    Game.objects.bulk_create(made)
    Seat.objects.bulk_create(seats)
    Summary.objects.bulk_create(summaries)
    RatingChange.objects.bulk_create(changes)
    playing = services.start_solo_game(ME)
    services.perform(playing.id, ME, "roll", {}, playing.step)
    return me.pk, players[-1].pk, playing.id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
    os.environ["YAHTZEE_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-stats-")
    # The game page's coach needs the strategy table: the repository's, not one built meanwhile.
    strategy = Path(__file__).resolve().parent.parent / "var" / "strategy"
    os.environ.setdefault("YAHTZEE_STRATEGY_DIR", str(strategy))
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("DEBUG", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from history.models import Summary

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    profile, quiet, playing = populate(args.games)
    mine = Summary.objects.filter(visitor=ME).count()
    print(f"built a profile with {mine:,} finished games in {time.perf_counter() - started:.1f} s")

    client = Client()
    session = client.session
    session["visitor"] = ME  # the profile's own browser: it also sees its diamonds and browsers
    session.save()
    pages = {
        "game page": f"/game/{playing}/",
        "profile + stats": f"/p/{profile}/",
        "profile, no games": f"/p/{quiet}/",
        "my games": "/me/games/",
        "my games, online": "/me/games/?mode=online",
    }
    times = time_pages(client, pages, args.reps)
    game = times["game page"]
    print(f"{'page':<18} {'p50 ms':>8} {'p95 ms':>8} {'p50 / game':>11} {'p95 / game':>11}")
    for name, values in times.items():
        p50 = statistics.median(values)
        print(
            f"{name:<18} {p50:8.2f} {p95(values):8.2f} "
            f"{p50 / statistics.median(game):10.2f}x {p95(values) / p95(game):10.2f}x"
        )
    ratio = statistics.median(times["profile + stats"]) / statistics.median(game)
    verdict = "met" if ratio <= TARGET else "not met"
    print(f"target: the profile page with its stats at most {TARGET:g}x the game page: {verdict}")


if __name__ == "__main__":
    main()
