"""What a host meets: the health check, compressed static files, stopping the server, a
database that is down, and a quiet log."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection


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
