"""``manage.py`` in a child process, as a host runs it."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.servers import ROOT


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "YAHTZEE_HTTPS"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=base | env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
