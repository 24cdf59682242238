from __future__ import annotations

import inspect
import types

import pytest
from hypothesis import settings as hypothesis_settings

# No per-example deadline: the machines are shared and a busy one stretched an example past
# hypothesis's default 200 ms (a failure that said nothing of the code). Speed is the benchmarks'.
hypothesis_settings.register_profile("shared-machine", deadline=None)
hypothesis_settings.load_profile("shared-machine")

# What starts a real server or service in another process or thread: uvicorn (tests/servers.py),
# the scaled-out stack, Redis, PostgreSQL (devstack.processes), pytest-django's live server, or
# a command that serves (scripts/serve, python -m devstack or devstack.throwaway, uvicorn...). A
# test that names one (in its own code, in a helper from tests/ that it calls, or in a fixture it
# uses) is marked `server` when collected, so that a new test is classified without anyone
# remembering to; `scripts/test --fast` leaves these tests out. One that starts a server some
# other way is marked `@pytest.mark.server` by hand.
REAL_SERVERS = frozenset({"Server", "ServerProcess", "Stack", "Redis", "Postgres"})
SERVER_COMMANDS = frozenset(
    {"serve", "devstack", "devstack.throwaway", "uvicorn", "gunicorn", "daphne", "redis-server"}
)
SERVER_FIXTURES = frozenset({"live_server"})


def pytest_collection_modifyitems(config, items):
    """Mark the tests that start real servers; run browser tests last: Playwright leaves an event
    loop running in the main thread."""
    seen: dict[int, bool] = {}
    for item in items:
        if starts_servers(item, seen):
            item.add_marker(pytest.mark.server)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


def starts_servers(item: pytest.Item, seen: dict[int, bool]) -> bool:
    """Whether the test, or a fixture it uses, names a real server, a server fixture or a
    command that serves."""
    if SERVER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    functions = [getattr(item, "obj", None)]
    # pytest keeps the fixtures a test resolves to only here (no public API gives their functions).
    fixtures = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    functions += [definition.func for defs in fixtures.values() for definition in defs]
    return any(_names_a_server(function, seen) for function in functions)


def _names_a_server(obj: object, seen: dict[int, bool]) -> bool:
    """Follow a function (or a class's methods) through the helpers of tests/ that it names."""
    if id(obj) in seen:
        return seen[id(obj)]
    seen[id(obj)] = False  # a helper that calls itself, or a cycle of them
    if isinstance(obj, type):
        found = any(_names_a_server(member, seen) for member in vars(obj).values())
    else:
        function = inspect.unwrap(obj) if callable(obj) else None
        # hypothesis's @given wraps the test in a function of its own.
        function = getattr(getattr(function, "hypothesis", None), "inner_test", function)
        code = getattr(function, "__code__", None)
        found = code is not None and _code_names_a_server(code, function.__globals__, seen)
    seen[id(obj)] = found
    return found


def _code_names_a_server(code: types.CodeType, scope: dict, seen: dict[int, bool]) -> bool:
    strings = {c for c in code.co_consts if isinstance(c, str)}
    if REAL_SERVERS.intersection(code.co_names) or SERVER_COMMANDS.intersection(strings):
        return True
    nested = (c for c in code.co_consts if isinstance(c, types.CodeType))
    if any(_code_names_a_server(inner, scope, seen) for inner in nested):
        return True
    helpers = (scope.get(name) for name in code.co_names)
    return any(
        _names_a_server(helper, seen)
        for helper in helpers
        if (inspect.isfunction(helper) or inspect.isclass(helper))
        and helper.__module__.split(".")[0] == "tests"
    )


@pytest.fixture(autouse=True)
def _test_hosts(settings):
    settings.ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language: a request in Spanish leaves Spanish
    active in its thread (LocaleMiddleware activates the request's language and nothing puts it
    back), and a presenter test after it in the same worker spoke Spanish ("Faltan 54")."""
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _yahtzee_every_day(request, monkeypatch):
    """The daily challenge is Yahtzee whatever the day a test runs on: its game rotates by the
    weekday and by the tables there (``daily.services.ROTATION``), which a test of something else
    must not depend on (tests/services/test_daily_variants.py tests the rotation itself)."""
    if "tests/engine/" in str(request.node.path):  # pure: no app is imported there
        return
    from daily import services

    monkeypatch.setattr(services, "ROTATION", {})


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Rate-limit counters live in the cache: each test starts with none."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(scope="session")
def strategy_tables():
    """The solved tables of both rule sets in the configured directory, built once if missing,
    by rule set."""
    from engine.rulesets import RULE_SETS
    from engine.strategy import Advisor
    from engine.strategy.points import solvable

    return {rules: Advisor.load(rules) for rules in RULE_SETS.values() if solvable(rules)}


@pytest.fixture
def maxi_unsolved(monkeypatch, tmp_path):
    """A strategy directory holding every table of the configured one but Maxi Yatzy's (linked,
    not copied), as on a machine that has not built it: tests of what a game without a table
    refuses, wherever the machine running them has built it."""
    from engine.rulesets import MAXI_YATZY
    from engine.strategy import storage

    source = storage.cache_dir()
    maxi = storage.table_path(MAXI_YATZY, source).name
    for file in source.glob("*.npy") if source.is_dir() else ():
        if not file.name.startswith(maxi.removesuffix(".npy")):
            (tmp_path / file.name).symlink_to(file.resolve())
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    return tmp_path


@pytest.fixture(scope="session")
def win_models(strategy_tables):
    """The two-player win-chance models of the rule sets with a table, built once if missing
    (their moments beside the tables), by rule set; loaded where the site keeps them, so that
    its pages show the win-probability bar from their first drawing."""
    from engine.strategy.winning import WinModel
    from games import winchance

    for rules in strategy_tables:
        if not WinModel.exists(rules):
            WinModel.load(rules)  # builds the moments
    return {rules: winchance.model(rules, wait=True) for rules in strategy_tables}


def pytest_addoption(parser):
    parser.addoption(
        "--sqlite-on-disk",
        action="store_true",
        help="on SQLite, a test database in a file (WAL, as the site's) instead of in memory",
    )


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix, request, tmp_path_factory
):
    """With ``--sqlite-on-disk`` (scripts/test's browser tests), SQLite's test database is a file
    in each worker's temporary folder rather than in memory.

    In memory, pytest-django's live server shares the test thread's one connection with every
    thread serving the pages, and a page's read left open beside another page's write failed
    at once ("database table is locked", a 500 in the browser tests under load). In a file each
    thread has its own connection, in WAL mode with the busy timeout, as the site runs."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if request.config.getoption("--sqlite-on-disk") and "sqlite" in database["ENGINE"]:
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """Moves sent over sockets keep a database connection per mover thread: close them before
    the test database is dropped. Wraps pytest-django's fixture rather than being autouse, so
    that a run of tests that need no database (the rules, the strategy) creates none."""
    yield
    from games.live.threads import release_mover_connections

    release_mover_connections()
