"""How soon a move shows on the other player's page, in a real browser: click to frame to DOM.

    uv run python benchmarks/bench_browser.py [--games 2] [--moves 130]
    uv run python benchmarks/bench_browser.py --stack      # the scaled-out stack (stack.Stack)

It starts the embedded default (one uvicorn process, SQLite, in-memory channel layer; see
tests/servers.py) on a free loopback port with a throwaway data directory, or with ``--stack``
the scaled-out stack with each player on their own pair of processes. Debian's Chromium runs
headless with two contexts (two players, cookies apart) in one browser. The two go online, one
challenges, the other accepts, and they play through the pages as a person does: each turn a
roll, a hold, a release, a roll again and a score (the box picked, then confirmed); ``--moves``
stops each game sooner (a whole game is 130 moves). Every move one player makes is measured on
the other player's page:

- click -> DOM: from the click on the mover's page (the ``click`` event, captured first) to
  the end of the other page's handling of the push: htmx's ``htmx:wsAfterMessage``, heard last
  (on window, bubbling), after htmx has swapped, settled and processed the fragments and the
  page's own listeners (game.js) have run. The DOM is then what the player will see: the
  extension does all of it in the one task that receives the frame. This is the figure for
  "the move reached the other page".
- frame -> DOM: from ``htmx:wsBeforeMessage`` (heard first, on window, capturing) to that same
  moment: the receiving page's own work (parse, clean up, swap, settle, process).
- click -> frame: the server's part and the network's: until the frame's message event runs.
- frame -> painted: until the next rendering update after the DOM change is done (a message
  posted from ``requestAnimationFrame``, which runs after style, layout and paint): it includes
  the wait for the display's next frame (headless: 60 Hz, so 0-17 ms), hence noisy.
- bytes: the frame's payload (UTF-8). "own answer" is click -> DOM of the mover's own answer.

One clock: both pages read ``performance.timeOrigin + performance.now()`` (Chromium rounds it to
0.1 ms outside cross-origin isolation). Before each game the script compares each page's clock
with its own (the read with the shortest round trip of 20) and prints how far apart the pages'
clocks are; the figures are not corrected for it (it has been about 0.1 ms, the resolution).

Machine caveat: Chromium, the server and Playwright's driver share the machine; on a busy or
small one (2 shared cores) the figures move by 20-30% from one run to the next. Compare before
and after in the same sitting, alternating, and compare ratios.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.browser.online import go_online  # noqa: E402
from tests.servers import CHROMIUM_ARGS, Server  # noqa: E402

ROLL = re.compile(r"^(Roll|Roll again \(\d left\))$")
KINDS = ("roll", "hold", "score")

# Runs in every page before its own scripts, so its listeners hear each event first (capturing
# on window) or last (bubbling to window). A frame game.js drops as old news (its wsBeforeMessage
# cancels it) has no wsAfterMessage: the next frame's wsBeforeMessage replaces it.
PROBE = r"""
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const probe = (window.__probe = { clicks: [], frames: [], open: false });
  addEventListener("click", () => probe.clicks.push(now()), true);
  addEventListener("htmx:wsOpen", () => { probe.open = true; });
  let arriving = null;
  addEventListener("htmx:wsBeforeMessage", (event) => {
    arriving = { frame: now(), message: event.detail.message };
  }, true);
  addEventListener("htmx:wsAfterMessage", () => {
    const dom = now();
    if (!arriving) return;
    const { frame, message } = arriving;
    arriving = null;
    const version = /data-version="(\d+)"/.exec(message);
    const entry = {
      frame, dom, painted: null,
      bytes: new TextEncoder().encode(message).length,
      version: version ? Number(version[1]) : null,
      answer: message.startsWith("<!-- answer -->"),
    };
    probe.frames.push(entry);
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { entry.painted = now(); };
      channel.port2.postMessage(null);
    });
  });
})();
"""

# The first frame (not an answer) that carries this log position or a later one, once painted.
PUSHED = """v => window.__probe.frames.find(
    f => !f.answer && f.version !== null && f.version >= v && f.painted !== null) || null"""
SHOWN = """v => Number(document.querySelector("#messages [data-version]").dataset.version) >= v"""
NOW = "() => performance.timeOrigin + performance.now()"
POLL_MS = 10  # the pages' waits poll on a timer: a requestAnimationFrame poll would add frames


def roll(page: Page) -> None:
    page.get_by_role("button", name=ROLL).click()


def hold(page: Page) -> None:
    page.locator("#die-0").click()


def score(page: Page) -> None:
    page.get_by_role("link", name=re.compile("would score")).first.click()
    page.get_by_role("button", name=re.compile(r"^Score \d+$")).click()


TURN: list[tuple[str, Callable[[Page], None]]] = [
    ("roll", roll), ("hold", hold), ("hold", hold), ("roll", roll), ("score", score),
]  # fmt: skip


def clock_offset(page: Page) -> tuple[float, float]:
    """The page's clock minus this process's wall clock (ms), and how far that read can be off."""
    reads = []
    for _ in range(20):
        before = time.time() * 1000
        at = page.evaluate(NOW)
        after = time.time() * 1000
        reads.append((after - before, at - (before + after) / 2))
    round_trip, offset = min(reads)
    return offset, round_trip / 2


def start_game(
    browser: Browser, bases: list[str], number: int, setup: Callable[[Page], None] | None = None
) -> tuple[Page, Page]:
    """Two players online in two contexts, one challenging the other; both on the game page.

    ``setup`` sees each page before it opens anything (to route its requests, for instance)."""
    pages = []
    for _ in bases:
        context = browser.new_context()
        context.add_init_script(PROBE)
        pages.append(context.new_page())
        if setup:
            setup(pages[-1])
    # A fresh pair of names per game: the site keeps players (and names) between games.
    tag = f"{number}-{int(time.time() * 1000) % 1_000_000}"
    ana, bo = pages
    go_online(ana, bases[0], f"Ana {tag}")
    go_online(bo, bases[1], f"Bo {tag}")
    ana.get_by_role("button", name=f"Challenge Bo {tag}").click()
    bo.get_by_role("button", name="Accept").click()
    for page in pages:
        expect(page.get_by_role("heading", name="Round 1 of 13")).to_be_visible()
        page.wait_for_function("() => window.__probe.open", polling=POLL_MS)
    return ana, bo


def play_moves(
    ana: Page, bo: Page, moves: int, before: Callable[[str, Page], None] | None = None
) -> Iterator[tuple[str, Page, dict]]:
    """Play the game's first ``moves`` moves; after each: its kind, the other page, its times.

    ``before(kind, other page)`` runs just before each move's click."""
    made = 0
    for _round in range(13):
        for me, other in ((ana, bo), (bo, ana)):
            for kind, move in TURN:
                if made == moves:
                    return
                version = int(me.locator("#messages [data-version]").get_attribute("data-version"))
                version += 1
                if before:
                    before(kind, other)
                move(me)
                pushed = other.wait_for_function(PUSHED, arg=version, polling=POLL_MS).json_value()
                me.wait_for_function(SHOWN, arg=version, polling=POLL_MS)
                clicked = me.evaluate("() => window.__probe.clicks.at(-1)")
                answer = me.evaluate(
                    "t => window.__probe.frames.find(f => f.answer && f.frame > t) || null", clicked
                )
                made += 1
                yield (
                    kind,
                    other,
                    {
                        "click_dom": pushed["dom"] - clicked,
                        "frame_dom": pushed["dom"] - pushed["frame"],
                        "click_frame": pushed["frame"] - clicked,
                        "frame_painted": pushed["painted"] - pushed["frame"],
                        "bytes": pushed["bytes"],
                        # None when the move was posted (the page's socket was not open yet)
                        "answer": answer and answer["dom"] - clicked,
                    },
                )


