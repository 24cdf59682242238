"""``python -m devstack.throwaway``: the PostgreSQL cluster goes with the run, however it ends."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.parse

from tests.servers import ROOT

# The command: write the cluster's URL where the test looks, then wait or end.
TELL = (
    "import os, pathlib, sys, time;"
    " pathlib.Path(sys.argv[1]).write_text(os.environ['DATABASE_URL'])"
)
WAIT = TELL + "; time.sleep(60)"


def start(tmp_path, script: str) -> tuple[subprocess.Popen, str]:
    """A throwaway run of ``script``, once the command has started; the cluster's URL."""
    told = tmp_path / "url"
    run = subprocess.Popen(
        [sys.executable, "-m", "devstack.throwaway", "postgres", "--",
         sys.executable, "-c", script, str(told)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (told.exists() and told.read_text()):
        assert run.poll() is None, run.stderr.read().decode()
        assert time.monotonic() < deadline, "the command did not start within 60 s"
        time.sleep(0.1)
    return run, told.read_text()


def answers(url: str) -> bool:
    address = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection((address.hostname, address.port), timeout=1):
            return True
    except OSError:
        return False


def test_a_run_stopped_by_a_time_limit_stops_its_command_and_removes_the_cluster(tmp_path):
    run, url = start(tmp_path, WAIT)
    assert answers(url)
    run.send_signal(signal.SIGTERM)  # what `timeout` and CI's time limit send
    assert run.wait(30) == 128 + signal.SIGTERM  # the command was stopped, not waited out
    assert not answers(url)


def test_a_run_ends_with_its_commands_exit_code_and_removes_the_cluster(tmp_path):
    script = TELL + "; sys.exit(3)"
    told = tmp_path / "url"
    code = subprocess.run(
        [sys.executable, "-m", "devstack.throwaway", "postgres", "--", sys.executable, "-c", script,
         str(told)],
        cwd=ROOT, capture_output=True, timeout=120,
    ).returncode  # fmt: skip
    assert code == 3
    assert not answers(told.read_text())
