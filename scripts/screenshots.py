"""Take screenshots of a running server as a phone and as a laptop, to look at them.

    uv run python scripts/screenshots.py http://127.0.0.1:8000 [out-dir]

Plays into a fresh game (roll, hold, select a box) and saves PNGs of each page; nothing is checked.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.servers import CHROMIUM_ARGS  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


def shoot(base: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        for size_name, size in SIZES.items():
            for locale in ("en-GB", "es-ES"):
                tag = f"{size_name}-{locale[:2]}"
                page = browser.new_context(viewport=size, locale=locale).new_page()
                page.goto(base + "/")
                page.screenshot(path=out / f"{tag}-1-home.png", full_page=True)
                page.locator("form[action='/new/'] button[type=submit]").click()
                page.locator("#roll-button").click()
                page.wait_for_selector("#die-0:not([disabled])")
                page.locator("#die-0").click()
                page.wait_for_selector("#die-0[aria-pressed=true]")
                page.locator("#die-2").click()
                page.wait_for_selector("#die-2[aria-pressed=true]")
                page.screenshot(path=out / f"{tag}-2-rolled.png", full_page=True)
                page.locator("a.pick").nth(6).click()
                page.wait_for_selector("tr.selected")
                page.screenshot(path=out / f"{tag}-3-selected.png", full_page=True)
                page.goto(base + "/guide/")
                page.screenshot(path=out / f"{tag}-4-guide.png", full_page=True)
                page.goto(base + "/sheet/")
                page.screenshot(path=out / f"{tag}-5-sheet.png", full_page=True)
                page.emulate_media(media="print")
                page.screenshot(path=out / f"{tag}-6-sheet-print.png", full_page=True)
                page.context.close()
        browser.close()
    print("\n".join(sorted(str(p) for p in out.glob("*.png"))))


if __name__ == "__main__":
    shoot(sys.argv[1].rstrip("/"), Path(sys.argv[2] if len(sys.argv) > 2 else "screenshots"))
