"""What a move costs the server in rendering: ``game_context`` and each fragment of the game page.

    uv run python benchmarks/bench_render.py [--reps 50] [--present] [--profile card]

Builds an online game between two players in a throwaway data directory (SQLite), plays three
turns each, and has the first player roll. Then it times, for the seat to move ("mover") and for
the other seat: ``game_context``; each part of the page, rendered from a fresh context (the
context works some values out on first use only, so a reused one would hide that work); and, for
each kind of move, the context and the parts that move redraws
(``games.presenters.parts.changed_parts``: the mover's answer, and the redraw pushed to the other
seat), all in the same position of the game.

By default neither player is marked as having the page open, as in a game set up by a script: the
status line shows both away, with their countdowns. ``--present`` marks both as there, as in a
game being played. DEBUG is off, so templates come from the cached loader as in production.
Times are CPU time of this thread (medians over ``--reps`` runs, after a warm-up): on a shared
machine, wall time also counts the time other processes had the core. ``--profile PART`` (or
``context``) prints where the mover's time goes instead.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PARTS = ["dice", "card", "status", "game", "messages", "coach"]
MOVES = ["roll", "hold", "score"]
MOVER, OTHER = "a" * 22, "b" * 22
PAGE = {"csrf_token": "x" * 32, "live": True}  # what a consumer adds to the context


def median_ms(work, reps: int, setup=lambda: None) -> float:
    """The median CPU time of ``work(setup())`` in milliseconds, ``setup`` not counted."""
    for _ in range(5):
        work(setup())
    times = []
    for _ in range(reps):
        prepared = setup()
        start = time.thread_time_ns()
        work(prepared)
        times.append(time.thread_time_ns() - start)
    return statistics.median(times) / 1e6


def build_game(*, present: bool = False):
    """An online game of two lobby players, three turns each played, the first having just rolled.

    ``present``: both have the game page open.
    """
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import Game, Seat
    from lobby.models import Player

    ana = Player.objects.create(visitor=MOVER, name="Ana", name_key="ana")
    bo = Player.objects.create(visitor=OTHER, name="Bo", name_key="bo")
    game = services.start_online_game([ana, bo])

    def roll(visitor: str, dice: list[int]):
        held = {"held": [False] * 5}
        return services.perform(game.id, visitor, "roll", held, game.step, roll=lambda n: dice[:n])

    turns = [([3, 3, 3, 1, 6], "threes"), ([2, 2, 5, 5, 5], "full_house"), ([6] * 4 + [1], "sixes")]
    for dice, box in turns:
        for visitor in (MOVER, OTHER):
            game = roll(visitor, dice)
            game = services.perform(game.id, visitor, "score", {"box": box}, game.step)
    game = roll(MOVER, [4, 4, 2, 5, 1])
    if present:
        Seat.objects.filter(game=game).update(present_until=timezone.now() + timedelta(days=1))
    return Game.objects.prefetch_related("seats").get(pk=game.id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--present", action="store_true", help="both players have the page open")
    parser.add_argument("--profile", choices=[*PARTS, "context"], help="profile the mover's part")
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
    os.environ["YAHTZEE_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-render-")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("DEBUG", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games.presenters.page import game_context, render_parts
    from games.presenters.parts import changed_parts

    game = build_game(present=args.present)
    seats = {"mover": MOVER, "other": OTHER}

    def context(visitor: str):
        return lambda: game_context(game, visitor) | PAGE

    def redraw(visitor: str, parts: list[str]):
        return lambda _: render_parts(context(visitor)(), parts)

    if args.profile:
        if args.profile == "context":
            work = lambda: game_context(game, MOVER)  # noqa: E731
        else:
            work = lambda: render_parts(context(MOVER)(), [args.profile])  # noqa: E731
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.reps):
            work()
        profiler.disable()
        pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "tottime")).print_stats(25)
        return

    players = "here" if args.present else "away"
    print(f"CPU time in ms, median of {args.reps} runs; players {players}")
    print(f"{'':18}{'mover':>8}{'other':>8}")
    row = [median_ms(lambda _, v=v: game_context(game, v), args.reps)
           for v in seats.values()]  # fmt: skip
    print(f"{'game_context':18}" + "".join(f"{ms:8.2f}" for ms in row))
    for part in PARTS:
        render = lambda c, part=part: render_parts(c, [part])  # noqa: E731
        row = [median_ms(render, args.reps, context(v)) for v in seats.values()]
        print(f"{'render ' + part:18}" + "".join(f"{ms:8.2f}" for ms in row))
    for kind in MOVES:
        row = []
        for seat, visitor in seats.items():
            parts = list(changed_parts(kind, onlooker=seat == "other"))
            if seat == "mover" and "game" not in parts and "messages" not in parts:
                parts.append("messages")  # as the view answers
            row.append(median_ms(redraw(visitor, parts), args.reps))
        print(f"{'a ' + kind + ' (all)':18}" + "".join(f"{ms:8.2f}" for ms in row))


if __name__ == "__main__":
    main()
