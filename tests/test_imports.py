"""Data flows one way: the import graph of the product, built from its source (imports inside
functions included), has no cycle, and nothing below the views reaches the live layer."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "engine",
    "core",
    "games",
    "lobby",
    "profiles",
    "history",
    "daily",
    "chat",
    "yahtzee_site",
    "backends",
)
LIVE = ("games.consumers", "lobby.consumers", "games.live", "chat.live")
# Who may import the live layer: the live layer itself, and the wiring (routes, ASGI, app
# start-up, where the live layer subscribes to games.events).
WIRING = ("yahtzee_site.asgi", "yahtzee_site.routing", "games.apps")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for file in (ROOT / package).rglob("*.py"):
            if "migrations" in file.parts:
                continue
            name = ".".join(file.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = file
    return found


@functools.cache  # read once for all the cases below
def import_graph() -> dict[str, set[str]]:
    """Each product module and the product modules it imports, anywhere in its source."""
    known = modules()

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, file in known.items():
        imported = set()
        package = name if file.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(file.read_text(), str(file))):
            if isinstance(node, ast.Import):
                imported |= {resolve(alias.name) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                imported |= {resolve(f"{base}.{alias.name}") for alias in node.names}
        graph[name] = {module for module in imported if module and module != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in graph:
        if module not in index:
            visit(module)
    return found


def is_in(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_the_graph_sees_imports_inside_functions():
    graph = import_graph()
    assert "games.live.sockets" in graph["yahtzee_site.asgi"]  # a top-level import
    assert "games.live.redraws" in graph["games.apps"]  # one inside ready()


def test_there_is_no_import_cycle():
    assert cycles(import_graph()) == []


@pytest.mark.parametrize("module", sorted(m for m in modules() if not is_in(m, LIVE + WIRING)))
def test_nothing_below_the_live_layer_imports_it(module):
    assert not {m for m in import_graph()[module] if is_in(m, LIVE)}


def test_lobby_uses_the_shared_base_not_the_game_pages_views_or_consumers():
    graph = import_graph()
    lobby = {m: graph[m] for m in graph if is_in(m, ("lobby",))}
    assert {
        m: s & {"games.views", "games.consumers"}
        for m, s in lobby.items()
        if s & {"games.views", "games.consumers"}
    } == {}
    views = {m for m in graph if m.endswith(".views")}
    assert {m for m in graph if graph[m] & views and not m.endswith(".urls")} == set()


def test_the_apps_build_on_each_other_one_way():
    """games knows nothing of the apps built on it; lobby nothing of profiles or history (they
    build on lobby); history nothing of profiles (the profile page shows history's stats)."""
    graph = import_graph()
    below = {
        "games": ("lobby", "profiles", "history", "daily"),
        "lobby": ("profiles", "history", "daily"),
        "history": ("profiles", "daily"),
    }
    reaching = {
        module: {m for m in imported if is_in(m, below[module.split(".")[0]])}
        for module, imported in graph.items()
        if module.split(".")[0] in below
    }
    assert {module: found for module, found in reaching.items() if found} == {}
