"""Benchmark of the win chances and of the computer that plays to win.

    .venv/bin/python benchmarks/bench_winning.py [--calibration 100000] [--duels 200000]
        [--positions 2000] [--build] [--seed 2026] [--variant yatzy]

Reads a five-dice rule set's V table and moments (``--variant``, the official rules by default)
from $YAHTZEE_STRATEGY_DIR (built if missing).
Prints: the moments' build time and size (``--build``, into a temporary directory), the time of
a ``WinModel.chances`` call over positions of real games (fresh and as a page asks them), the
calibration table over ``--calibration`` games between two perfect-points players (every
decision and every turn start, predicted chance binned in tenths against the observed win rate,
a draw counting half), and ``--duels`` games of the player who plays to win against the
perfect-points player, who starts alternating by block, with a 95% interval. Figures are
recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from engine.rules import Scorecard  # noqa: E402
from engine.rulesets import YAHTZEE, RuleSet, rule_set  # noqa: E402
from engine.strategy import storage  # noqa: E402
from engine.strategy.duel import Calibration, calibrate, outcome, play_duels  # noqa: E402
from engine.strategy.simulate import draw_dice  # noqa: E402
from engine.strategy.spread import MOMENTS, moment_path  # noqa: E402
from engine.strategy.winning import WinModel, build  # noqa: E402


def bench_build(rules: RuleSet) -> None:
    """Build the moments into a temporary directory beside a copy of the V table."""
    model = WinModel.load(rules)
    with tempfile.TemporaryDirectory(prefix="bench-winning-") as directory:
        shutil.copy(storage.table_path(rules), storage.table_path(rules, directory))
        built = build(model.advisor, directory)
        size = sum(moment_path(rules, k, directory).stat().st_size for k in range(2, 1 + MOMENTS))
        print(f"moments: built in {built.build_seconds:.1f} s, {size / 1e6:.1f} MB on disk")
        started = time.perf_counter()
        WinModel.load(rules, directory, build_if_missing=False)
        seconds = time.perf_counter() - started
        print(f"load (checksums + the last turns' distributions): {seconds:.2f} s")


def real_positions(model: WinModel, games: int, rng: random.Random) -> list[tuple]:
    """Every position of ``games`` two-player games between perfect-points players."""
    positions = []
    for _ in range(games):
        rules = model.rules
        cards = [Scorecard(rules), Scorecard(rules)]
        for _turn in range(rules.turns):
            for seat in (0, 1):
                positions.append((tuple(cards), seat, None, 2))
                dice = sorted(rng.randint(1, 6) for _ in range(rules.dice))
                for rolls_left in (2, 1, 0):
                    positions.append((tuple(cards), seat, tuple(dice), rolls_left))
                    move = model.advisor.best_move(cards[seat], dice, rolls_left)
                    if move[0] == "score":
                        cards[seat] = cards[seat].fill(move[1], dice)
                        break
                    kept = list(move[1])
                    fresh = [rng.randint(1, 6) for _ in range(rules.dice - len(kept))]
                    dice = sorted(kept + fresh)
    return positions


def bench_speed(model: WinModel, games: int, seed: int) -> None:
    """Median and p99 of ``chances`` over real positions: fresh (no cache) and as pages ask.

    CPU time beside wall time: on a shared machine the wall clock's tail is other processes."""
    positions = real_positions(model, games, random.Random(seed))
    for position in positions[:200]:  # numpy's and the solver's first-call caches
        model.chances(*position)
    for label, fresh in (
        ("fresh (cache emptied before each call)", True),
        ("in game order", False),
    ):
        model._cache.clear()
        wall, cpu = [], []
        for cards, seat, dice, rolls_left in positions:
            if fresh:
                model._cache.clear()
            started, started_cpu = time.perf_counter(), time.process_time()
            model.chances(cards, seat, dice, rolls_left)
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        for clock, times in (("wall", wall), ("CPU", cpu)):
            ms = np.array(times) * 1e3
            print(
                f"chances, {label}, {clock} time: {len(ms)} positions, median "
                f"{np.median(ms):.3f} ms, p99 {np.percentile(ms, 99):.3f} ms, max {ms.max():.2f} ms"
            )


