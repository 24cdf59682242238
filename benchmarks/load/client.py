"""A lean HTTP/1.1 client and the browsers that use it: cookies, CSRF, htmx headers."""

from __future__ import annotations

import asyncio
import gzip
import re
import secrets
import urllib.parse
import zlib
from dataclasses import dataclass

REQUEST_TIMEOUT = 10.0  # seconds: a request slower than this counts as an error
SETUP_TIMEOUT = 30.0  # seconds to get two players into a game and their sockets open
PUSH_GRACE = 5.0  # seconds to wait after a phase for the pushes of its last moves
SETUP_AT_ONCE = 4  # games being set up concurrently before a phase
BROWSER_ENCODINGS = "gzip, deflate, br"
VERSION = re.compile(r'data-version="(\d+)"')
SELECT = re.compile(r"\?select=(\w+)")
# One turn: roll all five, hold the first die, roll the other four, score the first box offered.
TURN = (("roll", "00000"), ("hold", None), ("roll", "10000"), ("score", None))
KINDS = ("roll", "hold", "score")
# A page may send its socket a burst of 20 frames, then 10 a second (games.live.moves.FrameBudget);
# past that a move is answered "too fast" and not applied. Each seat keeps well inside it (a
# smaller burst, a slower rate, for the jitter between sending here and arriving there), so that
# saturation measures the server: the load comes from the number of games played at once.
PAGE_BURST = 10
PAGE_FRAMES_PER_S = 9.0


@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    wire: int  # bytes received: status line, headers and body as sent

    def header(self, name: str) -> str:
        return next((value for key, value in self.headers if key == name), "")

    def text(self) -> str:
        """The body decoded from its content encoding (gzip or deflate) as text."""
        encoding = self.header("content-encoding").lower()
        body = self.body
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        elif encoding:
            raise ValueError(f"cannot decode a {encoding} body")
        return body.decode("utf-8", "replace")


class Connection:
    """One client connection: kept alive while the server allows, reopened when it closes."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.opened = 0

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def exchange(self, request: bytes, head_only: bool = False) -> Response:
        try:
            return await self._exchange(request, head_only)
        except BaseException:
            self.close()  # a half-read answer (an error or a timeout) leaves the stream unusable
            raise

    async def _exchange(self, request: bytes, head_only: bool) -> Response:
        for _attempt in range(2):
            reused = self.writer is not None
            if reused and self.reader.at_eof():  # the server closed it while idle
                self.close()
                reused = False
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.opened += 1
            try:
                self.writer.write(request)
                await self.writer.drain()
                status_line = await self.reader.readline()
            except ConnectionError:
                status_line = b""
            if status_line:
                break
            self.close()
            if not reused:
                raise ConnectionError("the server closed the connection without answering")
        reader = self.reader
        version, status = status_line.split()[:2]
        headers, wire = [], len(status_line)
        while (line := await reader.readline()) not in (b"\r\n", b""):
            wire += len(line)
            name, _, value = line.decode("latin-1").partition(":")
            headers.append((name.strip().lower(), value.strip()))
        wire += 2
        response = Response(int(status), headers, b"", wire)
        tokens = {t.strip().lower() for t in response.header("connection").split(",")}
        keep = "keep-alive" in tokens if version == b"HTTP/1.0" else "close" not in tokens
        if head_only or response.status in (204, 304) or response.status < 200:
            pass
        elif response.header("transfer-encoding").lower() == "chunked":
            chunks = []
            while True:
                size_line = await reader.readline()
                wire += len(size_line)
                size = int(size_line.split(b";")[0], 16)
                chunk = await reader.readexactly(size + 2)
                wire += len(chunk)
                if size == 0:
                    break
                chunks.append(chunk[:-2])
            response.body = b"".join(chunks)
        elif response.header("content-length"):
            response.body = await reader.readexactly(int(response.header("content-length")))
        else:
            response.body = await reader.read()
            keep = False
        response.wire = wire + len(response.body)
        if not keep:
            self.close()
        return response


class Visitor:
    """A browser: its cookies (the session is its identity) and one connection to the server."""

    def __init__(self, base: str) -> None:
        url = urllib.parse.urlsplit(base)
        self.base, self.netloc = base, url.netloc
        self.connection = Connection(url.hostname, url.port or 80)
        self.cookies: dict[str, str] = {}
        # The game page this browser has open: its socket and its posts name it, as a page does.
        self.tab = secrets.token_hex(6)

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    async def request(
        self,
        method: str,
        path: str,
        data: dict | None = None,
        *,
        htmx: bool = False,
        encodings: str = "gzip, deflate",
    ) -> Response:
        """Send one request as a browser would (a POST as htmx or a plain form posts it)."""
        body = urllib.parse.urlencode(data or {}).encode() if method == "POST" else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.netloc}", "User-Agent: bench_load",
                 "Accept: */*", f"Accept-Encoding: {encodings}"]  # fmt: skip
        if self.cookies:
            lines.append(f"Cookie: {self.cookie_header()}")
        if method == "POST":
            lines += [f"Origin: {self.base}", f"Content-Length: {len(body)}",
                      "Content-Type: application/x-www-form-urlencoded"]  # fmt: skip
            if "csrftoken" in self.cookies:
                lines.append(f"X-CSRFToken: {self.cookies['csrftoken']}")
        if htmx:
            lines += ["HX-Request: true", f"X-Tab: {self.tab}"]
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        response = await self.connection.exchange(raw, head_only=method == "HEAD")
        for name, value in response.headers:
            if name == "set-cookie":
                pair = value.split(";")[0]
                key, _, cookie = pair.partition("=")
                if "max-age=0" in value.lower().replace(" ", ""):
                    self.cookies.pop(key.strip(), None)
                else:
                    self.cookies[key.strip()] = cookie.strip()
        return response

    async def expect(self, status: int, method: str, path: str, data: dict | None = None) -> str:
        """A setup request that must answer ``status``; the answer's text (or its Location)."""
        response = await asyncio.wait_for(self.request(method, path, data), REQUEST_TIMEOUT)
        if response.status != status:
            raise SetupFailed(f"{method} {path}: HTTP {response.status}, expected {status}")
        return response.header("location") if 300 <= status < 400 else response.text()

    def close(self) -> None:
        self.connection.close()


class SetupFailed(Exception):
    """Two players could not be put into a game."""
