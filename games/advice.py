"""The site's door to the strategy engine: loads each table once, never builds one in a request.

The tables are built beside the server (`manage.py solve --if-missing`, which `scripts/serve` runs
in the background at start); until a table is there, pages say the computer is getting ready. A
table that is there but damaged (``storage.load_table`` checks its checksum and its values) is
treated as missing: it is logged, and this process starts that same command in the background,
once. The first request after the rebuilt file is in place loads it: no restart needed.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

from django.conf import settings

from games.strategy import Advisor, storage

logger = logging.getLogger(__name__)

NEEDS_TABLE = {"optimal", "club"}

_lock = threading.Lock()
_advisors: dict[Path, Advisor] = {}  # the loaded tables, by file
_refused: dict[Path, tuple[int, int, int]] = {}  # a damaged file, by what stat() said of it
_rebuilt: set[Path] = set()  # files this process has started a rebuild of (once each)


def is_ready(multiple_yahtzees: bool = True) -> bool:
    """True when the table of this rules variant is loaded, or on disk and sound."""
    return advisor(multiple_yahtzees) is not None


def advisor(multiple_yahtzees: bool = True) -> Advisor | None:
    """The process-wide advisor for this variant, or None while its table is missing or damaged."""
    directory = storage.cache_dir()
    file = storage.table_path(multiple_yahtzees, directory)
    with _lock:
        if file in _advisors:
            return _advisors[file]
        try:
            status = file.stat()
        except OSError:
            return None  # not built yet
        seen = (status.st_ino, status.st_size, status.st_mtime_ns)
        if _refused.get(file) == seen:
            return None  # the same damaged file: a stat per request, not a read and a checksum
        try:
            loaded = Advisor.load(multiple_yahtzees, directory, build_if_missing=False)
        except FileNotFoundError:
            return None
        except storage.DamagedTable as damage:
            _refused[file] = seen
            _damaged(multiple_yahtzees, directory, file, damage)
            return None
        _advisors[file] = loaded
        return loaded


def bot_can_play(bot: str, multiple_yahtzees: bool = True) -> bool:
    """Whether this computer strength can play now (the greedy beginner needs no table)."""
    return bot not in NEEDS_TABLE or is_ready(multiple_yahtzees)


def _damaged(multiple_yahtzees: bool, directory: Path, file: Path, damage: Exception) -> None:
    """Log a damaged table and have it rebuilt in the background, at most once per process."""
    if file in _rebuilt:  # damaged again after its rebuild: no loop of rebuilds
        logger.error("Strategy table damaged again (%s); not rebuilding it twice", damage)
        return
    _rebuilt.add(file)
    logger.error("Strategy table damaged (%s); treated as missing, rebuilding it", damage)
    _solve_in_background(multiple_yahtzees, directory)


def _solve_in_background(multiple_yahtzees: bool, directory: Path) -> None:
    """Start `manage.py solve --if-missing` for one variant, as `scripts/serve` does at start.

    A process of its own, so that the solve (10-40 s of CPU) does not hold this one's threads.
    """
    command = [
        sys.executable,
        str(Path(settings.BASE_DIR) / "manage.py"),
        "solve",
        "--if-missing",
        f"--variant={storage.VARIANT_NAMES[multiple_yahtzees]}",
        f"--dir={directory}",
    ]
    threading.Thread(target=_run, args=(command,), name="strategy-solve", daemon=True).start()


def _run(command: list[str]) -> None:
    """Run the solve and log how it ended (its progress bar is dropped)."""
    started = time.monotonic()
    try:
        result = subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
        )
    except OSError as error:
        logger.error("Could not start the strategy table's rebuild: %s", error)
        return
    if result.returncode:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        logger.error("Rebuilding the strategy table failed (exit %s): %s", result.returncode, last)
    else:
        logger.warning("Strategy table rebuilt in %.0f s", time.monotonic() - started)
