"""Start the real ASGI server in a child process, on a free loopback port, with its own data dir
(through devstack.launcher, as the benchmarks and the stack start theirs)."""

from __future__ import annotations

import concurrent.futures
import http.cookiejar
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

from devstack import processes
from devstack.launcher import ROOT, ServerProcess, uvicorn_command
from devstack.processes import free_port

# Debian's Chromium, headless, as root, with no network beyond loopback (see shared/MACHINE.md):
# without the background-networking flags it keeps dialing hosts it cannot reach.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


class Server:
    """uvicorn serving the site from ``data_dir``; ``start``/``kill`` may be called repeatedly."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.env = os.environ | {
            "YAHTZEE_DATA_DIR": str(data_dir),
            "ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
        }
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        if self.env.get("DATABASE_URL"):
            # On PostgreSQL (scripts/test's second run) each server gets a database of its own.
            self.env["DATABASE_URL"] = fresh_database(self.env["DATABASE_URL"])
        log = data_dir / "server.log"  # stdout and stderr, across restarts
        self.process = ServerProcess("uvicorn", self.port, uvicorn_command(self.port), log)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT, env=self.env, check=True, capture_output=True,
        )  # fmt: skip

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.process.start(self.env, wait=30)
        return self

    def kill(self) -> None:
        """Stop the server the hard way, as a crash or a power cut would."""
        self.process.kill()

    def log(self) -> str:
        """What the server wrote to stdout and stderr so far, over all its starts."""
        return self.process.log_text()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.kill()


def fresh_database(url: str) -> str:
    """A new empty database beside the one ``url`` names, on the same PostgreSQL server."""
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = f"server_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))


class Browser:
    """A minimal cookie-keeping HTTP client that posts forms with their CSRF token."""

    def __init__(self, base: str, language: str = "en") -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.opener.addheaders = [("Accept-Language", language)]

    def get(self, path: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict, htmx: bool = False) -> tuple[int, str]:
        token = next((c.value for c in self.cookies if c.name == "csrftoken"), "")
        body = urllib.parse.urlencode(data).encode()
        headers = {"X-CSRFToken": token, "Referer": self.base + "/"}
        if htmx:
            headers["HX-Request"] = "true"
        return self._open(urllib.request.Request(self.base + path, body, headers))

    def _open(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def dice_labels(page: str) -> list[str]:
    """The five dice as a page shows them: label and held state."""
    return re.findall(r'aria-pressed="(true|false)"[^>]*?aria-label="([^"]+)"', page, re.S)


class Redis(processes.Redis):
    """A throwaway redis-server, started at once (installed by scripts/test from apt)."""

    def __init__(self) -> None:
        super().__init__()
        self.start()


def at_once(calls):
    """Run the calls in parallel threads; their (status, page) answers in order."""
    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(lambda call: call(), calls))


def online(server: Server, name: str) -> Browser:
    """A browser that went online under ``name`` on this server."""
    player = Browser(server.url)
    player.get("/online/")
    status, _ = player.post("/online/name/", {"name": name})
    assert status == 200, name
    return player


def move(player: Browser, game: str, step: int) -> int:
    """Roll once (an even step), or score the first open box (an odd one), on the game at this
    address: the step the game is at after it."""
    if step % 2 == 0:
        status, _ = player.post(game + "roll/", {"step": step, "held": "00000"}, htmx=True)
    else:
        _, page = player.get(game)
        box = re.search(r'href="\?select=(\w+)"', page)[1]
        status, _ = player.post(game + "score/", {"step": step, "box": box}, htmx=True)
    assert status == 200, (step, status)
    return step + 1
