"""Where the receiving page's time goes when a push arrives: htmx's steps, from Chromium's profiler.

    uv run python benchmarks/profile_push.py [--games 1] [--kind score] [--interval 100]

Two players play as in benchmarks/bench_browser.py (same server, same browser, same moves). For
each move of ``--kind`` (score, roll or hold) the other player's page runs V8's sampling profiler
(DevTools protocol, one sample every ``--interval`` µs) from just before the click until the push
is painted. Time in the browser's own code (the HTML parser, cloning, inserting, removing nodes)
counts for the script that called it. htmx and its ws extension are served unminified here, so
that their functions keep their names; the same code otherwise.

The window is the task that handled the push: from its first sample to its last in the ws
extension's message handler, everything sampled between (the garbage collector too). A game
socket's redraws are swapped by static/js/game.js (``swapRedraw``, inside the extension's
``htmx:wsBeforeMessage`` event): each of their samples goes to the first under it of parse
(``framed``: the HTML parser, into an inert template), targets (``swapsOf``: finding each part's
target by id), swap (``applySwaps``: replacing rows and containers' insides), process
(``processNode``: htmx.process on the new content) and events (``triggerEvent``: the page's
``htmx:wsAfterMessage`` listeners), else other. The frames htmx swaps itself (none of a game's
today; the lobby's) go to the outermost of these they are under (so an event fired while
cleaning up is clean-up):

- parse: ``makeFragment`` (the HTML parser, into a template);
- clean-up: ``cleanUpElement`` on the old content (an ``htmx:beforeCleanupElement`` event and
  the removal of htmx's data, for every removed element);
- ids and attributes: ``handleAttributes`` (matches ids old and new, for the settle step);
- process: ``processNode`` on the new content (hx-* attributes, triggers), in the settle step;
- events: other ``triggerEvent`` calls (oob swap events, ``htmx:load``, and the ws message
  events with the page's listeners, game.js's among them);
- then, not under any of those: insert (``insertNodesBefore``), remove (``swapInnerHTML``:
  removing the old nodes), clone and target (``oobSwap``: finding the target, cloning the
  fragment), settle (the rest of ``settleImmediately``), other (the handler itself, GC, ...).

Prints the mean per push of each and its share, and the window against the frame -> DOM figure
of bench_browser's probe (both run under the profiler: compare the latter with bench_browser's
own figure for the profiler's overhead). Then the time the page's style recalculation and layout
took from the click to the paint (Chromium's per-page counters, DevTools' Performance.getMetrics):
the work the push leaves to the rendering step, which frame -> DOM does not include (a layout
forced inside the task would count in both). The figures are noisy on a shared machine; the
shares are steadier than the milliseconds.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import shutil
import statistics
import tempfile
from collections.abc import Iterator
from pathlib import Path

import bench_browser  # puts the repository on sys.path, for tests.servers below
from playwright.sync_api import Page, Route, sync_playwright

from tests.servers import CHROMIUM_ARGS, Server

# The django-htmx files the pages load minified, served unminified instead.
HTMX_FILES = ("htmx-2", "hx-ws-2")
OUTERMOST = {
    "makeFragment": "parse",
    "cleanUpElement": "clean-up",
    "handleAttributes": "ids and attributes",
    "processNode": "process",
    "triggerEvent": "events",
}
INNERMOST = {
    "insertNodesBefore": "insert",
    "swapInnerHTML": "remove",
    "swapOuterHTML": "remove",
    "oobSwap": "clone and target",
    "settleImmediately": "settle",
}
# Chromium's per-page counters (DevTools' Performance.getMetrics), in seconds.
RENDERING = {"RecalcStyleDuration": "style", "LayoutDuration": "layout"}
# A game socket's redraws are swapped by static/js/game.js (``swapRedraw``, run inside the ws
# extension's htmx:wsBeforeMessage event): its samples go to the first of these under it.
GAME_JS = {
    "framed": "parse",
    "swapsOf": "targets",
    "applySwaps": "swap",
    "processNode": "process",
    "triggerEvent": "events",
}
STEPS = [*OUTERMOST.values(), *dict.fromkeys(INNERMOST.values()), "targets", "swap", "other"]


def serve_unminified(page: Page) -> None:
    """Answer the pages' requests for the minified htmx files with the unminified ones."""
    folder = htmx_folder()

    def unminified(route: Route) -> None:
        name = route.request.url.rsplit("/", 1)[1].split(".min.js")[0]
        path = next(folder.rglob(f"{name}.js"))
        route.fulfill(body=path.read_text(), content_type="text/javascript")

    for name in HTMX_FILES:
        page.context.route(f"**/{name}.min.js*", unminified)


def htmx_folder() -> Path:
    """Where django-htmx keeps the htmx files it serves."""
    import django_htmx

    return Path(django_htmx.__file__).parent / "static" / "django_htmx"


def handler_line() -> int:
    """Where the ws extension's listener for its socket's messages starts (0-based, as the
    profiler counts): the function has no name, so it is known by its place in the file."""
    lines = (htmx_folder() / "ext" / "hx-ws-2.js").read_text().splitlines()
    return next(i for i, line in enumerate(lines) if "addEventListener('message'" in line)


