"""The site scales past one process: two players on different processes share one game.

The stack (devstack/stack.py) runs the production shape on loopback: two gunicorn processes for
HTTP, two uvicorn processes for WebSockets, nginx routing them, PostgreSQL and Redis. Ana talks
only to pair 1 (HTTP process 1, WebSocket process 1), Bo only to pair 2, so nothing connects
them but the database and the channel layer. They play a whole online game through the real
endpoints, and every move must reach the other player's socket, pushed by the other process.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import urllib.request

from devstack.stack import Stack, still_running
from tests.players import Player, open_socket, receive, start_online_game

ROUNDS = 13


def upstream(response_headers) -> str:
    """Which server process nginx sent the request to (the stack's debugging header)."""
    return response_headers["X-Stack-Upstream"]


def rolled(answer: str) -> str:
    """The dice of this player's latest roll, as the message line of their answer tells it."""
    return re.findall(r"You rolled ([1-6](?: [1-6]){4})[.;]", answer)[-1]


def play_turn(me: Player, other: Player, game_id: str, step: int, version: int) -> int:
    """Roll, hold the first die, roll again, score; the other socket must show each move."""

    def pushed(text: str | re.Pattern) -> str:
        receive(me.socket, f'data-version="{version}"')  # my own process pushes it too
        update = receive(other.socket, f'data-version="{version}"')
        assert re.search(text, update) if isinstance(text, re.Pattern) else text in update
        return update

    dice = rolled(me.act(game_id, "roll", {"step": step, "held": "00000"}))
    version += 1
    pushed(f"{me.name} rolled {dice}.")

    me.act(game_id, "hold", {"step": step + 1, "die": 0, "held": "1"})
    version += 1
    update = pushed(f'aria-label="Die 1: {dice[0]}, held"')  # someone else's dice: not buttons
    assert update.count(", held") == 1  # the first die only

    answer = me.act(game_id, "roll", {"step": step + 1, "held": "10000"})
    again = rolled(answer)
    assert again[0] == dice[0]  # the held die stayed
    version += 1
    pushed(f"{me.name} rolled {again}; holding {dice[0]}.")

    box = re.search(r"\?select=(\w+)", answer)[1]  # the first box open on the redrawn card
    answer = me.act(game_id, "score", {"step": step + 2, "box": box})
    points, label = re.findall(r"You scored (\d+) points? in ([^.<]+)\.", answer)[-1]
    me.points += int(points)
    version += 1
    pushed(re.compile(rf"{me.name} scored {points} points? in {re.escape(label)}\."))
    return version


STORED = """
import json
from games.models import Game
game = Game.objects.get(pk={game_id!r})
print(json.dumps({{
    "status": game.status,
    "log_length": game.log_length,
    "actions": game.actions.count(),
    "replay_matches": game.state() == game.replayed_state(),
    "totals": {{seat.name: sum(s or 0 for s in seat.scores) for seat in game.ordered_seats()}},
}}))
"""


def test_two_players_on_different_processes_play_a_whole_game():
    stack = Stack(http=2, ws=2)
    with stack, contextlib.ExitStack() as sockets:
        try:
            pids = check_game_across_processes(stack, sockets)
        except BaseException:
            print(stack.log_tail())
            raise
    assert still_running(pids) == set(), "processes of the stack still running after stop()"
    for port in [stack.port, *stack.pair_ports, *(p.port for p in stack.http + stack.ws)]:
        with socket.socket() as sock:
            assert sock.connect_ex(("127.0.0.1", port)) != 0, f"port {port} still answers"


def check_game_across_processes(stack: Stack, sockets: contextlib.ExitStack) -> set[int]:
    http_ports = [f"127.0.0.1:{p.port}" for p in stack.http]
    ws_ports = [f"127.0.0.1:{p.port}" for p in stack.ws]

    # Each pair port reaches its own pair only.
    for i, base in enumerate(stack.pair_urls):
        with urllib.request.urlopen(base + "/guide/", timeout=10) as response:
            assert upstream(response.headers) == http_ports[i]

    ana = Player("Ana", stack.pair_urls[0], sockets)
    bo = Player("Bo", stack.pair_urls[1], sockets)
    game_id = start_online_game(ana, bo)
    for i, player in enumerate((ana, bo)):
        sock = player.connect(f"/ws/game/{game_id}/")
        assert upstream(sock.response.headers) == ws_ports[i]
        receive(sock, 'data-version="0"')  # the state as the socket connects

    step = version = 0
    for _ in range(ROUNDS):
        for me, other in ((ana, bo), (bo, ana)):
            version = play_turn(me, other, game_id, step, version)
            step += 3

    # What PostgreSQL holds is what the players saw, and a replay of the log gives the same.
    code = STORED.format(game_id=game_id)
    stored = json.loads(stack.manage("shell", "-c", code).stdout.strip().splitlines()[-1])
    assert stored == {
        "status": "finished",
        "log_length": version,
        "actions": ROUNDS * 2 * 4,
        "replay_matches": True,
        "totals": {"Ana": ana.points, "Bo": bo.points},
    }

    # The main port balances pages over both HTTP processes and sockets over both WS ones.
    answered_by = set()
    for _ in range(2):
        with urllib.request.urlopen(stack.url + "/", timeout=10) as response:
            assert response.status == 200 and "Yahtzee" in response.read().decode()
            answered_by.add(upstream(response.headers))
    assert answered_by == set(http_ports)
    path = f"/ws/game/{game_id}/"
    watchers = [sockets.enter_context(open_socket(stack.url, path)) for _ in range(2)]
    assert {upstream(w.response.headers) for w in watchers} == set(ws_ports)
    for watcher in watchers:
        final = receive(watcher, f'data-version="{version}"')
        assert "Ana" in final and "Bo" in final

    pids = stack.pids()
    assert len(pids) >= 10  # nginx, gunicorn and its workers, uvicorn, Redis, PostgreSQL
    return pids
