"""Rate limits by address as well as by visitor, and the address they count (issue #14)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, RequestFactory
from django.utils import timezone

from core.addresses import client_address
from lobby import access
from lobby.access import ADDRESS_RATE_LIMITS, RATE_LIMITS
from lobby.models import Challenge, Player, Table
from tests.commands import manage

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_minute(monkeypatch):
    """Every request of a test in the same minute of the limits, even across a minute's end."""
    monkeypatch.setattr(access, "rate_window", lambda: 1)


HOME = "203.0.113.7"  # one household's router, as the site sees it
ELSEWHERE = "198.51.100.20"
TOO_MANY = "Too many requests: wait a minute and try again."
WRONG_CODES = "Too many codes that found no table: wait a minute and try again."


def browser(visitor: str | None, address: str = HOME, **headers: str) -> Client:
    """A fresh browser (a session of its own) at this address."""
    client = Client(REMOTE_ADDR=address, headers=headers)
    if visitor is not None:
        session = client.session
        session["visitor"] = visitor
        session.save()
    return client


def player(visitor: str, address: str = HOME) -> Client:
    """A browser already online (made directly, so that choosing names counts toward nothing)."""
    Player.objects.create(
        visitor=visitor,
        name=visitor,
        name_key=visitor.casefold(),
        online_until=timezone.now() + timedelta(minutes=5),
    )
    return browser(visitor, address)


def test_fresh_sessions_from_one_address_cannot_flood_a_player_with_challenges():
    player("bo", ELSEWHERE)
    bo = Player.objects.get(visitor="bo").pk
    limit = ADDRESS_RATE_LIMITS["challenge"]
    statuses = [
        player(f"fresh{n}").post("/online/challenge/", {"player": bo}).status_code
        for n in range(limit + 2)
    ]
    assert statuses == [302] * limit + [429, 429]
    refused = player("one-more").post("/online/challenge/", {"player": bo})
    assert TOO_MANY in refused.text
    assert Challenge.objects.count() == limit
    # Someone at another address is not held up by them.
    assert (
        player("elsewhere", ELSEWHERE).post("/online/challenge/", {"player": bo}).status_code == 302
    )


def test_fresh_sessions_from_one_address_cannot_go_online_without_end():
    limit = ADDRESS_RATE_LIMITS["name"]
    statuses = [
        browser(None).post("/online/name/", {"name": f"Name {n}"}).status_code
        for n in range(limit + 1)
    ]
    assert statuses == [302] * limit + [429]
    assert Player.objects.count() == limit
    assert browser(None, ELSEWHERE).post("/online/name/", {"name": "Other"}).status_code == 302


def test_fresh_sessions_from_one_address_cannot_open_tables_without_end(monkeypatch):
    monkeypatch.setitem(ADDRESS_RATE_LIMITS, "join", 5)
    statuses = [player(f"host{n}").post("/table/new/").status_code for n in range(7)]
    assert statuses == [302] * 5 + [429, 429]
    assert Table.objects.count() == 5
    code = Table.objects.first().code
    refused = player("guest").post(f"/t/{code}/join/")  # joining counts with making
    assert refused.status_code == 429 and TOO_MANY in refused.text
    assert Table.objects.first().seats.count() == 1


def test_a_household_behind_one_address_plays_as_usual():
    """Six people at one address each go online, open a table and join the others'."""
    people = [browser(None) for _ in range(6)]
    for n, person in enumerate(people):
        assert person.post("/online/name/", {"name": f"Person {n}"}).status_code == 302
        assert person.post("/table/new/").status_code == 302
    codes = list(Table.objects.values_list("code", flat=True))
    for person in people:
        for code in codes:
            assert person.get(f"/t/{code}/").status_code == 200
            assert person.post(f"/t/{code}/join/").status_code == 302


