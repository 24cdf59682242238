"""Where the solved tables live, and how they are written (atomically) and read back."""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

import numpy as np

from games.strategy.solver import TABLE_SHAPE

ENV_VAR = "YAHTZEE_STRATEGY_DIR"
"""Environment variable naming the cache directory of the tables."""

DEFAULT_DIR = Path("~/.cache/yahtzee-strategy")
"""Cache directory used when YAHTZEE_STRATEGY_DIR is not set."""

TABLE_VERSION = 1
"""Bumped whenever the table's meaning changes, so that an old file is never read as new."""

VARIANT_NAMES = {True: "official", False: "no-multiple"}
"""File-name label of each variant, keyed by ``multiple_yahtzees``."""


def _expected_bytes() -> int:
    """Size of a complete table file: np.save's header for this shape and dtype, then the data."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": TABLE_SHAPE}
    )
    return header.tell() + int(np.prod(TABLE_SHAPE)) * 8


_EXPECTED_BYTES = _expected_bytes()  # a cheap completeness check that needs no read


def cache_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The directory holding the tables: ``path``, else $YAHTZEE_STRATEGY_DIR, else the default."""
    if path is not None:
        return Path(path).expanduser()
    return Path(os.environ.get(ENV_VAR) or DEFAULT_DIR).expanduser()


def table_path(multiple_yahtzees: bool = True, path: str | os.PathLike[str] | None = None) -> Path:
    """The file of one variant's table; ``path`` is a directory, or a ``.npy`` file used as is."""
    if path is not None and str(path).endswith(".npy"):
        return Path(path).expanduser()
    name = f"yahtzee-v{TABLE_VERSION}-{VARIANT_NAMES[multiple_yahtzees]}.npy"
    return cache_dir(path) / name


def table_exists(
    multiple_yahtzees: bool = True, path: str | os.PathLike[str] | None = None
) -> bool:
    """True when a complete table file is in place (a cheap stat, no read)."""
    try:
        return table_path(multiple_yahtzees, path).stat().st_size == _EXPECTED_BYTES
    except OSError:
        return False


def save_table(table: np.ndarray, file: Path) -> None:
    """Write ``table`` to ``file`` atomically: a temporary file in the same directory, then rename.

    A reader sees either the old file, no file, or the complete new one, never a partial write.
    """
    file.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=file.parent, prefix=file.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, np.ascontiguousarray(table, dtype=np.float64), allow_pickle=False)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it private; a web server may run as another user
        os.replace(temporary, file)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load_table(file: Path) -> np.ndarray:
    """Read a table written by ``save_table``; raise ValueError if it is not a valid table."""
    table = np.load(file, allow_pickle=False)
    if table.shape != TABLE_SHAPE or table.dtype != np.float64:
        raise ValueError(f"{file} is not a strategy table (shape {table.shape}, {table.dtype})")
    return table
