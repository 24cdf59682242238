"""What a phase measured: latencies, errors, percentiles, and the CPU used meanwhile."""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Recorder:
    """Latencies of the moves sent inside the measured window, and every error of the phase."""

    measure_from: float
    until: float
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    completed: Counter = field(default_factory=Counter)  # finished inside the window
    errors: Counter = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)  # the first few distinct errors

    def measured(self, sent: float) -> bool:
        return sent >= self.measure_from

    def done(self, kind: str, sent: float, finished: float) -> None:
        if sent >= self.measure_from:
            self.latencies[kind].append((finished - sent) * 1000)
            if finished <= self.until:
                self.completed[kind] += 1

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] += 1
        if len(self.samples) < 10 and f"{kind}: {what}" not in self.samples:
            self.samples.append(f"{kind}: {what}")

    @property
    def window(self) -> float:
        return self.until - self.measure_from


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def summary(values: list[float]) -> dict:
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "p50_ms": round(percentile(values, 0.50), 2),
        "p95_ms": round(percentile(values, 0.95), 2),
        "p99_ms": round(percentile(values, 0.99), 2),
        "max_ms": round(max(values), 2),
    }


def result_of(record: Recorder, kinds: tuple[str, ...], usage: dict) -> dict:
    actions = {kind: summary(record.latencies[kind]) for kind in kinds}
    for kind in kinds:
        actions[kind]["per_s"] = round(record.completed[kind] / record.window, 1)
    every = [value for kind in kinds for value in record.latencies[kind]]
    actions["all"] = summary(every) | {
        "per_s": round(sum(record.completed[k] for k in kinds) / record.window, 1)
    }
    return {
        "seconds_measured": round(record.window, 1),
        "actions": actions,
        "errors": dict(record.errors),
        "error_samples": record.samples,
        "cpu": usage,
    }


class CpuMeter:
    """CPU time of this client, of the server's processes (when known) and of the machine."""

    # The server's processes by role, e.g. {"gunicorn": {...}, "uvicorn": {...}}, when known:
    # looked up when a phase starts, so that workers and database backends started by then count.
    server_processes: Callable[[], dict[str, set[int]]] = dict

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.client = time.process_time()
        self.groups = self.server_processes()
        self.server = {name: _process_seconds(pids) for name, pids in self.groups.items()}
        self.busy, self.total = _machine()

    def read(self) -> dict:
        wall = time.perf_counter() - self.wall
        busy, total = _machine()
        usage = {
            "client_core_share": round((time.process_time() - self.client) / wall, 2),
            "machine_busy_share": round((busy - self.busy) / max(1, total - self.total), 2),
        }
        for name, pids in self.groups.items():
            used = _process_seconds(pids) - self.server[name]
            usage.setdefault("server_cores", {})[name] = round(used / wall, 2)
        return usage


def _process_seconds(pids: set[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def process_tree(root: int) -> set[int]:
    """``root`` and its descendants alive now (gunicorn's workers, PostgreSQL's backends...)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
    found = {root}
    while grown := {pid for pid, parent in parents.items() if parent in found} - found:
        found |= grown
    return found


def _machine() -> tuple[int, int]:
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)
