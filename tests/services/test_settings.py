"""Production settings come from the environment and pass Django's deployment checks."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
from django.db import OperationalError, connection, connections, transaction

from devstack.processes import Redis, free_port
from games import services
from games.models import Game
from lobby.models import Player
from tests.commands import manage
from tests.servers import ROOT

PRODUCTION = {
    "YAHTZEE_ENV": "production",
    "SECRET_KEY": "a-production-secret-that-is-long-and-random-enough-0123456789abcdefghijk",
    "ALLOWED_HOSTS": "yahtzee.example",
}


def test_deploy_check_is_clean_in_production():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = PRODUCTION | {"SECRET_KEY": ""}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "YAHTZEE_ENV=production needs SECRET_KEY" in result.stderr


def test_plain_http_test_host_relaxes_only_the_https_settings():
    code = (
        "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, "
        "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.DEBUG, bool(s.SECURE_CSP))"
    )
    relaxed = manage("shell", "-c", code, **PRODUCTION, YAHTZEE_HTTPS="0")
    assert relaxed.stdout.splitlines()[-1].split() == ["False", "False", "0", "False", "True"]
    strict = manage("shell", "-c", code, **PRODUCTION)
    assert strict.stdout.splitlines()[-1].split() == ["True", "True", "31536000", "False", "True"]
    # And the relaxed host is exactly what the deployment check warns about.
    warned = manage("check", "--deploy", **PRODUCTION, YAHTZEE_HTTPS="0")
    assert "security.W008" in warned.stderr + warned.stdout


def test_a_negative_number_of_move_threads_is_refused():
    result = manage("check", MOVE_THREADS="-1")
    assert result.returncode != 0
    assert "MOVE_THREADS is a number of threads" in result.stderr


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_move_waits_at_most_two_seconds_for_its_games_lock():
    if connection.vendor != "postgresql":
        pytest.skip("the lock timeout is PostgreSQL's; SQLite's writers wait on its busy timeout")
    ana = Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    bo = Player.objects.create(visitor="bo", name="Bo", name_key="bo")
    game = services.start_online_game([ana, bo])
    holding, release = threading.Event(), threading.Event()

    def hold_the_row():  # as a psql session or a long migration would
        with transaction.atomic():
            Game.objects.select_for_update().get(pk=game.id)
            holding.set()
            release.wait(10)
        connections.close_all()

    holder = threading.Thread(target=hold_the_row)
    holder.start()
    try:
        assert holding.wait(10)
        started = time.monotonic()
        with pytest.raises(OperationalError, match="lock timeout"):
            services.perform(game.id, "ana", "roll", {"held": [False] * 5}, 0)
        assert 1.5 < time.monotonic() - started < 5
    finally:
        release.set()
        holder.join(10)
    assert Game.objects.get(pk=game.id).step == 0  # nothing applied


def test_the_asgi_server_keeps_its_start_up_objects_out_of_full_collections():
    script = "import gc, yahtzee_site.asgi; print(gc.get_freeze_count(), len(gc.get_objects()))"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    frozen, tracked = map(int, result.stdout.split())
    assert frozen > 10 * tracked  # Django, the site and the consumers: tens of thousands


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_URL": "sqlite:////tmp/yahtzee.sqlite3"}, "DATABASE_URL is for PostgreSQL"),
        ({"DATABASE_URL": "garbage"}, "DATABASE_URL is for PostgreSQL"),
        ({"REDIS_URL": "redis//:s3cret@127.0.0.1"}, "REDIS_URL must start with redis://"),
        ({"REDIS_URL": "http://127.0.0.1:6379"}, "REDIS_URL must start with redis://"),
        (PRODUCTION | {"SECRET_KEY": "replace-me"}, "SECRET_KEY must be at least 32"),
        (PRODUCTION | {"SECRET_KEY": "short"}, "SECRET_KEY must be at least 32"),
        (PRODUCTION | {"SECRET_KEY": "django-insecure-" + "x" * 40}, "SECRET_KEY must be at least"),
        ({"DATABASE_URL": "postgres://yahtzee:pa/ss@127.0.0.1:5432/y"}, "percent-encode"),
    ],
)
def test_a_setting_a_host_got_wrong_is_refused_with_one_clear_line(env, message):
    result = manage("check", **env)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert "s3cret" not in result.stderr  # a URL is not repeated: it may hold a password


def test_manage_py_still_takes_another_settings_module(tmp_path):
    (tmp_path / "other_settings.py").write_text(
        "from yahtzee_site.settings import *\nALLOWED_HOSTS = ['other.example']\n"
    )
    code = "from django.conf import settings; print(settings.ALLOWED_HOSTS)"
    result = manage("shell", "-c", code, "--pythonpath", str(tmp_path), "--settings",
                    "other_settings")  # fmt: skip
    assert result.stdout.strip().splitlines()[-1] == "['other.example']", result.stderr


def test_a_data_directory_that_cannot_be_made_is_refused_with_one_clear_line(tmp_path):
    (tmp_path / "a-file").write_text("")
    for where in [tmp_path / "a-file" / "data", "/proc/yahtzee-data"]:
        result = manage("check", YAHTZEE_DATA_DIR=str(where))
        assert result.returncode != 0
        assert f"The data directory {where} cannot be made" in result.stderr
        assert "Traceback" not in result.stderr


def test_the_deploy_check_asks_redis_when_redis_url_is_set():
    """A Redis that does not answer let the servers start, and the first move failed."""
    nobody = f"redis://127.0.0.1:{free_port()}/0"
    result = manage("check", "--deploy", **PRODUCTION, REDIS_URL=nobody)
    assert result.returncode != 0
    assert "yahtzee.E001" in result.stderr and "Redis does not answer" in result.stderr
    with Redis() as redis_server:
        answered = manage("check", "--deploy", **PRODUCTION, REDIS_URL=redis_server.url)
    assert answered.returncode == 0, answered.stderr
    assert "no issues" in answered.stdout


@pytest.mark.parametrize(
    ("settings_module", "installed"),
    [("yahtzee_site.settings", False), ("benchmarks.settings", True)],
)
def test_only_the_benchmark_settings_serve_the_load_benchmarks_reference_action(
    settings_module, installed
):
    """The reference action (benchmarks/reference/) is a tool: the site's own settings and URLs
    never name it."""
    code = (
        "from django.apps import apps; from django.urls import resolve, Resolver404\n"
        "try: found = resolve('/bench/reference/1/').view_name\n"
        "except Resolver404: found = None\n"
        "print(apps.is_installed('benchmarks.reference'), found)"
    )
    result = manage("shell", "-c", code, DJANGO_SETTINGS_MODULE=settings_module)
    assert result.returncode == 0, result.stderr
    expected = "True benchref:reference" if installed else "False None"
    assert result.stdout.strip().splitlines()[-1] == expected
