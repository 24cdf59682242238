"""Data flows one way: the import graph of the product, built from its source (imports inside
functions included), has no cycle, and every chain of imports runs down the layers.

The layers, bottom up (an app imports only its own modules and the layers below it; two apps of
one layer never import each other):

    core, engine                the shared base (who a browser is, refusals, error pages, the
                                panels hook, ...) and the pure engine: neither imports the other
    games                       stored games, the one place that applies a move, the game pages
    lobby                       players, challenges, tables, ranked and diamond matches
    history                     summaries and statistics of finished games, practice
    profiles                    a player's page (it shows history's stats), blocks, sign-in codes
    chat, daily                 the chat (a panel on the game's and the table's pages, added
                                through ``core.panels``), the daily challenge

``yahtzee_site`` and ``backends`` are the wiring: they may import any app, and no app imports them.
Nothing below the live layer (the consumers and the packages that push to open pages) imports it.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = (
    ("core", "engine"),
    ("games",),
    ("lobby",),
    ("history",),
    ("profiles",),
    ("chat", "daily"),
    ("groups",),
    ("tournaments",),
)
WIRING_APPS = ("yahtzee_site", "backends")
PACKAGES = tuple(app for layer in LAYERS for app in layer) + WIRING_APPS
LIVE = (
    "games.consumers",
    "lobby.consumers",
    "groups.consumers",
    "games.live",
    "chat.live",
    "tournaments.consumers",
    "tournaments.live",
)
# Who may import the live layer: the live layer itself, and the wiring (routes, ASGI, app
# start-up, where the live layer subscribes to games.events and the chat adds its panel's push;
# tournaments.pages is the tournaments app's start-up, which subscribes its live layer).
WIRING = (
    "yahtzee_site.asgi",
    "yahtzee_site.routing",
    "games.apps",
    "chat.apps",
    "tournaments.apps",
    "tournaments.pages",
)


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


@functools.cache
def reached() -> dict[str, dict[str, list[str]]]:
    """Each module and every module it reaches through a chain of imports, with one such chain."""
    graph = import_graph()
    found = {}
    for start in graph:
        chains = {start: [start]}
        todo = [start]
        while todo:
            module = todo.pop()
            for other in sorted(graph[module]):
                if other not in chains:
                    chains[other] = [*chains[module], other]
                    todo.append(other)
        del chains[start]
        found[start] = chains
    return found


def app_of(module: str) -> str:
    return module.split(".")[0]


def layer_of(app: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if app in layer)


def may_import(importer: str, imported: str) -> bool:
    """Whether the app ``importer`` may reach the app ``imported``: its own, or one below it."""
    if importer == imported or importer in WIRING_APPS:
        return True
    if imported in WIRING_APPS:
        return False
    return layer_of(imported) < layer_of(importer)


def test_every_app_of_the_project_is_in_a_layer():
    """A new app (one of INSTALLED_APPS that lives in this repository) is given its layer."""
    from django.apps import apps

    ours = {config.name for config in apps.get_app_configs() if Path(config.path).parent == ROOT}
    assert ours >= {"core", "games", "chat"} and ours - set(PACKAGES) == set()
    assert {app_of(m) for m in import_graph()} == set(PACKAGES)  # each has modules read here


@pytest.mark.parametrize("module", sorted(m for m in modules() if not is_in(m, LIVE + WIRING)))
def test_nothing_below_the_live_layer_imports_it(module):
    """Through any chain: a module of the wiring (app start-up) is where the live layer starts."""
    chains = reached()[module]
    assert {m: " -> ".join(chain) for m, chain in chains.items() if is_in(m, LIVE)} == {}


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


@pytest.mark.parametrize("app", PACKAGES)
def test_the_apps_build_on_each_other_one_way(app):
    """No module of ``app`` reaches, through any chain of imports, an app above its layer or
    beside it (games never the lobby or the chat; the lobby never profiles, through the chat or
    otherwise; the core and the engine no app at all, nor each other)."""
    wrong = {}
    for module, chains in reached().items():
        if app_of(module) != app:
            continue
        for other, chain in chains.items():
            if not may_import(app, app_of(other)):
                wrong.setdefault(app_of(other), " -> ".join(chain))
    assert wrong == {}


def test_the_apps_form_no_cycle():
    """The graph of the apps themselves (an arrow where any module of one imports one of the
    other) has no cycle: a cycle of modules inside one app is caught above, this one across."""
    apps: dict[str, set[str]] = {app: set() for app in PACKAGES}
    for module, imported in import_graph().items():
        apps[app_of(module)] |= {app_of(m) for m in imported} - {app_of(module)}
    assert cycles(apps) == []


# Links from the games app's pages to pages of the apps above it that are still named there: a
# seat's profile (its name on an online game's page) and the daily challenge's page (the start
# page's card, a daily attempt's end). Nothing else of theirs is: no other URL name, template
# or reverse relation.
NAMED_BY_GAMES = {"profiles:seat", "daily:today"}


def test_games_names_no_url_template_or_relation_of_the_apps_above_it():
    """The lobby's rematch offer and a ranked match's ratings answer the game page's questions
    (``games.presenters.hooks``); the chat is a panel the page offers (``core.panels``)."""
    from django.apps import apps

    above = {app for layer in LAYERS[LAYERS.index(("games",)) + 1 :] for app in layer}
    relations = {
        relation.get_accessor_name()
        for model in apps.get_app_config("games").get_models()
        for relation in model._meta.related_objects
        if relation.related_model._meta.app_label in above
    } - {None}
    named = re.compile(rf"^({'|'.join(sorted(above))})(:\w+|/[\w/.-]+\.html)$")
    found = set()
    for file in (ROOT / "games").rglob("*.py"):
        if "migrations" in file.parts:
            continue
        for node in ast.walk(ast.parse(file.read_text(), str(file))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "getattr":
                node = ast.Attribute(node.args[0], getattr(node.args[1], "value", ""))
            # A relation read from a game or a seat (``game.rematch``), or a lookup across one.
            if isinstance(node, ast.Attribute) and node.attr in relations:
                if getattr(node.value, "id", "") in ("game", "seat", "self"):
                    found.add(f"{file.name}: .{node.attr}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if named.match(text) or ("__" in text and text.split("__")[0] in relations):
                    found.add(f"{file.name}: {text}")
    tags = re.compile(r"""\{%\s*(?:url|include|extends)\s+['"]([^'"]+)['"]""")
    for file in (ROOT / "templates" / "games").rglob("*.html"):
        names = tags.findall(file.read_text())
        found |= {f"{file.name}: {name}" for name in names if named.match(name)}
    assert {f for f in found if f.split(": ")[1] not in NAMED_BY_GAMES} == set()
