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
import mmap
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from engine.rulesets import YAHTZEE, RuleSet
from engine.strategy.points import Layout, exact_rules, layout

ENV_VAR = "YAHTZEE_STRATEGY_DIR"
"""Environment variable naming the cache directory of the tables."""

DEFAULT_DIR = Path("~/.cache/yahtzee-strategy")
"""Cache directory used when YAHTZEE_STRATEGY_DIR is not set."""

TABLE_VERSION = 2
"""Bumped whenever the table's meaning or format changes, so that an old file is never read as new.

Version 2 added the checksum; a version 1 file is not read, and ``manage.py solve --if-missing``
builds the table anew beside it.
"""


def max_value(space: Layout) -> float:
    """The most points still to come from any state: every box at its best, every bonus
    (1575 for the official rules)."""
    best = np.maximum(space.box_points.max(axis=1), space.joker_points.max(axis=1)).sum()
    return (
        float(best) + space.rules.upper_bonus.points + space.yahtzee_bonus * (space.num_boxes - 1)
    )


def _npy_header(shape: tuple[int, ...], dtype: np.dtype) -> bytes:
    """The header ``np.save`` writes for a table: magic, version, shape and dtype, padding."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": dtype.str, "fortran_order": False, "shape": shape}
    )
    return header.getvalue()


_DIGEST_BYTES = hashlib.sha256().digest_size


def _expected_bytes(space: Layout) -> int:
    """The size of a sound table file of a rule set (a first check that needs no read)."""
    data = int(np.prod(space.shape)) * space.dtype.itemsize
    return len(_npy_header(space.shape, space.dtype)) + data + _DIGEST_BYTES


class DamagedTable(ValueError):
    """A table file is there but is not one ``save_table`` wrote, or holds impossible values."""


def cache_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The directory holding the tables: ``path``, else $YAHTZEE_STRATEGY_DIR, else the default."""
    if path is not None:
        return Path(path).expanduser()
    return Path(os.environ.get(ENV_VAR) or DEFAULT_DIR).expanduser()


def table_path(rules: RuleSet = YAHTZEE, path: str | os.PathLike[str] | None = None) -> Path:
    """The file of the table that answers a rule set, named by that table's key
    (``yahtzee-v2-official.npy``; saved rolls: the plain game's, see ``points.exact_rules``);
    ``path`` is a directory, or a ``.npy`` file used as is."""
    if path is not None and str(path).endswith(".npy"):
        return Path(path).expanduser()
    try:
        key = exact_rules(rules).key
    except ValueError:  # no table answers it: a name no build writes
        key = rules.key
    return cache_dir(path) / f"yahtzee-v{TABLE_VERSION}-{key}.npy"


def table_exists(rules: RuleSet = YAHTZEE, path: str | os.PathLike[str] | None = None) -> bool:
    """True when a file of a complete table's size is in place (a cheap stat; no checksum)."""
    try:
        expected = _expected_bytes(layout(exact_rules(rules)))
        return table_path(rules, path).stat().st_size == expected
    except (OSError, ValueError):
        return False


def check_values(table: np.ndarray, rules: RuleSet = YAHTZEE) -> None:
    """Raise DamagedTable unless every value is a number of points some game could still score."""
    if not np.isfinite(table).all():
        raise DamagedTable("the table holds values that are not finite numbers")
    low, high, most = float(table.min()), float(table.max()), max_value(layout(rules))
    if low < 0 or high > most:
        raise DamagedTable(f"the table's values run from {low} to {high}, outside 0 to {most}")


def save_table(table: np.ndarray, file: Path) -> None:
    """Write ``table`` and its checksum to ``file`` atomically: a temporary file, then rename.

    A reader sees either the old file, no file, or the complete new one, never a partial write.
    It is written in its own dtype (float64, or float32 for six dice: see ``Layout.dtype``);
    ``load_table`` accepts only the shape and dtype of the rule set it is asked for.
    """
    if table.dtype not in (np.float64, np.float32) or table.ndim != 3:
        raise ValueError(f"a strategy table is 3-D float64 or float32, not {table.dtype}")
    values = np.ascontiguousarray(table, dtype=table.dtype.newbyteorder("<"))
    body = _npy_header(values.shape, values.dtype) + values.tobytes()
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


def load_table(file: Path, rules: RuleSet = YAHTZEE) -> np.ndarray:
    """Map and check a table of ``rules`` written by ``save_table`` (read-only; about 7 ms for
    the official rules' 8 MB, a second for Maxi Yatzy's 356 MB).

    The table is the file mapped into memory, not a copy: the server processes of a machine
    share one copy of it in the page cache (the file is replaced atomically, never rewritten in
    place, so a mapped table never changes under a reader).
    FileNotFoundError when there is no file; DamagedTable when it is not a sound table.
    """
    space = layout(rules)
    header, expected = _npy_header(space.shape, space.dtype), _expected_bytes(space)
    try:
        with open(file, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size != expected:
                raise DamagedTable(f"{file} is {size} bytes long, not {expected}")
            data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (FileNotFoundError, DamagedTable):
        raise
    except OSError as error:
        raise DamagedTable(f"{file} cannot be read: {error.strerror or error}") from error
    if data[: len(header)] != header:
        raise DamagedTable(f"{file} does not start with a strategy table's header")
    body = memoryview(data)[:-_DIGEST_BYTES]
    if hashlib.sha256(body).digest() != data[-_DIGEST_BYTES:]:
        raise DamagedTable(f"{file} does not match its checksum")
    count = int(np.prod(space.shape))
    table = np.frombuffer(data, dtype=space.dtype, count=count, offset=len(header))
    table = table.reshape(space.shape)
    try:
        check_values(table, rules)
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
