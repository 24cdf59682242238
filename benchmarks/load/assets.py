"""The first visit of a page with an empty cache: the page and every asset, as transferred."""

from __future__ import annotations

import asyncio
import gzip
import re
import urllib.parse

from benchmarks.load.client import BROWSER_ENCODINGS, SETUP_TIMEOUT, Response, Visitor
from benchmarks.load.games import Labels, OnlineGame

ASSET = re.compile(r"<(?:link|script|img)\b[^>]*?\b(?:href|src)=\"([^\"]+)\"", re.I)
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


async def first_visit(base: str, path: str, cookies: dict[str, str]) -> dict:
    """A page and everything it references, fetched with an empty cache as a browser would."""
    visitor = Visitor(base)
    visitor.cookies = dict(cookies)
    fetched: list[dict] = []
    try:
        page = await visitor.request("GET", path, encodings=BROWSER_ENCODINGS)
        html = await _readable(visitor, path, page)
        fetched.append(_line(path, page))
        todo = [urllib.parse.urljoin(base + path, ref) for ref in ASSET.findall(html)]
        seen = set()
        while todo:
            url = urllib.parse.urlsplit(todo.pop(0))
            if url.netloc != visitor.netloc or url.path in seen:
                continue
            seen.add(url.path)
            asset = await visitor.request("GET", url.path, encodings=BROWSER_ENCODINGS)
            fetched.append(_line(url.path, asset))
            if url.path.endswith(".css") and asset.status == 200:
                css = await _readable(visitor, url.path, asset)
                found = [ref for ref in CSS_URL.findall(css) if not ref.startswith("data:")]
                todo += [urllib.parse.urljoin(base + url.path, ref) for ref in found]
    finally:
        visitor.close()
    return {
        "path": path,
        "requests": len(fetched),
        "body_bytes": sum(f["body"] for f in fetched),
        "wire_bytes": sum(f["wire"] for f in fetched),
        "html_bytes": len(html.encode()),
        "html_gzip_bytes": len(gzip.compress(html.encode(), 6)),
        "html_encoding": page.header("content-encoding") or "none",
        "files": fetched,
    }


async def _readable(visitor: Visitor, path: str, response: Response) -> str:
    if response.header("content-encoding").lower() == "br":  # no brotli here: ask for gzip
        response = await visitor.request("GET", path, encodings="gzip")
    return response.text()


def _line(path: str, response: Response) -> dict:
    encoding = response.header("content-encoding") or "none"
    return {"path": path, "status": response.status, "encoding": encoding,
            "body": len(response.body), "wire": response.wire}  # fmt: skip


async def run_assets(base: str, labels: Labels) -> list[dict]:
    pages = [await first_visit(base, "/", {})]
    solo = Visitor(base)
    await solo.expect(200, "GET", "/")
    game = await solo.expect(302, "POST", "/new/", {"mode": "solo", "multiple_yahtzees": "on"})
    solo.close()
    pages.append(await first_visit(base, urllib.parse.urlsplit(game).path, solo.cookies))
    online = await asyncio.wait_for(OnlineGame.start(base, labels.next()), SETUP_TIMEOUT)
    pages.append(await first_visit(base, f"/game/{online.id}/", online.seats[0].visitor.cookies))
    await online.close()
    for page, name in zip(pages, ("home", "solo game", "online game"), strict=True):
        page["page"] = name
    return pages
