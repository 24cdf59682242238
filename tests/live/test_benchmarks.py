"""The benchmarks still run against the current code and print their figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# "| roll | 4 | 22.7 / 24.0 | 5.1 / 8.6 | 18.1 / 18.9 | 8.8 / 14.4 | 2346 / 2475 |"
PAIR = r"(-?\d+\.\d) / (-?\d+\.\d)"
CELLS = rf"{PAIR} \| {PAIR} \| {PAIR} \| {PAIR} \| (\d+) / (\d+)"
ROW = re.compile(rf"^\| (roll|hold|score) \| (\d+) \| {CELLS} \|$", re.M)


def test_bench_stats_times_each_page_against_the_game_page():
    """A small run prints a row per page, the game page at 1x."""
    result = subprocess.run(
        [sys.executable, "benchmarks/bench_stats.py", "--games", "40", "--reps", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "built a profile with 40 finished games" in result.stdout
    rows = re.findall(r"^(\S.*?)\s+(\d+\.\d\d)\s+(\d+\.\d\d)\s+(\d+\.\d\d)x", result.stdout, re.M)
    pages = {name: float(ratio) for name, _p50, _p95, ratio in rows}
    assert pages.keys() == {
        "game page", "profile + stats", "profile, no games", "my games", "my games, online"
    }, result.stdout  # fmt: skip
    assert pages["game page"] == 1.0 and all(ratio > 0 for ratio in pages.values())
    assert re.search(r"^target: .* at most 2x the game page: (met|not met)$", result.stdout, re.M)


@pytest.mark.browser
@pytest.mark.server  # the benchmark starts uvicorn and Chromium itself
def test_bench_browser_prints_figures_for_each_kind_of_move():
    """Two turns (a roll, two holds, a roll again and a score each) give a row per kind."""
    result = subprocess.run(
        [sys.executable, "benchmarks/bench_browser.py", "--games", "1", "--moves", "10"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    rows = {found[1]: found.groups()[1:] for found in ROW.finditer(result.stdout)}
    assert {kind: int(row[0]) for kind, row in rows.items()} == {"roll": 4, "hold": 4, "score": 2}
    for kind, row in rows.items():
        click_dom, frame_dom, click_frame, painted = (
            (float(row[i]), float(row[i + 1])) for i in (1, 3, 5, 7)
        )
        for p50, p95 in (click_dom, frame_dom, click_frame, painted):
            assert 0 <= p50 <= p95, (kind, result.stdout)
        # Per move click -> DOM is click -> frame plus frame -> DOM, on one clock: so are medians.
        assert click_dom[0] >= max(frame_dom[0], click_frame[0]), (kind, result.stdout)
        assert 0 < int(row[9]) <= int(row[10]), (kind, result.stdout)
    answers = re.search(r"^own answer, click -> DOM: n (\d+), p50 \d+\.\d ms", result.stdout, re.M)
    assert answers and 1 <= int(answers[1]) <= 10, result.stdout


@pytest.mark.browser
@pytest.mark.server  # the profiler starts uvicorn and Chromium itself
def test_profile_push_splits_a_score_push_into_its_steps():
    """A few turns' scores: their pushes' tasks are profiled and split into steps that add up.

    Several pushes, not one: a push's task can take 0.2 ms, two samples, which may both fall in
    the page's listeners (CI once saw that), and then no step of game.js's swap had a sample."""
    result = subprocess.run(
        [sys.executable, "benchmarks/profile_push.py", "--moves", "25", "--interval", "50"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert int(re.search(r"score pushes profiled: (\d+) ", result.stdout)[1]) >= 3, result.stdout
    task = float(re.search(r"^task: mean (\d+\.\d+) ms", result.stdout, re.M)[1])
    steps = dict(re.findall(r"^\| ([a-z -]+) \| (\d+\.\d+) \| \d+% \|$", result.stdout, re.M))
    assert {"parse", "targets", "swap", "process", "events"} <= steps.keys(), result.stdout
    # The steps share out the task's samples: all of them, each once.
    assert sum(map(float, steps.values())) == pytest.approx(task, abs=0.05), result.stdout
    # game.js's swap keeps its functions' names: its steps take the samples (one of them may
    # take none in a few pushes, so together).
    swap = sum(float(steps[name]) for name in ("parse", "targets", "swap", "process"))
    assert swap > 0, result.stdout
    assert re.search(r"until painted .*: style \d+\.\d+ ms, layout \d+\.\d+ ms", result.stdout)


def test_bench_replay_prints_a_row_per_page_with_its_ratio_to_the_game_page():
    """A few rounds: the game page, the replay step as a page and as htmx, each with its ratio."""
    result = subprocess.run(
        [sys.executable, "benchmarks/bench_replay.py", "--reps", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    rows = re.findall(
        r"^\| ([a-z ,]+) \| (\d+\.\d\d) \| (\d+\.\d\d) \| (\d+\.\d\d)x \| (\d+\.\d\d)x \|$",
        result.stdout,
        re.M,
    )
    assert [row[0] for row in rows] == ["game page", "replay step, page", "replay step, htmx"]
    for _, p50, p95, ratio50, ratio95 in rows:
        assert 0 < float(p50) <= float(p95), result.stdout
        assert float(ratio50) > 0 and float(ratio95) > 0, result.stdout
    assert rows[0][3:] == ("1.00", "1.00")


def test_bench_tournament_pairing_prints_the_arena_and_each_swiss_round():
    """A small run: the arena's rooms, then the Swiss rounds' median and worst."""
    result = subprocess.run(
        [sys.executable, "benchmarks/bench_tournament_pairing.py",
         "--players", "20", "--runs", "3", "--rounds", "3", "--seeds", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    arena = re.search(
        r"^arena, 20 waiting, 3 rooms: median (\d+\.\d) ms, worst (\d+\.\d) ms", result.stdout, re.M
    )
    assert arena and float(arena[1]) <= float(arena[2]), result.stdout
    assert re.search(r"^round +1 +2 +3$", result.stdout, re.M), result.stdout
    assert re.search(r"^every round: median \d+\.\d ms, worst \d+\.\d ms$", result.stdout, re.M)


@pytest.mark.server  # the benchmark starts uvicorn itself
def test_the_load_benchmarks_arena_is_played_to_its_end_every_move_served():
    """Four players in an arena of 15 s (10 minutes sped up 40 times), moving fast: every game
    it paired them into played, the arena finished, then the reference at the same rate."""
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.load", "--phases", "arena", "--arena-players", "4",
         "--arena-minutes", "10", "--arena-speed", "40", "--pace", "0.05",
         "--human-seconds", "3", "--warmup", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    header = re.search(
        r"^Arena: 4 players in one arena of 15\.0 s, .*; (\d+) games \((\d+) played to their "
        r"end\), (\d+) messages to the tournament pages; its page at the end: Finished:$",
        result.stdout,
        re.M,
    )
    assert header, result.stdout
    games, finished, messages = map(int, header.groups())
    assert games >= 2 and finished == games and messages > 0, result.stdout
    arena = result.stdout.split("Arena:")[1].split("Reference action")[0]
    assert re.search(r"^  errors: 0$", arena, re.M), result.stdout
    last = re.search(r"^  last score +(\d+) ", arena, re.M)
    assert last and int(last[1]) == finished, result.stdout
    assert re.search(r"arena p99 / reference p99: \d+\.\d / \d+\.\d ms = \d+\.\d\d", result.stdout)


@pytest.mark.server  # the benchmark starts uvicorn itself
def test_bench_tournament_pages_times_each_game_end_on_every_page():
    """A small arena: every end reaches every page, and the figures are printed."""
    result = subprocess.run(
        [sys.executable, "benchmarks/bench_tournament_pages.py",
         "--players", "6", "--pages", "6", "--ends", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "game ends: 2, pages: 6" in result.stdout, result.stdout
    figures = re.search(r"each page, .*: (\d+) / (\d+) / (\d+)$", result.stdout, re.M)
    assert figures and 0 < int(figures[1]) <= int(figures[2]) <= int(figures[3]), result.stdout
