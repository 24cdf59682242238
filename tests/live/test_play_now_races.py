"""Play now on two real server processes sharing one database (SQLite here, PostgreSQL in
scripts/test's second pass): two people pressing at once, each on another process, land in one
game, never two, and neither waits on; one player's two tabs pressing at once wait once."""

from __future__ import annotations

import re

import pytest

from tests.servers import Browser, Server, at_once, online


@pytest.fixture
def servers(tmp_path):
    first = Server(tmp_path)
    second = Server(tmp_path)  # the same data folder: the same SQLite database, secret key
    if "DATABASE_URL" in first.env:  # on PostgreSQL: the first's database, not one of its own
        second.env["DATABASE_URL"] = first.env["DATABASE_URL"]
    with first, second:
        yield first, second


def games_of(page: str) -> set[str]:
    return set(re.findall(r'href="/game/([\w-]+)/"', page))


def test_two_presses_at_once_on_two_processes_make_one_game(servers):
    first, second = servers
    for round_ in range(3):
        ana, bo = online(first, f"Ana{round_}"), online(second, f"Bo{round_}")
        answers = at_once([lambda p=p: p.post("/play-now/press/", {}) for p in (ana, bo)])
        assert [status for status, _ in answers] == [200, 200]
        # The second press lands in the game; the first's waiting page leads there on its next
        # load (its socket, on either process, would have been sent there).
        pages = [ana.get("/play-now/")[1], bo.get("/play-now/")[1]]
        assert all("Looking for someone to play" not in page for page in pages)
        homes = [ana.get("/")[1], bo.get("/")[1]]
        assert len(games_of(homes[0])) == 1 and games_of(homes[0]) == games_of(homes[1])


def test_two_tabs_pressing_at_once_wait_once(servers):
    first, second = servers
    ana = online(first, "Ana")
    tab = Browser(second.url)  # another tab of the same browser, served by the other process
    tab.cookies, tab.opener = ana.cookies, ana.opener
    answers = at_once(
        [lambda: ana.post("/play-now/press/", {}), lambda: tab.post("/play-now/press/", {})]
    )
    assert sorted(status for status, _ in answers) == [200, 409]
    refused = next(page for status, page in answers if status == 409)
    assert "You are already waiting for someone to play." in refused
