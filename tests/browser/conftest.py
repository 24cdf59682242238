"""Playwright on Debian's Chromium against pytest-django's live server."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.servers import CHROMIUM_ARGS


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.path):
            item.add_marker(pytest.mark.browser)


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
