from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config, items):
    """Run browser tests last: Playwright leaves an event loop running in the main thread."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(autouse=True)
def _test_hosts(settings):
    settings.ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Rate-limit counters live in the cache: each test starts with none."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(scope="session")
def strategy_tables():
    """The solved tables of both variants in the configured directory, built once if missing."""
    from games.strategy import Advisor

    return {multiple: Advisor.load(multiple) for multiple in (True, False)}


@pytest.fixture(scope="session", autouse=True)
def _release_mover_connections(django_db_setup):
    """Moves sent over sockets keep a database connection per mover thread: close them before
    the test database is dropped."""
    yield
    from games.live.threads import release_mover_connections

    release_mover_connections()
