"""Run a command beside a throwaway PostgreSQL cluster, with DATABASE_URL pointing into it.

    python -m devstack.throwaway postgres -- pytest -q

scripts/test runs the whole suite this way a second time, so that it passes on PostgreSQL as
well as on the embedded SQLite. The cluster is removed when the command ends, also when the run
is stopped: SIGTERM (a time limit) and SIGHUP are passed on to the command, and Ctrl-C gives it
a few seconds.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys

from devstack.processes import Postgres

STOP_SECONDS = 10  # that an interrupted command gets to finish before it is killed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("service", choices=["postgres"])
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- command [args...]")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    with Postgres() as postgres:
        url = postgres.create_database("yahtzee")
        print(f"PostgreSQL for this run: {url}", flush=True)
        child = subprocess.Popen(command, env=os.environ | {"DATABASE_URL": url})
        # Stopped by a time limit (`timeout`, CI) or a closed terminal: pass it on, and remove
        # the cluster once the command has ended (Python's default would leave it running).
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, lambda signum, frame: child.send_signal(signum))
        try:
            code = child.wait()
        finally:
            if child.poll() is None:  # Ctrl-C reached the command too: give it a moment
                try:
                    child.wait(STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
        return 128 - code if code < 0 else code  # killed by a signal: as a shell reports it


if __name__ == "__main__":
    sys.exit(main())
