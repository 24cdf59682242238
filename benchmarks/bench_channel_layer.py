"""CPU per group message of the embedded default's channel layer against Channels' own.

    .venv/bin/python benchmarks/bench_channel_layer.py [--pages 64,256] [--messages 20000]

``--pages`` pages in games of two, each page's consumer waiting in ``receive()`` as a connected
game page does; messages go to one game after another (``group_send``, as a move's redraw does)
and both pages of that game receive it. Prints the CPU time per message (send and both receives)
of ``channels.layers.InMemoryChannelLayer`` and ``backends.channel_layers``'s layer, in
alternating rounds: compare within one run, as the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from channels.layers import InMemoryChannelLayer  # noqa: E402

from backends.channel_layers import QuickInMemoryChannelLayer  # noqa: E402

MESSAGE = {"type": "game.changed", "parts": ["dice", "card"], "version": 12}


async def run(layer_class: type, pages: int, messages: int) -> float:
    """Microseconds of CPU per group message delivered to both pages of a game."""
    layer = layer_class()
    games = pages // 2
    channels = [await layer.new_channel() for _ in range(games * 2)]
    for number, channel in enumerate(channels):
        await layer.group_add(f"game-{number // 2}", channel)
    received = 0
    done = asyncio.Event()

    async def page(channel: str) -> None:
        nonlocal received
        while True:
            await layer.receive(channel)
            received += 1
            if received == messages * 2:
                done.set()

    consumers = [asyncio.create_task(page(channel)) for channel in channels]
    await asyncio.sleep(0)  # every page waiting in receive()
    started = time.process_time()
    for number in range(messages):
        await layer.group_send(f"game-{number % games}", dict(MESSAGE))
        await asyncio.sleep(0)  # the two pages take it before the next move, as in a game
    await done.wait()
    used = time.process_time() - started
    for consumer in consumers:
        consumer.cancel()
    return used / messages * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="64,256", help="open game pages, comma-separated")
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    layers = {"Channels' InMemoryChannelLayer": InMemoryChannelLayer,
              "QuickInMemoryChannelLayer": QuickInMemoryChannelLayer}  # fmt: skip
    print(f"{args.messages} group messages a run; CPU microseconds per message, median of rounds")
    for pages in (int(p) for p in args.pages.split(",")):
        figures: dict[str, list[float]] = {name: [] for name in layers}
        for round_ in range(args.rounds):
            order = list(layers.items()) if round_ % 2 == 0 else list(layers.items())[::-1]
            for name, layer_class in order:
                figures[name].append(asyncio.run(run(layer_class, pages, args.messages)))
        medians = {name: statistics.median(values) for name, values in figures.items()}
        for name, median in medians.items():
            spread = ", ".join(f"{value:.1f}" for value in figures[name])
            print(f"  {pages:>4} pages  {name:<32}{median:8.1f} us  ({spread})")
        ratio = medians["Channels' InMemoryChannelLayer"] / medians["QuickInMemoryChannelLayer"]
        print(f"  {pages:>4} pages  Channels' / quick: {ratio:.2f}")


if __name__ == "__main__":
    main()
