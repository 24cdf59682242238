"""How long pairing takes: 200 waiting arena players, and each round of a 200-player Swiss.

    .venv/bin/python benchmarks/bench_tournament_pairing.py [--players 200] [--runs 30]
        [--rounds 12] [--seeds 5]

Issue 31 asks that pairing 200 waiting players take at most 100 ms. Pure code (no database, no
server): the time is that of tournaments.formats alone, on one core, measured with
time.perf_counter around each call.

- arena: ``--runs`` waiting rooms of ``--players``, each player's rank drawn from a field twice
  that size (ties too), their last opponent another waiting player (as when games end together),
  one not waiting, or nobody yet; ``pair_waiting`` on each.
- Swiss: ``--seeds`` tournaments of ``--players`` with random ratings and results (win, draw or
  loss alike; the odd player's game against the computer too), ``--rounds`` rounds each; the
  time of each round's ``pair_round``, by round: median and worst over the tournaments.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.formats.arena import Waiting, pair_waiting  # noqa: E402
from tournaments.formats.swiss import SwissPlayer, pair_round  # noqa: E402


def waiting_room(count: int, chance: random.Random) -> list[Waiting]:
    """``count`` waiting players, about half of them just back from a game against another."""
    ids = chance.sample(range(1, 10 * count), count)
    last: dict[int, int | None] = {}
    shuffled = ids[:]
    chance.shuffle(shuffled)
    for a, b in zip(shuffled[::2], shuffled[1::2], strict=False):
        kind = chance.random()
        if kind < 0.5:  # they played each other and both came back
            last[a], last[b] = b, a
        elif kind < 0.8:  # each played someone still at their game
            last[a], last[b] = -a, -b
        else:  # new
            last[a] = last[b] = None
    return [Waiting(id, chance.randint(1, 2 * count), last.get(id)) for id in ids]


def timed(function, *args) -> tuple[float, object]:
    """Milliseconds one call took, and its answer."""
    started = time.perf_counter()
    answer = function(*args)
    return (time.perf_counter() - started) * 1e3, answer


def bench_arena(players: int, runs: int) -> None:
    chance = random.Random(31)
    times = []
    for _ in range(runs):
        room = waiting_room(players, chance)
        elapsed, (pairs, left) = timed(pair_waiting, room)
        times.append(elapsed)
        assert 2 * len(pairs) + len(left) == players
    print(
        f"arena, {players} waiting, {runs} rooms: median {statistics.median(times):.1f} ms, "
        f"worst {max(times):.1f} ms (bound 100)"
    )


def bench_swiss(players: int, rounds: int, seeds: int) -> None:
    by_round: list[list[float]] = [[] for _ in range(rounds)]
    for seed in range(seeds):
        chance = random.Random(seed)
        points = dict.fromkeys(range(1, players + 1), 0.0)
        rating = {id: chance.randint(1000, 2400) for id in points}
        met: dict[int, set[int]] = {id: set() for id in points}
        had_computer: set[int] = set()
        for number in range(rounds):
            field = [
                SwissPlayer(id, points[id], rating[id], frozenset(met[id]), id in had_computer)
                for id in points
            ]
            elapsed, (pairs, computer) = timed(pair_round, field)
            by_round[number].append(elapsed)
            for a, b in pairs:
                result = chance.choice((1.0, 0.5, 0.0))
                points[a] += result
                points[b] += 1 - result
                met[a].add(b)
                met[b].add(a)
            if computer is not None:
                had_computer.add(computer)
                points[computer] += chance.choice((1.0, 0.5, 0.0))
    print(f"Swiss, {players} players, {seeds} tournaments of {rounds} rounds, ms by round:")
    print("round   " + " ".join(f"{number:>6}" for number in range(1, rounds + 1)))
    print("median  " + " ".join(f"{statistics.median(t):6.1f}" for t in by_round))
    print("worst   " + " ".join(f"{max(t):6.1f}" for t in by_round))
    every = [t for times in by_round for t in times]
    print(f"every round: median {statistics.median(every):.1f} ms, worst {max(every):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seeds", type=int, default=5)
    options = parser.parse_args()
    bench_arena(options.players, options.runs)
    bench_swiss(options.players, options.rounds, options.seeds)


if __name__ == "__main__":
    main()
