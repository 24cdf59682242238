"""Start a server process on a loopback port, wait until it listens, stop it: one way for all.

The tests (tests/servers.py), the benchmarks (benchmarks/load/) and the stack (devstack/stack.py)
start uvicorn, gunicorn and nginx through ``ServerProcess``, and uvicorn with the command of
``uvicorn_command``, so that what they measure and test is the same server with the same flags.
The host's own commands keep their flags in step: scripts/serve's uvicorn is ``embedded=True``,
deploy/yahtzee-ws@.service's is ``embedded=False``.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import subprocess
import sys
from pathlib import Path

from devstack.processes import wait_for_port

ROOT = Path(__file__).resolve().parent.parent
ASGI_APPLICATION = "yahtzee_site.asgi:application"
# Loaded here, in the parent: the child, between fork and exec, only calls into it (loading a
# library there could wait forever on a lock another thread of the parent held at the fork).
_LIBC = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


def uvicorn_command(port: int, *, embedded: bool = True) -> list[str]:
    """uvicorn serving the site on 127.0.0.1:``port``.

    ``embedded``: as scripts/serve runs it (the whole site in one process). Otherwise as a
    WebSocket process of the scaled-out shape runs it (deploy/yahtzee-ws@.service): without the
    lifespan protocol, which Channels' router does not answer, and giving open sockets 5 s to
    close when stopped (the service gives 10: a loopback stack stops sooner).
    """
    command = [sys.executable, "-m", "uvicorn", ASGI_APPLICATION,
               "--host", "127.0.0.1", "--port", str(port), "--no-access-log"]  # fmt: skip
    if embedded:
        return command
    return [*command, "--lifespan", "off", "--timeout-graceful-shutdown", "5"]


def _die_with_parent() -> None:
    """In the child before exec: stop if the process that started it dies (even by SIGKILL)."""
    with contextlib.suppress(OSError, AttributeError):
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class ServerProcess:
    """One server process: its command, the port it listens on (if any) and its log file.

    ``start`` may be called again after ``stop`` or ``kill`` (a restarted server, same port).
    """

    def __init__(self, name: str, port: int | None, command: list[str], log: Path) -> None:
        self.name, self.port, self.command, self.log = name, port, command, log
        self.popen: subprocess.Popen | None = None

    def start(self, env: dict[str, str], wait: float | None = None) -> ServerProcess:
        """Start the process (appending to its log); with ``wait``, until its port listens."""
        with self.log.open("ab") as log:
            self.popen = subprocess.Popen(
                self.command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_die_with_parent,
            )  # fmt: skip
        if wait is not None:
            self.wait_until_listening(wait)
        return self

    def wait_until_listening(self, timeout: float = 30) -> None:
        """Return once the port accepts connections; fail, with the log's end, if it exits."""
        assert self.port is not None and self.popen is not None
        try:
            wait_for_port(self.port, self.popen, timeout=timeout)
        except RuntimeError as error:
            raise RuntimeError(f"{self.name}: {error}\n{self.log_tail()}") from None

    @property
    def running(self) -> bool:
        """Whether the process was started and has not exited."""
        return self.popen is not None and self.popen.poll() is None

    def terminate(self) -> None:
        """Ask the process to stop (SIGTERM), without waiting."""
        if self.running:
            self.popen.terminate()

    def wait(self, timeout: float = 60) -> int | None:
        """Wait for the process to end (killing it after ``timeout``); its exit code."""
        if self.popen is None:
            return None
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            return self.popen.wait(5)

    def stop(self, timeout: float = 15) -> int | None:
        """Stop the process as a service manager does: SIGTERM, then SIGKILL after ``timeout``."""
        self.terminate()
        return self.wait(timeout)

    def kill(self) -> None:
        """Stop the process the hard way, as a crash or a power cut would."""
        if self.running:
            self.popen.send_signal(signal.SIGKILL)
            self.popen.wait(10)

    def log_text(self) -> str:
        """Everything the process wrote (stdout and stderr), as text."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of the log: for a failure message."""
        return "\n".join(self.log_text().rstrip().splitlines()[-lines:])
