"""The servers the benchmark loads: embedded, scaled out (devstack), or one already running."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

from benchmarks.load.recording import CpuMeter, process_tree
from devstack.launcher import ROOT, ServerProcess, uvicorn_command
from devstack.processes import Postgres, free_port


class Embedded:
    """The embedded default as scripts/serve runs it: one uvicorn process, static files collected
    and compressed (STATIC_MANIFEST=1), in a throwaway data directory; SQLite or PostgreSQL."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.directory = Path(tempfile.mkdtemp(prefix="yahtzee-bench-"))
        self.postgres: Postgres | None = None
        self.port = free_port()
        log = self.directory / "server.log"
        self.process = ServerProcess("uvicorn", self.port, uvicorn_command(self.port), log)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def describe(self) -> str:
        name = "SQLite" if self.database == "sqlite" else "PostgreSQL"
        return f"embedded default: 1 uvicorn process, {name}, in-memory channel layer"

    def start(self) -> Embedded:
        env = _bench_env() | {"YAHTZEE_DATA_DIR": str(self.directory), "STATIC_MANIFEST": "1",
                              "ALLOWED_HOSTS": "127.0.0.1", "PYTHONUNBUFFERED": "1"}  # fmt: skip
        for name in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "DJANGO_ALLOW_ASYNC_UNSAFE"):
            env.pop(name, None)
        if self.database == "postgres":
            self.postgres = Postgres().start()
            env["DATABASE_URL"] = self.postgres.create_database("yahtzee")
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v", "0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                           check=True, capture_output=True)  # fmt: skip
        self.process.start(env, wait=30)
        CpuMeter.server_processes = self.processes
        return self

    def processes(self) -> dict[str, set[int]]:
        found = {"uvicorn": process_tree(self.process.popen.pid)}
        if self.postgres is not None:
            with contextlib.suppress(OSError, ValueError):
                postmaster = (self.postgres.data / "postmaster.pid").read_text().split()[0]
                found["postgres"] = process_tree(int(postmaster))
        return found

    def log_tail(self, lines: int = 40) -> str:
        return self.process.log_tail(lines)

    def stop(self) -> None:
        self.process.stop(timeout=10)
        if self.postgres is not None:
            self.postgres.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


class ScaledOut:
    """devstack/stack.py: nginx over gunicorn (HTTP) and uvicorn (WebSocket) processes."""

    def __init__(self, http: int, ws: int, workers: int, database: str) -> None:
        from devstack.stack import Stack

        env = {"DJANGO_SETTINGS_MODULE": "benchmarks.settings"} | _strategy_env()
        if database == "sqlite":
            env["DATABASE_URL"] = ""  # settings fall back to SQLite in the stack's data directory
        self.stack = Stack(http=http, ws=ws, workers=workers, env=env)
        name = "SQLite" if database == "sqlite" else "PostgreSQL"
        self.describe = (
            f"scaled out (devstack/stack.py): nginx, {http} gunicorn process(es) x {workers} sync "
            f"worker(s), {ws} uvicorn WebSocket process(es), {name}, Redis"
        )

    @property
    def url(self) -> str:
        return self.stack.url

    def start(self) -> ScaledOut:
        self.stack.start()
        CpuMeter.server_processes = self.processes
        return self

    def processes(self) -> dict[str, set[int]]:
        http = {pid for p in self.stack.http for pid in process_tree(p.popen.pid)}
        ws = {pid for p in self.stack.ws for pid in process_tree(p.popen.pid)}
        return {"gunicorn": http, "uvicorn": ws, "nginx+db+redis": self.stack.pids() - http - ws}

    def log_tail(self, lines: int = 40) -> str:
        return self.stack.log_tail(lines)

    def stop(self) -> None:
        self.stack.stop()


class Running:
    """A server someone else started (``--url``)."""

    def __init__(self, url: str) -> None:
        host = urllib.parse.urlsplit(url).hostname
        if host not in ("127.0.0.1", "localhost"):
            sys.exit("only a server on 127.0.0.1 may be loaded")
        self.url = url.rstrip("/")
        self.describe = f"running server at {self.url}"

    def start(self) -> Running:
        return self

    def log_tail(self, lines: int = 40) -> str:
        return ""

    def stop(self) -> None:
        pass


def _strategy_env() -> dict[str, str]:
    """Point the server at the solved tables when this checkout has them (read only)."""
    strategy = Path(os.environ.get("YAHTZEE_STRATEGY_DIR", ROOT / "var" / "strategy"))
    return {"YAHTZEE_STRATEGY_DIR": str(strategy)} if any(strategy.glob("*.npy")) else {}


def _bench_env() -> dict[str, str]:
    """The embedded server's environment: the benchmark settings, with the reference action."""
    return dict(os.environ) | {"DJANGO_SETTINGS_MODULE": "benchmarks.settings"} | _strategy_env()
