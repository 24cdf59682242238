"""Throwaway PostgreSQL and Redis servers on free loopback ports, for the stack and the tests.

PostgreSQL refuses to run as root, so when we are root its binaries run as the ``postgres``
user that Debian's packages create. Both servers keep their data in a temporary directory and
leave nothing behind once stopped.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen | None = None, timeout: float = 30) -> None:
    """Return once something accepts connections on ``port``; fail if ``process`` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if process is not None and process.poll() is not None:
                message = f"the process on port {port} exited ({process.returncode})"
                raise RuntimeError(message) from None
            time.sleep(0.05)
    raise RuntimeError(f"nothing listened on port {port} within {timeout:.0f} s")


def pg_binary(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True):
        return str(candidate)
    raise RuntimeError(f"{name} not found: install PostgreSQL's server package (postgresql)")


class Postgres:
    """A PostgreSQL cluster in a temporary directory; ``url(name)`` for a database in it."""

    user = "yahtzee"

    def __init__(self, port: int | None = None, durable: bool = False) -> None:
        self.port = port or free_port()
        self.durable = durable
        self.directory = Path(tempfile.mkdtemp(prefix="yahtzee-pg-"))
        self.data = self.directory / "data"
        self.as_postgres: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
            self.as_postgres = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_postgres, *command], check=True, capture_output=True)

    def start(self) -> Postgres:
        self._run(pg_binary("initdb"), "-D", str(self.data), "-U", self.user,
                  "--auth=trust", "--encoding=UTF8", "--no-instructions")  # fmt: skip
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1"
        if not self.durable:
            # A throwaway cluster: skip the disk flushes that make start-up and tests slow.
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(pg_binary("pg_ctl"), "-D", str(self.data), "-o", options,
                  "-l", str(self.directory / "log"), "-w", "start")  # fmt: skip
        return self

    def url(self, name: str = "postgres") -> str:
        return f"postgres://{self.user}@127.0.0.1:{self.port}/{name}"

    def create_database(self, name: str) -> str:
        """Make an empty database and return its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, RuntimeError):
            self._run(pg_binary("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> Postgres:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class Redis:
    """A redis-server on a free loopback port that keeps nothing on disk."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> Redis:
        executable = shutil.which("redis-server")
        if executable is None:
            raise RuntimeError("redis-server not found: install Debian's redis-server package")
        self.process = subprocess.Popen(
            [executable, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            wait_for_port(self.port, self.process, timeout=10)
        except RuntimeError:
            self.stop()
            raise
        return self

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def __enter__(self) -> Redis:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
