"""Private tables whose game never started expire, and are cleared away; started ones stay."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from lobby.models import TABLE_LIFETIME, Table, TableSeat
from tests.clients import client_for, finished_online_game, here, online

pytestmark = pytest.mark.django_db

EXPIRED = "This table has expired"


def age(table: Table, by: timedelta) -> None:
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - by)


def open_table(host: str = "host") -> tuple[Table, object]:
    client = online(host, host.title())
    client.post("/table/new/")
    return Table.objects.get(host__visitor=host), client


def test_an_unstarted_table_expires_after_its_lifetime():
    table, host = open_table()
    online("guest", "Guest").post(f"/t/{table.code}/join/")
    age(table, TABLE_LIFETIME + timedelta(seconds=1))
    seats = list(TableSeat.objects.values_list("pk", flat=True))

    page = client_for("stranger").get(f"/t/{table.code}/")
    assert page.status_code == 410
    assert EXPIRED in page.text and "Share this table" not in page.text
    late = online("late", "Late")
    for refused in (
        late.post(f"/t/{table.code}/join/"),
        late.post("/table/join/", {"code": table.code}),
    ):
        assert refused.status_code == 410
        assert EXPIRED in refused.text
    start = host.post(f"/t/{table.code}/start/")
    assert start.status_code == 410 and EXPIRED in start.text
    assert list(TableSeat.objects.values_list("pk", flat=True)) == seats
    assert not Game.objects.exists()


def test_a_table_within_its_lifetime_is_open():
    table, host = open_table()
    age(table, TABLE_LIFETIME - timedelta(minutes=1))
    assert client_for("stranger").get(f"/t/{table.code}/").status_code == 200
    assert online("guest", "Guest").post(f"/t/{table.code}/join/").status_code == 302
    assert host.post(f"/t/{table.code}/start/").status_code == 302


def test_a_started_table_keeps_leading_to_its_game():
    table, host = open_table()
    online("guest", "Guest").post(f"/t/{table.code}/join/")
    host.post(f"/t/{table.code}/start/")
    age(table, TABLE_LIFETIME * 3)
    game = Game.objects.get()
    assert host.get(f"/t/{table.code}/")["Location"] == f"/game/{game.id}/"
    watcher = client_for("watcher").get(f"/t/{table.code}/")
    assert watcher.status_code == 200 and "Watch the game" in watcher.text


def test_expired_tables_are_cleared_when_a_table_is_made():
    old, _ = open_table("old")
    age(old, TABLE_LIFETIME * 2)
    started, starter = open_table("starter")
    online("guest", "Guest").post(f"/t/{started.code}/join/")
    starter.post(f"/t/{started.code}/start/")
    age(started, TABLE_LIFETIME * 2)
    recent, _ = open_table("recent")

    open_table("another")

    assert set(Table.objects.values_list("code", flat=True)) == {
        started.code,
        recent.code,
        Table.objects.get(host__visitor="another").code,
    }
    gone = client_for("stranger").get(f"/t/{old.code}/")
    assert gone.status_code == 404 and "There is no table with that code." in gone.text


def test_an_expired_rematch_is_refused_and_offered_anew(settings):
    game, ana, bo = finished_online_game(settings)
    ana.post(f"/game/{game.id}/rematch/")
    offer = Table.objects.get(rematch_of=game)
    age(offer, TABLE_LIFETIME + timedelta(seconds=1))
    refused = bo.post(f"/t/{offer.code}/join/")
    assert refused.status_code == 410 and EXPIRED in refused.text

    here(game, "ana")  # Ana's page is still open: she counts as here, not as a day-old asker
    assert bo.post(f"/game/{game.id}/rematch/").status_code == 302  # a new offer, Bo's

    assert Game.objects.count() == 1  # Ana's day-old offer did not start a game by itself
    renewed = Table.objects.get(rematch_of=game)
    assert renewed.pk != offer.pk
    assert [seat.player.visitor for seat in renewed.seats.all()] == ["bo"]
    ana.post(f"/game/{game.id}/rematch/")
    assert Game.objects.count() == 2


def test_an_expired_tables_open_pages_are_sent_nothing():
    from lobby.consumers import render_table

    table, _ = open_table()
    page = {"language": "en", "csrf_token": "a" * 32}
    assert "Host" in render_table(table.code, "host", page)
    age(table, TABLE_LIFETIME + timedelta(seconds=1))
    assert render_table(table.code, "host", page) == ""
