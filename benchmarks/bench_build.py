"""Whole-process build of Yahtzee's table against the Rust ``yatzy-solver`` wheel, alternated.

    uv run python benchmarks/bench_build.py --rust-python /tmp/rust-venv/bin/python [--rounds 5]

Each round runs, as fresh processes one after the other, the engine's build of the official table
in a plain Python process (``engine.strategy.build``: solve and save, as the wheel's is a plain
process; "this checkout"), the same through ``manage.py solve --variant official --points-only``
(Django's start on top, about 1.5 s), each into a temporary directory (the cache is left alone),
and the Rust wheel's
``Solver.build(Variant("american+forced-joker"))`` (the same rules: 254.5877), and prints each
one's wall time, user and system CPU and minor page faults (``resource.getrusage`` of the
children). The wheel is installed in a throwaway virtualenv, never in the project:

    python3.12 -m venv /tmp/rust-venv && /tmp/rust-venv/bin/pip install yatzy-solver==1.0.0

Without ``--rust-python`` only this project's build is timed. ``--baseline DIR`` adds a third
contender: the same command run in another checkout (``git archive main | tar -x -C DIR``).
Figures are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUST = (
    "import yatzy_solver as ys; "
    "s = ys.Solver.build(ys.Variant('american+forced-joker')); "
    "print(round(s.state_value('upper 0 | filled -'), 4))"
)


def run(command: list[str], cwd: Path) -> dict[str, float]:
    """Run ``command`` to the end; its wall time, CPU and minor faults (it is the only child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "wall": wall,
        "user": after.ru_utime - before.ru_utime,
        "sys": after.ru_stime - before.ru_stime,
        "faults": after.ru_minflt - before.ru_minflt,
    }


def engine(directory: str) -> list[str]:
    """The engine's build of the official table, solved and saved, in a plain Python process."""
    code = (
        "from engine.rulesets import YAHTZEE; from engine.strategy import build; "
        f"print(round(build(YAHTZEE, {directory!r}).new_game_value, 4))"
    )
    return [sys.executable, "-c", code]


def ours(checkout: Path, directory: str, *, points_only: bool = True) -> list[str]:
    """This project's build of the official table, as an operator runs it: the points table
    alone (``--points-only``; the Rust wheel builds no win model), unless the checkout is one from
    before the win models (``points_only=False``: a baseline that has no such option)."""
    solve = ["manage.py", "solve", "--variant", "official", "--dir", directory]
    return [
        sys.executable,
        str(checkout / solve[0]),
        *solve[1:],
        *(["--points-only"] * points_only),
    ]


def main() -> None:
    """Alternate the contenders ``--rounds`` times, then print each one's medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rust-python", help="python of a virtualenv with yatzy-solver 1.0.0")
    parser.add_argument("--baseline", type=Path, help="another checkout to time the same way")
    parser.add_argument(
        "--baseline-points-only",
        action="store_true",
        help="the baseline's solve knows --points-only (a checkout with the win models)",
    )
    args = parser.parse_args()
    contenders: dict[str, tuple[list[str], Path]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-build-") as directory:
        contenders["this checkout"] = (engine(directory), ROOT)
        contenders["manage.py solve"] = (ours(ROOT, directory), ROOT)
        if args.baseline:
            baseline = ours(args.baseline, directory, points_only=args.baseline_points_only)
            contenders["baseline"] = (baseline, args.baseline)
        if args.rust_python:
            contenders["rust yatzy-solver"] = ([args.rust_python, "-c", RUST], Path(directory))
        results: dict[str, list[dict[str, float]]] = {name: [] for name in contenders}
        for round_ in range(args.rounds):
            for name, (command, cwd) in contenders.items():
                figures = run(command, cwd)
                results[name].append(figures)
                print(
                    f"round {round_ + 1} {name:18} {figures['wall']:5.2f} s wall, "
                    f"{figures['user']:5.2f} s user, {figures['sys']:4.2f} s sys, "
                    f"{figures['faults']:9,.0f} minor faults",
                    flush=True,
                )
    print(f"\nmedians over {args.rounds} rounds (load average {os.getloadavg()[0]:.1f} at the end)")
    first = statistics.median(r["wall"] for r in results["this checkout"])
    for name, runs in results.items():
        wall = statistics.median(r["wall"] for r in runs)
        print(
            f"{name:18} {wall:5.2f} s wall ({min(r['wall'] for r in runs):.2f}-"
            f"{max(r['wall'] for r in runs):.2f}), "
            f"{statistics.median(r['sys'] for r in runs):.2f} s sys, "
            f"{statistics.median(r['faults'] for r in runs):,.0f} minor faults; "
            f"this checkout / it: {first / wall:.2f}x"
        )


if __name__ == "__main__":
    main()