def test_guessing_table_codes_is_limited_by_address():
    host = player("host", ELSEWHERE)
    host.post("/table/new/")
    real = Table.objects.get().code
    limit = ADDRESS_RATE_LIMITS["lookup"]
    guesses = [browser(None).get(f"/t/GUESS{n % 10}/").status_code for n in range(limit)]
    assert guesses == [404] * limit
    refused = browser(None).get("/t/GUESS0/")
    assert refused.status_code == 429 and WRONG_CODES in refused.text
    # Past the limit a right code is refused too: the answer tells nothing about the code.
    assert browser(None).get(f"/t/{real}/").status_code == 429
    assert browser(None, ELSEWHERE).get(f"/t/{real}/").status_code == 200


def test_guessing_table_codes_is_limited_by_visitor():
    guesser = player("guesser", "127.0.0.1")  # this machine: no limit by address, only this one
    limit = RATE_LIMITS["lookup"]
    assert [guesser.get(f"/t/GUESS{n}/").status_code for n in range(limit)] == [404] * limit
    assert guesser.get("/t/GUESS0/").status_code == 429
    by_form = guesser.post("/table/join/", {"code": "GUESS0"})
    assert by_form.status_code == 429 and WRONG_CODES in by_form.text


def test_the_join_by_code_form_counts_wrong_codes():
    guesser = player("guesser", "127.0.0.1")
    limit = RATE_LIMITS["lookup"]
    statuses = [
        guesser.post("/table/join/", {"code": f"GUESS{n}"}).status_code for n in range(limit + 1)
    ]
    assert statuses == [404] * limit + [429]
    assert WRONG_CODES in guesser.post("/table/join/", {"code": "GUESS0"}).text


def test_joining_and_starting_by_link_count_wrong_codes_too():
    player("host", ELSEWHERE).post("/table/new/")
    real = Table.objects.get().code
    limit = ADDRESS_RATE_LIMITS["lookup"]
    paths = ["/t/GUESS0/start/", "/t/GUESS0/join/"]  # by browsers with no name yet
    assert [browser(None).post(paths[n % 2]).status_code for n in range(limit)] == [404] * limit
    # Past the limit no answer shows the table, whatever else would have been refused first.
    for refused in (
        browser(None).post(f"/t/{real}/start/"),
        browser(None).post(f"/t/{real}/join/", {"name": "\u3164"}),
        player("seated").post(f"/t/{real}/join/"),
        browser(None).get(f"/t/{real}/"),
    ):
        assert refused.status_code == 429
        assert WRONG_CODES in refused.text and "Share this table" not in refused.text
    assert Table.objects.get().seats.count() == 1


def test_a_players_own_table_never_meets_the_look_up_limit():
    host = player("host")
    host.post("/table/new/")
    code = Table.objects.get().code
    for _ in range(ADDRESS_RATE_LIMITS["lookup"] + 5):
        assert host.get(f"/t/{code}/").status_code == 200


def test_a_client_cannot_pick_its_address_with_its_own_header(settings):
    settings.TRUSTED_PROXIES = []
    limit = ADDRESS_RATE_LIMITS["lookup"]
    for n in range(limit):
        browser(None, X_Forwarded_For=f"192.0.2.{n}").get("/t/GUESS0/")
    spoofed = browser(None, X_Forwarded_For="192.0.2.250").get("/t/GUESS0/")
    assert spoofed.status_code == 429


def test_behind_a_trusted_proxy_each_client_has_its_own_limit(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]
    limit = ADDRESS_RATE_LIMITS["lookup"]
    for _ in range(limit):
        browser(None, "127.0.0.1", X_Forwarded_For=HOME).get("/t/GUESS0/")
    # nginx appends the address it saw: a made-up one the client put first changes nothing.
    spoofed = browser(None, "127.0.0.1", X_Forwarded_For=f"192.0.2.1, {HOME}")
    assert spoofed.get("/t/GUESS0/").status_code == 429
    assert (
        browser(None, "127.0.0.1", X_Forwarded_For=ELSEWHERE).get("/t/GUESS0/").status_code == 404
    )


