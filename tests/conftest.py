from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config, items):
    """Run browser tests last: Playwright leaves an event loop running in the main thread."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(autouse=True)
def _test_hosts(settings):
    settings.ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]
