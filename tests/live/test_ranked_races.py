"""The ranked queue's clicks racing on a real server (SQLite here, PostgreSQL in scripts/test's
second pass): two players joining at once start one game, never two; one player's two tabs
joining at once make one entry."""

from __future__ import annotations

import re

import pytest

from tests.servers import Browser, Server, at_once, online


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def ranked_games(player: Browser) -> set[str]:
    """The games the player's home page lists."""
    return set(re.findall(r'href="/game/([\w-]+)/"', player.get("/")[1]))


def test_two_players_joining_at_once_start_one_game(server):
    for round_ in range(3):
        ana, bo = online(server, f"Ana{round_}"), online(server, f"Bo{round_}")
        answers = at_once([lambda p=p: p.post("/online/ranked/join/", {}) for p in (ana, bo)])
        assert [status for status, _ in answers] == [200, 200]
        # The second to join lands in the game, the first's lobby leads to it (or, if its pairing
        # ran after both joins, the other way round): one game, the only one either has.
        started = {g for _, page in answers for g in re.findall(r"/game/([\w-]+)/", page)}
        assert len(started) == 1, [page[-500:] for _, page in answers]
        assert ranked_games(ana) == ranked_games(bo) == started
        for player in (ana, bo):
            assert "Looking for an opponent" not in player.get("/online/")[1]


def test_two_tabs_joining_at_once_make_one_entry(server):
    ana = online(server, "Ana")
    answers = at_once([lambda: ana.post("/online/ranked/join/", {}, htmx=True)] * 2)
    assert sorted(status for status, _ in answers) == [200, 409]
    refused = next(page for status, page in answers if status == 409)
    assert "You are already looking for an opponent." in refused
    status, _ = ana.post("/online/ranked/leave/", {}, htmx=True)
    assert status == 200
    status, page = ana.post("/online/ranked/leave/", {}, htmx=True)
    assert status == 409 and "You are not in the queue." in page
