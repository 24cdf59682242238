"""Playwright on Debian's Chromium against pytest-django's live server."""

from __future__ import annotations

import os
import shutil
import threading
import time
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.servers import CHROMIUM_ARGS
from tests.waiting import wait_until

# What a page should show, waited for up to 10 s rather than Playwright's 5: the browser tests run
# two at a time on two cores (scripts/test), each with its server and its pages, and a game page
# under that load took over 5 s to come. A check that passes waits only as long as it must.
expect.set_options(timeout=10_000)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.path):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test's report ends with what its server wrote: a page that waited in vain
    for a push says little by itself, and CI's machine keeps nothing after the run."""
    outcome = yield
    report = outcome.get_result()
    if not (report.failed and call.when == "call"):
        return
    server = item.funcargs.get("server") if hasattr(item, "funcargs") else None
    if hasattr(server, "process"):
        report.sections.append(("server log (last 60 lines)", server.process.log_tail(60)))
    if diary := item.stash.get(SOCKET_DIARY, None):
        report.sections.append(
            ("the pages' sockets, failed requests, errors", "\n".join(diary[-80:]))
        )


SOCKET_DIARY = pytest.StashKey[list]()


@pytest.fixture(autouse=True)
def _socket_diary(request, monkeypatch):
    """When each page's sockets opened, what they received and when they closed, and the pages'
    failed requests and script errors, for a failed test's report (above): whether a push never
    came, or came to a socket that was gone."""
    from playwright.sync_api import Browser

    diary: list[str] = []
    request.node.stash[SOCKET_DIARY] = diary
    start = time.monotonic()

    def note(context: int, text: str) -> None:
        diary.append(f"{time.monotonic() - start:7.2f}s context {context}: {text}")

    def watch_page(context: int, page) -> None:
        def opened(socket) -> None:
            path = urllib.parse.urlsplit(socket.url).path
            note(context, f"{path} opened (page {page.url})")
            socket.on(
                "framereceived", lambda frame: note(context, f"{path} <- {len(str(frame))} chars")
            )
            socket.on("close", lambda _: note(context, f"{path} closed"))
            socket.on("socketerror", lambda error: note(context, f"{path} error {error}"))

        page.on("websocket", opened)
        # A page's failed requests and script errors, which a push that never shows may follow.
        page.on(
            "response",
            lambda r: (
                r.status >= 400 and note(context, f"{r.request.method} {r.url} -> {r.status}")
            ),
        )
        page.on("console", lambda m: m.type == "error" and note(context, f"console: {m.text}"))

    new_context = Browser.new_context
    contexts = iter(range(1, 1000))

    def new_watched_context(self, *args, **kwargs):
        context = new_context(self, *args, **kwargs)
        number = next(contexts)
        context.on("page", lambda page: watch_page(number, page))
        return context

    monkeypatch.setattr(Browser, "new_context", new_watched_context)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Playwright's sync API leaves an event loop running in this thread; the live server's and the
    # tests' ORM calls stay synchronous and safe. Set here, when the first browser test starts:
    # browser tests run last (see tests/conftest.py), so it hides nothing in the other tests.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        pytest.fail("Chromium is not installed: run scripts/test, which installs it from apt")
    return {**browser_type_launch_args, "executable_path": executable, "args": CHROMIUM_ARGS}


@pytest.fixture
def base(live_server) -> str:
    return live_server.url


@pytest.fixture(autouse=True)
def _pages_closed_after_the_test(request):
    """Close every page a test opened when it ends, and wait for the live server's threads that
    served them. Pages a test opened in contexts of its own stayed open to the end of the run: a
    game page went on trying its dead server's socket, and each kept-alive connection held a
    live server thread that, once the browser closed after the live server had stopped, closed
    the shared in-memory database from its own thread ("DatabaseWrapper objects created in a
    thread can only be used in that same thread", an exception in a thread at the end of the run).
    """
    yield
    if "browser" not in request.fixturenames:
        return
    for context in request.getfixturevalue("browser").contexts:
        context.close()
    # Django's threaded server names no thread; Python names each by its target.
    wait_until(
        lambda: not any("process_request_thread" in t.name for t in threading.enumerate()),
        "the live server's connections to close",
    )


@pytest.fixture(autouse=True)
def _no_csp_violations(monkeypatch):
    """Every page of every browser test runs under the site's Content Security Policy: anything
    it blocks (an inline script, an eval, a foreign host) shows in the console and fails the test.
    """
    from playwright.sync_api import Browser

    blocked: list[str] = []

    def watch(message) -> None:
        if "Content Security Policy" in message.text:
            blocked.append(f"{message.location.get('url')}: {message.text}")

    new_context = Browser.new_context

    def new_watched_context(self, *args, **kwargs):
        context = new_context(self, *args, **kwargs)
        context.on("console", watch)
        return context

    monkeypatch.setattr(Browser, "new_context", new_watched_context)
    yield
    assert not blocked, "\n".join(blocked)
