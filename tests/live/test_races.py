"""Clicks that race each other on the real server: the first wins, the rest get a clear refusal.

These run against a real server process and its own database (SQLite here, PostgreSQL in
scripts/test's second pass), because the in-process test database cannot show two
transactions racing.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from websockets.sync.client import connect

from tests.servers import Browser, Server, at_once, online


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path)
    server.env["AWAY_GRACE_SECONDS"] = "0"
    with server:
        yield server


def player_id(page: str, name: str) -> str:
    return re.search(
        rf'<button type="submit" name="player" value="(\d+)" aria-label="Challenge {name}"', page
    )[1]


def challenge_ids(page: str) -> list[str]:
    return sorted(set(re.findall(r"/online/challenge/(\d+)/accept/", page)))


@contextlib.contextmanager
def game_page(server: Server, player: Browser, game: str):
    """The player's game page open: its socket, counted present once its catch-up came."""
    cookies = "; ".join(f"{c.name}={c.value}" for c in player.cookies)
    url = server.url.replace("http://", "ws://") + "/ws" + game
    with connect(url, origin=server.url, additional_headers={"Cookie": cookies}) as socket:
        socket.recv(timeout=5)
        yield socket


def test_one_name_chosen_at_once_by_eight_goes_to_one(server):
    players = [Browser(server.url) for _ in range(8)]
    for player in players:
        player.get("/online/")
    answers = at_once([lambda p=p: p.post("/online/name/", {"name": "Racer"}) for p in players])
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] + [400] * 7
    refused = next(page for status, page in answers if status == 400)
    assert "Someone is already called that" in refused


def test_crossed_challenges_accepted_at_once_start_one_game(server):
    ana, bo = online(server, "Ana"), online(server, "Bo")
    ana.post("/online/challenge/", {"player": player_id(ana.get("/online/")[1], "Bo")})
    bo.post("/online/challenge/", {"player": player_id(bo.get("/online/")[1], "Ana")})
    (for_bo,), (for_ana,) = (
        challenge_ids(bo.get("/online/")[1]),
        challenge_ids(ana.get("/online/")[1]),
    )
    answers = at_once(
        [
            lambda: bo.post(f"/online/challenge/{for_bo}/accept/", {}),
            lambda: ana.post(f"/online/challenge/{for_ana}/accept/", {}),
        ]
    )
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200, 409], statuses
    games = {re.search(r"/game/([\w-]+)/", page)[1] for status, page in answers if status == 200}
    assert len(games) == 1
    # Both players land in that one game, and it is the only one either of them has.
    for player in (ana, bo):
        assert set(re.findall(r'href="/game/([\w-]+)/"', player.get("/")[1])) == games


def test_rematch_clicked_at_once_makes_one_table(server):
    ana, bo = online(server, "Ana"), online(server, "Bo")
    ana.post("/online/challenge/", {"player": player_id(ana.get("/online/")[1], "Bo")})
    (challenge,) = challenge_ids(bo.get("/online/")[1])
    status, page = bo.post(f"/online/challenge/{challenge}/accept/", {})
    game = re.search(r'action="(/game/[\w-]+/)', page)[1]
    # Ana's grace period for Bo is 0 s: she ends the game, then both ask for a rematch, twice,
    # with the game's page open (a rematch is not offered to a player who is gone).
    assert ana.post(game + "leave-out/", {"seat": 1, "end": "1"})[0] == 200
    with game_page(server, ana, game), game_page(server, bo, game):
        answers = at_once([lambda p=p: p.post(game + "rematch/", {}) for p in (ana, bo, ana, bo)])
    assert all(status < 500 for status, _ in answers), [s for s, _ in answers]
    rematches = {
        re.search(r"/game/([\w-]+)/", page)[1]
        for _, page in answers
        if "/game/" in page and game not in page
    }
    assert len(rematches) <= 1
    # Whatever order the clicks landed in, both players end up in the same single rematch.
    ana_home, bo_home = ana.get(game)[1], bo.get(game)[1]
    ana_next = re.findall(r'href="(/game/[\w-]+/)"', ana_home)
    bo_next = re.findall(r'href="(/game/[\w-]+/)"', bo_home)
    new_games = {g for g in ana_next + bo_next if g != game}
    assert len(new_games) == 1, new_games
