"""What a host meets: the health check, compressed static files, stopping the server, a
database that is down, and a quiet log."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from django.db import OperationalError, connection

from stack.services import free_port
from tests.servers import ROOT


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
    assert seconds < 10  # Python and Django start in about 2 s of it


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
    served, _ = manage("shell", "-c", STATIC_WITH_ENCODINGS, **env)
    answers = [line.rsplit(" ", 2) for line in served.stdout.splitlines() if line.startswith("'")]
    assert answers == [
        ["'gzip, deflate, br, zstd'", "200", "br"],
        ["'gzip, deflate'", "200", "gzip"],
        ["''", "200", "identity"],
    ], served.stderr
