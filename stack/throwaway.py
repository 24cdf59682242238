"""Run a command beside a throwaway PostgreSQL cluster, with DATABASE_URL pointing into it.

    python -m stack.throwaway postgres -- pytest -q

scripts/test runs the whole suite this way a second time, so that it passes on PostgreSQL as
well as on the embedded SQLite. The cluster is removed when the command ends.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from stack.services import Postgres


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
        return subprocess.run(command, env=os.environ | {"DATABASE_URL": url}).returncode


if __name__ == "__main__":
    sys.exit(main())