def play(browser: Browser, bases: list[str], number: int, moves: int, times: dict) -> None:
    """One game (or its first ``moves`` moves), each move timed on the other player's page."""
    ana, bo = start_game(browser, bases, number)
    (a_offset, a_error), (b_offset, b_error) = clock_offset(ana), clock_offset(bo)
    times["skew"].append((b_offset - a_offset, a_error + b_error))
    for kind, _other, timed in play_moves(ana, bo, moves):
        times[kind].append(timed)
        if timed["answer"] is not None:
            times["answer"].append(timed["answer"])
    for page in (ana, bo):
        page.context.close()


def percentile(values: list[float], fraction: float) -> float:
    """Nearest rank, as benchmarks/bench_live.py reports them."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(times: dict, where: str) -> None:
    """Print a table per kind of move: n, p50 and p95 of each interval, the frame's size."""
    measured = sum(len(times[kind]) for kind in KINDS)
    print(f"moves measured: {measured} over {len(times['skew'])} games ({where})")
    skews = ", ".join(f"{skew:+.2f} (+-{error:.2f})" for skew, error in times["skew"])
    print(f"clocks: the other page's minus the mover's, per game: {skews} ms")
    print("ms, p50 / p95; bytes p50 / max")
    header = ("move", "n", "click->DOM", "frame->DOM", "click->frame", "frame->painted", "bytes")
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for kind in KINDS:
        rows = times[kind]
        if not rows:
            continue
        cells = [kind, str(len(rows))]
        for key in ("click_dom", "frame_dom", "click_frame", "frame_painted"):
            values = [row[key] for row in rows]
            cells.append(f"{statistics.median(values):.1f} / {percentile(values, 0.95):.1f}")
        sizes = [row["bytes"] for row in rows]
        cells.append(f"{statistics.median(sizes):.0f} / {max(sizes)}")
        print("| " + " | ".join(cells) + " |")
    if times["answer"]:
        answers = times["answer"]
        print(
            f"own answer, click -> DOM: n {len(answers)}, p50 {statistics.median(answers):.1f} ms,"
            f" p95 {percentile(answers, 0.95):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--moves", type=int, default=130, help="moves per game (130: all)")
    parser.add_argument("--stack", action="store_true", help="start the scaled-out stack")
    args = parser.parse_args()
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        sys.exit("Chromium is not installed (scripts/test installs it from apt)")
    times: dict[str, list] = collections.defaultdict(list)
    with contextlib.ExitStack() as running:
        if args.stack:
            from devstack.stack import Stack

            stack = running.enter_context(Stack(http=2, ws=2))
            bases = stack.pair_urls[:2]
            where = "stack: gunicorn + uvicorn + Redis + PostgreSQL, a pair of processes each"
        else:
            data = running.enter_context(tempfile.TemporaryDirectory())
            bases = [running.enter_context(Server(Path(data))).url] * 2
            where = "embedded default, 1 process"
        playwright = running.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        running.callback(browser.close)
        where += f"; Chromium {browser.version}"
        for number in range(args.games):
            play(browser, bases, number, args.moves, times)
    report(times, where)


if __name__ == "__main__":
    main()