def breakdown(profile: dict) -> tuple[dict[str, float], float]:
    """Milliseconds per step within the task that handled the push, and the task's length."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", ())}
    stacks = []  # per sample: the stack from the root down
    for sample in profile["samples"]:
        stack = [nodes[sample]["callFrame"]]
        while stack_id := parent.get(sample):
            sample = stack_id
            stack.append(nodes[sample]["callFrame"])
        stacks.append(stack[::-1])
    line = handler_line()
    handled = [
        i
        for i, stack in enumerate(stacks)
        if any(f["url"].endswith("/hx-ws-2.min.js") and f["lineNumber"] == line for f in stack)
    ]
    if not handled:
        return {}, 0.0
    steps: dict[str, float] = collections.defaultdict(float)
    first, last = handled[0], handled[-1]
    for i in range(first, last + 1):
        stack, delta = stacks[i], profile["timeDeltas"][i + 1] if i + 1 < len(stacks) else 0
        names = [frame["functionName"] for frame in stack]
        if "swapRedraw" in names:
            below = names[names.index("swapRedraw") + 1 :]
            step = next((GAME_JS[name] for name in below if name in GAME_JS), "other")
        else:
            step = next((OUTERMOST[name] for name in names if name in OUTERMOST), None)
            step = step or next((INNERMOST[n] for n in reversed(names) if n in INNERMOST), "other")
        steps[step] += delta / 1000
    return steps, sum(steps.values())


def profile_pushes(
    ana: Page, bo: Page, moves: int, kind: str, interval: int
) -> Iterator[tuple[dict, float, dict[str, float]]]:
    """Play; for each push of a move of ``kind``, on the receiving page: its profile, frame ->
    DOM, and the time Chromium's counters give to style and layout from the click to the paint.
    """
    profilers = {page: page.context.new_cdp_session(page) for page in (ana, bo)}
    for profiler in profilers.values():
        profiler.send("Profiler.enable")
        profiler.send("Profiler.setSamplingInterval", {"interval": interval})
        profiler.send("Performance.enable")
    counted: dict[str, float] = {}

    def counters(page: Page) -> dict[str, float]:
        metrics = profilers[page].send("Performance.getMetrics")["metrics"]
        return {m["name"]: m["value"] * 1000 for m in metrics if m["name"] in RENDERING}

    def start(move: str, other: Page) -> None:
        if move == kind:
            counted.update(counters(other))
            profilers[other].send("Profiler.start")

    for move, other, timed in bench_browser.play_moves(ana, bo, moves, before=start):
        if move == kind:
            profile = profilers[other].send("Profiler.stop")["profile"]
            rendering = {name: ms - counted[name] for name, ms in counters(other).items()}
            yield profile, timed["frame_dom"], rendering


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--kind", choices=bench_browser.KINDS, default="score")
    parser.add_argument("--moves", type=int, default=130, help="moves per game (130: all)")
    parser.add_argument("--interval", type=int, default=100, help="µs between samples")
    args = parser.parse_args()
    totals: dict[str, list[float]] = collections.defaultdict(list)
    windows, probed = [], []
    after: dict[str, list[float]] = collections.defaultdict(list)
    with contextlib.ExitStack() as running:
        data = running.enter_context(tempfile.TemporaryDirectory())
        bases = [running.enter_context(Server(Path(data))).url] * 2
        playwright = running.enter_context(sync_playwright())
        executable = shutil.which("chromium") or shutil.which("chromium-browser")
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        running.callback(browser.close)
        for number in range(args.games):
            ana, bo = bench_browser.start_game(browser, bases, number, setup=serve_unminified)
            pushes = profile_pushes(ana, bo, args.moves, args.kind, args.interval)
            for profile, frame_dom, rendering in pushes:
                steps, window = breakdown(profile)
                for name, ms in rendering.items():
                    after[RENDERING[name]].append(ms)
                if window:
                    windows.append(window)
                    probed.append(frame_dom)
                    for step in STEPS:
                        totals[step].append(steps.get(step, 0.0))
            for page in (ana, bo):
                page.context.close()
    print(f"{args.kind} pushes profiled: {len(windows)} (sampling every {args.interval} µs)")
    print(
        f"task: mean {statistics.mean(windows):.2f} ms, p50 {statistics.median(windows):.2f} ms;"
        f" frame -> DOM meanwhile (probe): p50 {statistics.median(probed):.2f} ms"
    )
    print("| step | ms per push (mean) | share |")
    print("| --- | --- | --- |")
    whole = statistics.mean(windows)
    for step in STEPS:
        mean = statistics.mean(totals[step])
        print(f"| {step} | {mean:.2f} | {100 * mean / whole:.0f}% |")
    lines = ", ".join(f"{n} {statistics.mean(after[n]):.2f} ms" for n in RENDERING.values())
    print(f"then, until painted (Chromium's counters, mean per push): {lines}")


if __name__ == "__main__":
    main()
