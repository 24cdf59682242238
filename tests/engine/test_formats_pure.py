"""The tournament formats are a pure package: they import the standard library, networkx and
themselves, nothing else (no Django, no app of the site), read from their source and checked
again in a fresh interpreter."""

from __future__ import annotations

import ast
import doctest
import importlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "tournaments" / "formats"
ALLOWED = {"networkx", "tournaments"}  # besides the standard library; tournaments: formats only


def imports(file: Path) -> set[str]:
    """Every module ``file`` imports, anywhere in its source, by its full name."""
    names = set()
    for node in ast.walk(ast.parse(file.read_text(), str(file))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add("tournaments.formats" if node.level else node.module or "")
    return names


def foreign_imports(package: Path) -> dict[str, set[str]]:
    """``{module file: imports outside the standard library, networkx and the package}``."""
    found = {}
    for file in sorted(package.rglob("*.py")):
        foreign = {
            name
            for name in imports(file)
            if name.partition(".")[0] not in ALLOWED | set(sys.stdlib_module_names)
            or (name.startswith("tournaments") and not name.startswith("tournaments.formats"))
        } - {"__future__"}
        if foreign:
            found[str(file.relative_to(package.parent.parent))] = foreign
    return found


def test_the_examples_in_the_docstrings_hold():
    for name in ("arena", "swiss", "duplicate"):
        module = importlib.import_module(f"tournaments.formats.{name}")
        failed, tried = doctest.testmod(module)
        assert failed == 0 and (tried > 0 or name == "duplicate")


def test_the_formats_import_only_the_standard_library_networkx_and_themselves():
    assert foreign_imports(FORMATS) == {}


def test_the_check_sees_an_import_of_django_of_an_app_or_of_the_tournaments_models(tmp_path):
    package = tmp_path / "tournaments" / "formats"
    package.mkdir(parents=True)
    (package / "odd.py").write_text(
        "def f():\n    from django.db import models\n    import games.models\n"
        "    from tournaments.models import Entry\n    from . import swiss\n"
    )
    assert foreign_imports(package) == {
        "tournaments/formats/odd.py": {"django.db", "games.models", "tournaments.models"}
    }


def test_importing_every_formats_module_loads_nothing_of_the_site():
    modules = sorted(
        ".".join(file.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for file in FORMATS.rglob("*.py")
    )
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(sys.modules))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    names = set(ast.literal_eval(loaded.stdout))
    site = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert "tournaments.formats.swiss" in names and "networkx" in names  # it did load them
    assert {name.partition(".")[0] for name in names} & (site | {"django", "channels"}) == {
        "tournaments"
    }
    assert {name for name in names if name.startswith("tournaments")} == {
        "tournaments",
        *modules,
    }
