"""What a host meets: the health check, compressed static files, stopping the server, a
database that is down, and a quiet log."""

from __future__ import annotations

import hashlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.db import OperationalError, connection
from websockets.sync.client import connect

from devstack.processes import free_port
from tests.servers import ROOT, Server


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "head"])
def test_the_health_check_says_ok_and_sets_no_cookie(client, method):
    response = getattr(client, method)("/healthz")
    assert response.status_code == 200
    assert method == "head" or response.content == b"ok\n"
    assert response["Content-Type"].startswith("text/plain")
    assert not response.cookies  # neither a session nor a CSRF cookie
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_the_health_check_answers_503_when_the_database_does_not(client, monkeypatch):
    def refuse() -> None:
        raise OperationalError('connection to server at "db.internal", port 5432 failed')

    monkeypatch.setattr(connection, "ensure_connection", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"database unreachable\n"  # and not where the database is
    assert not response.cookies


@pytest.mark.django_db
def test_the_health_check_takes_no_post(client):
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_the_health_check_answers_plain_http_where_pages_redirect_to_https(client, settings):
    """In production a service manager asks over plain HTTP on loopback: no 301 to HTTPS."""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/").status_code == 301
    assert client.get("/healthz").status_code == 200


def manage(*args: str, **env: str) -> tuple[subprocess.CompletedProcess, float]:
    """``manage.py ARGS`` in a child process with ``env`` added, and how long it took."""
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=os.environ | env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return result, time.monotonic() - started


def database_down(tmp_path) -> dict[str, str]:
    """The environment of a host whose PostgreSQL is not running (nothing listens on its port)."""
    url = f"postgres://yahtzee:s3cret@127.0.0.1:{free_port()}/yahtzee"
    return {"DATABASE_URL": url, "YAHTZEE_DATA_DIR": str(tmp_path)}


def test_with_postgresql_down_a_command_fails_within_seconds_saying_why(tmp_path):
    """It used to wait for the pool's 20 s before a traceback that said only that."""
    result, seconds = manage("migrate", "--noinput", **database_down(tmp_path))
    assert result.returncode != 0
    assert "Is the server running on that host" in result.stderr
    assert "s3cret" not in result.stderr
    # Against Python and Django's start-up measured beside it (about 2 s on a quiet machine, 8 s
    # under a load of 15, where a fixed 10 s failed): the pool's 20 s would be well over.
    _, start_up = manage("check", YAHTZEE_DATA_DIR=str(tmp_path))
    assert seconds < start_up + 10


PAGES_WITH_THE_DATABASE_DOWN = """
import time
from django.test import Client
client = Client(raise_request_exception=False)
for path in ["/online/", "/healthz"]:
    started = time.monotonic()
    response = client.get(path)
    print(path, response.status_code, round(time.monotonic() - started, 1),
          "Something went wrong" in response.text)
"""


def test_with_postgresql_down_pages_answer_the_error_page_within_seconds(tmp_path):
    env = database_down(tmp_path) | {"ALLOWED_HOSTS": "testserver"}
    result, _ = manage("shell", "-c", PAGES_WITH_THE_DATABASE_DOWN, **env)
    answers = [line.split() for line in result.stdout.splitlines() if line.startswith("/")]
    assert [(path, status) for path, status, *_ in answers] == [
        ("/online/", "500"),
        ("/healthz", "503"),
    ], result.stderr
    page, health = answers
    assert page[3] == "True"  # the site's own 500 page
    assert float(page[2]) < 5 and float(health[2]) < 5


STATIC_WITH_ENCODINGS = """
from django.templatetags.static import static
from django.test import Client
client = Client()
for accepted in ["gzip, deflate, br, zstd", "gzip, deflate", ""]:
    response = client.get(static("css/site.css"), headers={"accept-encoding": accepted})
    print(repr(accepted), response.status_code, response.get("Content-Encoding", "identity"))
"""


def test_collected_static_files_are_served_brotli_compressed_to_browsers_that_take_it(tmp_path):
    env = {"YAHTZEE_DATA_DIR": str(tmp_path), "STATIC_MANIFEST": "1", "ALLOWED_HOSTS": "testserver"}
    collected, _ = manage("collectstatic", "--noinput", "--verbosity", "0", **env)
    assert collected.returncode == 0, collected.stderr
    root = tmp_path / "staticfiles"
    gzipped_files = [*root.glob("css/site.*.css.gz"), *root.glob("js/game.*.js.gz")]
    assert len(gzipped_files) == 2
    for gzipped in gzipped_files:
        brotli = gzipped.with_suffix(".br")
        assert brotli.exists(), f"{gzipped.name} has no .br beside it"
        assert brotli.stat().st_size < gzipped.stat().st_size
    # The site's own files are stored minified (backends/staticfiles.py), the
    # third-party ones as they come; each is named by the hash of what is stored.
    for collected in [*root.glob("css/site.*.css"), *root.glob("js/game.*.js")]:
        assert "\n/*" not in collected.read_text() and "\n//" not in collected.read_text()
        assert hashlib.md5(collected.read_bytes()).hexdigest()[:12] in collected.name
    htmx = next(root.glob("django_htmx/htmx-2.min.*.js"))
    assert htmx.read_bytes() == Path(finders.find("django_htmx/htmx-2.min.js")).read_bytes()
    served, _ = manage("shell", "-c", STATIC_WITH_ENCODINGS, **env)
    answers = [line.rsplit(" ", 2) for line in served.stdout.splitlines() if line.startswith("'")]
    assert answers == [
        ["'gzip, deflate, br, zstd'", "200", "br"],
        ["'gzip, deflate'", "200", "gzip"],
        ["''", "200", "identity"],
    ], served.stderr


def processes_with(variable: str) -> list[int]:
    """The processes whose environment holds ``variable`` (NAME=value): this test's own."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            environ = b"\0" + (entry / "environ").read_bytes() if entry.name.isdigit() else b""
            if b"\0" + variable.encode() + b"\0" in environ:
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return "(gone)"


def solving(pid: int) -> bool:
    try:
        return b"solve" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


@pytest.mark.parametrize(
    "stop",
    [
        # Ctrl-C in a terminal signals the whole foreground process group.
        pytest.param(lambda serve: os.killpg(serve.pid, signal.SIGINT), id="ctrl-c"),
        # An IDE's stop button, a tool or `kill -INT` signals the script alone.
        pytest.param(lambda serve: serve.send_signal(signal.SIGINT), id="sigint"),
        # `kill`, or a service manager that stops the main process.
        pytest.param(lambda serve: serve.send_signal(signal.SIGTERM), id="kill"),
    ],
)
def test_stopping_a_first_scripts_serve_stops_its_strategy_solve_too(tmp_path, stop):
    """On a first start scripts/serve builds the strategy table beside the server (10-40 s of
    CPU); a signal to the script used to stop the server and leave the solve running alone."""
    port = free_port()
    mark = f"YAHTZEE_STRATEGY_DIR={tmp_path / 'strategy'}"  # empty: a solve starts
    env = os.environ | {
        "YAHTZEE_DATA_DIR": str(tmp_path),
        "YAHTZEE_STRATEGY_DIR": str(tmp_path / "strategy"),
        "PORT": str(port),
    }
    # As a host runs it, from a shell outside the project's venv: under `uv run` (scripts/test)
    # the venv's python3 comes first on PATH, which has neither uv nor pip to install it.
    venv_bin = str(ROOT / ".venv" / "bin")
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != venv_bin)
    env.pop("VIRTUAL_ENV", None)
    # In a session of its own, as a terminal runs a command in a process group of its own.
    # With Ctrl-C at its default, as a terminal starts a command: a test run started in the
    # background of a script (CI's, `... &`) ignores SIGINT, and a shell started so cannot trap it.
    serve = subprocess.Popen(
        [ROOT / "scripts" / "serve"], cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not (any(map(solving, processes_with(mark))) and listening(port)):
            assert serve.poll() is None, serve.stderr.read().decode()
            assert time.monotonic() < deadline, "no solve and server within 120 s"
            time.sleep(0.2)
        stop(serve)
        try:
            serve.wait(10)  # 0.2 s on a quiet machine
        except subprocess.TimeoutExpired:
            left = {pid: command_of(pid) for pid in processes_with(mark)}
            pytest.fail(f"scripts/serve still running 10 s after the signal; its processes: {left}")
        deadline = time.monotonic() + 5
        while processes_with(mark) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in processes_with(mark) if solving(pid)]
        assert not processes_with(mark)  # nor the server
    finally:
        for pid in processes_with(mark):  # what this test started, if it failed
            os.kill(pid, signal.SIGKILL)
        serve.wait(10)


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def test_the_server_log_has_no_line_per_socket_but_keeps_its_start_up_lines(tmp_path):
    """Every page view opened a socket and logged three lines ("[accepted]", "connection open",
    "connection closed") at INFO, drowning what a host needs to read."""
    with Server(tmp_path) as server:
        url = server.url.replace("http://", "ws://") + "/ws/lobby/"
        for _ in range(3):
            with connect(url, origin=server.url, open_timeout=5) as socket_:
                socket_.recv(timeout=5)  # the lobby's catch-up
        # The third was answered after the server had read the second's close (it came first, on
        # the one event loop): the second's "connection closed" would be in the log by now.
    log = server.log()
    assert "Uvicorn running on" in log and "Application startup complete" in log
    for line in ['"WebSocket /ws/lobby/" [accepted]', "connection open", "connection closed"]:
        assert line not in log


def test_a_bad_host_header_gets_a_400_and_one_short_line_in_the_log(tmp_path):
    """Any scanner sends one: it wrote a whole traceback to the log each time."""
    with Server(tmp_path) as server:
        for method in ("GET", "POST"):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            connection.request(method, "/", headers={"Host": "evil.example"})
            assert connection.getresponse().status == 400
            connection.close()
        deadline = time.monotonic() + 10
        while server.log().count("Invalid HTTP_HOST header") < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # until the server has written both
    log = server.log()
    told = [line for line in log.splitlines() if "evil.example" in line]
    assert len(told) == 2 and told[0].startswith("Invalid HTTP_HOST header: 'evil.example'")
    assert "Traceback" not in log and "DisallowedHost" not in log
