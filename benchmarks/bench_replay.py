"""A replay step against the game page, in the same run.

    .venv/bin/python benchmarks/bench_replay.py [--reps 200]

Issue 18 asks that a step of a replay take at most 2x the server time of the game page. This
plays a pass-the-phone game of three seats to its end (two people and the computer, every move
through the service, the dice from the game's seed) in a throwaway data directory (SQLite), then
asks Django for each page in turn through its test client (the whole middleware stack, sessions,
templates; no sockets) as the browser that played it: the game page (``games:play``, the end
screen), the replay's middle position as a whole page, and the same step as htmx asks for it (the
replay area only). Times are wall time of each request, p50 and p95 over ``--reps`` rounds, after
a warm-up, and each page's as a ratio of the game page's. DEBUG is off (the cached template
loader, as in production).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

VISITOR = "bench-replay"


def finished_game() -> str:
    """A finished three-seat game; each person's turn rolls, keeps a die, rolls, scores a box."""
    from games import services
    from games.models import Game

    game = services.start_game(
        VISITOR, ["Ana", "Bo", ""], mode=Game.Mode.LOCAL, bots={2: "optimal"}
    )
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game.id
        services.perform(game.id, VISITOR, "roll", {"held": list(game.held)}, game.step)
        game.refresh_from_db()
        services.perform(game.id, VISITOR, "hold", {"die": 0, "held": True}, game.step)
        game.refresh_from_db()
        services.perform(game.id, VISITOR, "roll", {"held": list(game.held)}, game.step)
        game.refresh_from_db()
        state = game.state()
        # The last box the rules allow (a Yahtzee's forced joker may allow only one).
        box = list(state.cards[game.current_seat].options(state.turn.dice))[-1]
        services.perform(game.id, VISITOR, "score", {"box": box}, game.step)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
    os.environ["YAHTZEE_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-replay-")
    # The coach needs the strategy table: the repository's, not one built meanwhile.
    strategy = Path(__file__).resolve().parent.parent / "var" / "strategy"
    os.environ.setdefault("YAHTZEE_STRATEGY_DIR", str(strategy))
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("DEBUG", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from benchmarks.bench_profiles import p95, time_pages
    from games.models import Game
    from games.presenters.replay import Positions

    call_command("migrate", verbosity=0)
    game_id = finished_game()
    game = Game.objects.get(pk=game_id)
    positions = Positions.of(list(game.actions.values_list("seat", "kind", "payload")))
    middle = positions.last // 2
    print(f"a finished game of 3 seats: {game.log_length} actions, {positions.last + 1} positions")

    client = Client()
    session = client.session
    session["visitor"] = VISITOR
    session.save()
    replay = f"/game/{game_id}/replay/?at={middle}"
    pages = {
        "game page": (f"/game/{game_id}/", {}),
        "replay step, page": (replay, {}),
        "replay step, htmx": (replay, {"HX-Request": "true"}),
    }
    times = time_pages(HeadersClient(client, pages), {name: name for name in pages}, args.reps)
    base = times["game page"]
    print("\n| page | p50 ms | p95 ms | p50 / game page | p95 / game page |")
    print("|---|---|---|---|---|")
    for name, values in times.items():
        p50, base50 = statistics.median(values), statistics.median(base)
        print(
            f"| {name} | {p50:.2f} | {p95(values):.2f} | {p50 / base50:.2f}x "
            f"| {p95(values) / p95(base):.2f}x |"
        )
    print(
        f"\n{args.reps} rounds; position {middle} of {positions.last}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )


class HeadersClient:
    """Asks each named page with its headers (``time_pages`` asks by a name it passes as URL)."""

    def __init__(self, client, pages: dict[str, tuple[str, dict]]) -> None:
        self.client = client
        self.pages = pages

    def get(self, name: str):
        url, headers = self.pages[name]
        return self.client.get(url, headers=headers)


if __name__ == "__main__":
    main()
