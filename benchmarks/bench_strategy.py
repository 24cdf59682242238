"""Benchmark of the optimal-strategy engine: build, load, advice latency, simulation speed.

    uv run python benchmarks/bench_strategy.py [--games 10000] [--positions 10000]
        [--variants official,no-multiple,yatzy,...]

Builds the tables of ``--variants`` (default both Yahtzees; ``maxi`` takes minutes and 1.4 GiB)
into a temporary directory (the cache is left alone), so it takes about a minute; the advice and
simulation figures are the official rules'. Figures are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from engine.rules import CATEGORIES, UPPER, Scorecard, box_score  # noqa: E402
from engine.rulesets import YAHTZEE, rule_set  # noqa: E402
from engine.strategy import Advisor, build  # noqa: E402
from engine.strategy.simulate import describe, simulate  # noqa: E402


def random_position(rng: random.Random) -> tuple[Scorecard, list[int], int]:
    """A card with a random number of boxes filled as a game could fill them, dice, rolls left."""
    filled = rng.sample(CATEGORIES, rng.randint(0, 12))
    boxes = {}
    for box in filled:
        if box in UPPER:
            boxes[box] = (UPPER.index(box) + 1) * rng.randint(0, 5)
        else:
            boxes[box] = box_score(box, [rng.randint(1, 6) for _ in range(5)])
    card = Scorecard.from_boxes(boxes)
    return card, [rng.randint(1, 6) for _ in range(5)], rng.randint(0, 2)


def percentiles(samples: list[float]) -> tuple[float, float]:
    """Median and 99th percentile, in milliseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e3, ordered[int(0.99 * (len(ordered) - 1))] * 1e3


def build_only(variant: str, directory: str) -> None:
    """Build one table (in this fresh process) and print its time and the process's peak RSS."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    advisor = build(rule_set(variant), directory)
    elapsed = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"build {variant}: {elapsed:.1f} s, peak RSS {peak:.0f} MiB "
        f"({before:.0f} MiB before the build), new game {advisor.new_game_value:.4f}"
    )
    # Peak of the build's own allocations, numpy arrays included (slower: tracemalloc hooks).
    tracemalloc.start()
    build(rule_set(variant), directory)
    traced = tracemalloc.get_traced_memory()[1] / 2**20
    print(f"  traced peak of the build's allocations: {traced:.0f} MiB")
    tracemalloc.stop()


def main() -> None:
    """Run every measurement and print one line per figure."""
    if sys.argv[1:2] == ["--build-only"]:
        build_only(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--variants", default="official,no-multiple", help="tables to build")
    args = parser.parse_args()
    cores = os.cpu_count()
    print(f"machine: {platform.machine()}, {cores} cores, Python {platform.python_version()}")

    with tempfile.TemporaryDirectory() as directory:
        variants = args.variants.split(",")
        for variant in dict.fromkeys(["official", *variants]):  # the advice below needs official
            # A fresh process per build, so that its peak RSS is the build's own.
            child = [sys.executable, __file__, "--build-only", variant, directory]
            print(subprocess.run(child, check=True, capture_output=True, text=True).stdout, end="")

        loads = []
        for _ in range(20):
            started = time.perf_counter()
            Advisor.load(YAHTZEE, directory, build_if_missing=False)
            loads.append(time.perf_counter() - started)
        median, worst = statistics.median(loads) * 1e3, max(loads) * 1e3
        print(f"load: median {median:.1f} ms, max {worst:.1f} ms")
        advisor = Advisor.load(YAHTZEE, directory, build_if_missing=False)

    rng = random.Random(1)
    positions = [random_position(rng) for _ in range(args.positions)]
    advisor.options(*positions[0])  # first-call imports and caches aside
    cold, warm = [], []
    for card, dice, rolls_left in positions:
        advisor._cache.clear()  # cold: the state's turn arrays are computed in the call
        for samples in (cold, warm):  # warm: the same call again, arrays cached
            started = time.perf_counter()
            advisor.options(card, dice, rolls_left)
            samples.append(time.perf_counter() - started)
    for label, samples in (("cold", cold), ("warm", warm)):
        p50, p99 = percentiles(samples)
        print(f"options {label}: median {p50:.3f} ms, p99 {p99:.3f} ms ({len(samples)} positions)")

    for bot, games in (("optimal", args.games), ("club", 2000), ("beginner", 2000)):
        started = time.perf_counter()
        totals = simulate(bot, games, seed=1, advisor=advisor)
        elapsed = time.perf_counter() - started
        stats = describe(totals)
        print(
            f"simulate {bot}: {games} games in {elapsed:.1f} s = {games / elapsed:.0f} games/s, "
            f"mean {stats['mean']:.2f}, std {stats['std']:.2f}"
        )
    print(f"numpy {np.__version__}")


if __name__ == "__main__":
    main()
