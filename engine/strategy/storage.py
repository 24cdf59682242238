"""Where the solved tables live, how they are written (atomically) and read back (checked).

A table file is the table as ``np.save`` writes it, followed by the SHA-256 of everything before
it (so ``np.load`` still reads one, for a look by hand). ``load_table`` reads only files that
match byte for byte what ``save_table`` writes: the header of this shape and dtype, the length,
the checksum, and values some game could have. Anything else (a damaged header, a truncated file,
a flipped bit, NaNs) raises ``DamagedTable``: the site treats such a table as missing.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from engine.rulesets import YAHTZEE, RuleSet
from engine.strategy.points import BOX_POINTS, JOKER_POINTS, SOLVED, TABLE_SHAPE

ENV_VAR = "YAHTZEE_STRATEGY_DIR"
"""Environment variable naming the cache directory of the tables."""

DEFAULT_DIR = Path("~/.cache/yahtzee-strategy")
"""Cache directory used when YAHTZEE_STRATEGY_DIR is not set."""

TABLE_VERSION = 2
"""Bumped whenever the table's meaning or format changes, so that an old file is never read as new.

Version 2 added the checksum; a version 1 file is not read, and ``manage.py solve --if-missing``
builds the table anew beside it.
"""

MAX_VALUE = (
    float(np.maximum(BOX_POINTS.max(axis=1), JOKER_POINTS.max(axis=1)).sum())
    + SOLVED.upper_bonus.points
    + SOLVED.yahtzee_bonus * (SOLVED.turns - 1)
)
"""The most points still to come from any state: every box at its best, every bonus (1575)."""


def _npy_header() -> bytes:
    """The header ``np.save`` writes for a table: magic, version, shape and dtype, padding."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": TABLE_SHAPE}
    )
    return header.getvalue()


_HEADER = _npy_header()
_DATA_BYTES = int(np.prod(TABLE_SHAPE)) * 8
_DIGEST_BYTES = hashlib.sha256().digest_size
_EXPECTED_BYTES = len(_HEADER) + _DATA_BYTES + _DIGEST_BYTES  # a first check that needs no read


class DamagedTable(ValueError):
    """A table file is there but is not one ``save_table`` wrote, or holds impossible values."""


def cache_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The directory holding the tables: ``path``, else $YAHTZEE_STRATEGY_DIR, else the default."""
    if path is not None:
        return Path(path).expanduser()
    return Path(os.environ.get(ENV_VAR) or DEFAULT_DIR).expanduser()


def table_path(rules: RuleSet = YAHTZEE, path: str | os.PathLike[str] | None = None) -> Path:
    """The file of one rule set's table, named by its key (``yahtzee-v2-official.npy``);
    ``path`` is a directory, or a ``.npy`` file used as is."""
    if path is not None and str(path).endswith(".npy"):
        return Path(path).expanduser()
    return cache_dir(path) / f"yahtzee-v{TABLE_VERSION}-{rules.key}.npy"


def table_exists(rules: RuleSet = YAHTZEE, path: str | os.PathLike[str] | None = None) -> bool:
    """True when a file of a complete table's size is in place (a cheap stat; no checksum)."""
    try:
        return table_path(rules, path).stat().st_size == _EXPECTED_BYTES
    except OSError:
        return False


def check_values(table: np.ndarray) -> None:
    """Raise DamagedTable unless every value is a number of points some game could still score."""
    if not np.isfinite(table).all():
        raise DamagedTable("the table holds values that are not finite numbers")
    low, high = float(table.min()), float(table.max())
    if low < 0 or high > MAX_VALUE:
        raise DamagedTable(f"the table's values run from {low} to {high}, outside 0 to {MAX_VALUE}")


def save_table(table: np.ndarray, file: Path) -> None:
    """Write ``table`` and its checksum to ``file`` atomically: a temporary file, then rename.

    A reader sees either the old file, no file, or the complete new one, never a partial write.
    """
    values = np.ascontiguousarray(table, dtype="<f8")
    if values.shape != TABLE_SHAPE:
        raise ValueError(f"a strategy table has the shape {TABLE_SHAPE}, not {values.shape}")
    body = _HEADER + values.tobytes()
    file.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=file.parent, prefix=file.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(body)
            handle.write(hashlib.sha256(body).digest())
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it private; a web server may run as another user
        os.replace(temporary, file)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load_table(file: Path) -> np.ndarray:
    """Read and check a table written by ``save_table`` (read-only; about 7 ms).

    FileNotFoundError when there is no file; DamagedTable when it is not a sound table.
    """
    try:
        with open(file, "rb") as handle:
            data = handle.read(_EXPECTED_BYTES + 1)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise DamagedTable(f"{file} cannot be read: {error.strerror or error}") from error
    if len(data) != _EXPECTED_BYTES:
        raise DamagedTable(f"{file} is {len(data)} bytes long, not {_EXPECTED_BYTES}")
    if data[: len(_HEADER)] != _HEADER:
        raise DamagedTable(f"{file} does not start with a strategy table's header")
    body = memoryview(data)[:-_DIGEST_BYTES]
    if hashlib.sha256(body).digest() != data[-_DIGEST_BYTES:]:
        raise DamagedTable(f"{file} does not match its checksum")
    table = np.frombuffer(data, dtype="<f8", count=_DATA_BYTES // 8, offset=len(_HEADER))
    table = table.reshape(TABLE_SHAPE)
    try:
        check_values(table)
    except DamagedTable as damage:  # a checksum only vouches for the write, not for the solve
        raise DamagedTable(f"{file}: {damage}") from None
    return table


@contextmanager
def build_lock(file: Path) -> Iterator[None]:
    """Hold, for the block, a lock beside ``file``: one process builds a table at a time.

    The lock is the operating system's (flock), so a builder that dies releases it.
    """
    file.parent.mkdir(parents=True, exist_ok=True)
    with open(file.with_name(file.name + ".lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