@pytest.mark.parametrize("written", [f"{HOME}:{{port}}", "[2001:db8::7]:{port}"])
def test_a_proxy_that_writes_ports_leaves_the_limits_on(settings, written):
    """Each connection has a port of its own: the limit is still the address's."""
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    limit = ADDRESS_RATE_LIMITS["lookup"]
    statuses = [
        browser(None, "127.0.0.1", X_Forwarded_For=written.format(port=40000 + n))
        .get("/t/GUESS0/")
        .status_code
        for n in range(limit + 1)
    ]
    assert statuses == [404] * limit + [429]


def test_one_ipv6_network_shares_a_limit():
    limit = ADDRESS_RATE_LIMITS["lookup"]
    for n in range(limit):
        assert browser(None, f"2001:db8:1:2::{n + 1:x}").get("/t/GUESS0/").status_code == 404
    assert browser(None, "2001:db8:1:2:ffff::1").get("/t/GUESS0/").status_code == 429
    assert browser(None, "2001:db8:1:3::1").get("/t/GUESS0/").status_code == 404


@pytest.mark.parametrize(
    ("trusted", "remote", "forwarded", "client"),
    [
        ([], HOME, None, HOME),
        ([], HOME, "192.0.2.1", HOME),  # not through a proxy: the header is the client's own
        (["127.0.0.1"], "127.0.0.1", HOME, HOME),
        (["127.0.0.1"], "127.0.0.1", f"192.0.2.1, {HOME}", HOME),
        (["127.0.0.1"], HOME, "192.0.2.1", HOME),  # trusted proxies, but this one came direct
        (["127.0.0.1"], "127.0.0.1", None, "127.0.0.1"),
        (["127.0.0.1", "10.0.0.0/8"], "127.0.0.1", f"{HOME}, 10.1.2.3", HOME),  # two proxies
        (["::1"], "::1", "2001:db8::5", "2001:db8::5"),
        (["127.0.0.1"], "::ffff:127.0.0.1", HOME, HOME),
        (["127.0.0.1"], "127.0.0.1", "not-an-address", "127.0.0.1"),
        # Some proxies write the client's port too: the address is read without it.
        (["127.0.0.1"], "127.0.0.1", f"{HOME}:5678", HOME),
        (["127.0.0.1"], "127.0.0.1", f"192.0.2.1:1, {HOME}:5678", HOME),
        (["127.0.0.1", "10.0.0.0/8"], "127.0.0.1", f"{HOME}:5678, 10.1.2.3:80", HOME),
        (["127.0.0.1"], "127.0.0.1", "[2001:db8::1]:443", "2001:db8::1"),
        (["127.0.0.1"], "127.0.0.1", "[2001:db8::1]", "2001:db8::1"),
        (["127.0.0.1"], "127.0.0.1", "[::ffff:203.0.113.7]:443", HOME),
        # A bare IPv6 address keeps its last group: it is no port.
        (["127.0.0.1"], "127.0.0.1", "2001:db8::1:443", "2001:db8::1:443"),
        (["127.0.0.1"], "127.0.0.1", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2:3:4:5:6"),
        (["127.0.0.1"], "127.0.0.1", f"{HOME}:port", "127.0.0.1"),
        (["127.0.0.1"], "127.0.0.1", "[2001:db8::1]:443x", "127.0.0.1"),
    ],
)
def test_the_client_address(settings, trusted, remote, forwarded, client):
    settings.TRUSTED_PROXIES = trusted
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    request = RequestFactory(headers=headers).get("/", REMOTE_ADDR=remote)
    assert client_address(request) == client


def test_a_trusted_proxy_that_is_no_address_is_refused_at_start():
    result = manage("check", TRUSTED_PROXIES="127.0.0.1,nginx")
    assert result.returncode != 0
    assert "TRUSTED_PROXIES lists addresses or networks" in result.stderr
    assert "'nginx' is neither" in result.stderr