def bench_calibration(model: WinModel, games: int, seed: int, block: int = 2000) -> None:
    """The calibration table over ``games`` games between perfect-points players."""
    rng = np.random.default_rng(seed)
    decisions, starts = Calibration(), Calibration()
    started = time.perf_counter()
    for done in range(0, games, block):
        dice = _dice(rng, min(block, games - done), model.rules)
        totals, records = play_duels(model, dice, record=True)
        d, s = calibrate(totals, records)
        decisions.merge(d)
        starts.merge(s)
    print(f"calibration: {games} games in {time.perf_counter() - started:.0f} s")
    for name, table in (("every decision", decisions), ("every turn start", starts)):
        print(f"\n{name}: worst gap {100 * table.worst_gap():.2f} points")
        print("| predicted | positions | mean predicted | observed | gap |")
        print("|---|---:|---:|---:|---:|")
        for b, n, predicted, observed in table.rows():
            print(
                f"| {b / 10:.1f}-{(b + 1) / 10:.1f} | {n:,} | {100 * predicted:.2f}% "
                f"| {100 * observed:.2f}% | {100 * (observed - predicted):+.2f} |"
            )


def bench_duels(model: WinModel, games: int, seed: int, block: int = 500) -> None:
    """The player who plays to win against the perfect-points player, who starts alternating."""
    rng = np.random.default_rng(seed)
    scores, points = [], []
    started = time.perf_counter()
    for i, done in enumerate(range(0, games, block)):
        seat = i % 2  # the seat of the player who plays to win: it starts every other block
        totals, _ = play_duels(
            model, _dice(rng, min(block, games - done), model.rules), (seat == 0, seat == 1)
        )
        scores.append(outcome(totals, seat))
        points.append(totals[:, seat] - totals[:, 1 - seat])
    score = np.concatenate(scores)
    margin = np.concatenate(points)
    n = len(score)
    wins, draws = (score == 1).mean(), (score == 0.5).mean()
    half = 1.96 * score.std(ddof=1) / np.sqrt(n)
    print(
        f"\nto-win vs perfect-points: {n} games in {time.perf_counter() - started:.0f} s; "
        f"wins {100 * wins:.2f}%, draws {100 * draws:.2f}%, losses {100 * (1 - wins - draws):.2f}%"
    )
    print(
        f"score (a draw counting half): {100 * score.mean():.2f}% "
        f"(95% interval {100 * (score.mean() - half):.2f}% to {100 * (score.mean() + half):.2f}%)"
    )
    print(f"mean points, to-win minus perfect-points: {margin.mean():+.2f}")


def _dice(rng: np.random.Generator, games: int, rules: RuleSet) -> np.ndarray:
    """Dice for ``games`` two-player games: (games, 2 seats, turns, 3 rolls, dice)."""
    return draw_dice(rng, games * 2, rules).reshape(games, 2, rules.turns, 3, rules.dice)


def main() -> None:
    """Run the parts asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="store_true", help="time building the moments")
    parser.add_argument("--positions", type=int, default=40, help="games of positions to time")
    parser.add_argument("--calibration", type=int, default=0, help="games for the calibration")
    parser.add_argument("--duels", type=int, default=0, help="games of to-win vs perfect")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variant", default=YAHTZEE.key, help="a five-dice rule set's key")
    args = parser.parse_args()
    rules = rule_set(args.variant)
    if args.build:
        bench_build(rules)
    model = WinModel.load(rules)
    if args.positions:
        bench_speed(model, args.positions, args.seed)
    if args.calibration:
        bench_calibration(model, args.calibration, args.seed)
    if args.duels:
        bench_duels(model, args.duels, args.seed + 1)


if __name__ == "__main__":
    main()
