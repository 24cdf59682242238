"""The engine is a pure package: it imports the standard library, numpy and itself, nothing else
(no Django, no app of the site), read from its source and checked again in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
ALLOWED = {"numpy", "engine"}  # besides the standard library


def imported_roots(file: Path) -> set[str]:
    """The top-level names of every module ``file`` imports, anywhere in its source."""
    roots = set()
    for node in ast.walk(ast.parse(file.read_text(), str(file))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # a relative import stays inside its package
                roots.add("engine")
            else:
                roots.add((node.module or "").partition(".")[0])
    return roots


def foreign_imports(package: Path) -> dict[str, set[str]]:
    """``{module file: imports outside the standard library, numpy and the engine}``."""
    found = {}
    for file in sorted(package.rglob("*.py")):
        foreign = imported_roots(file) - ALLOWED - set(sys.stdlib_module_names) - {"__future__"}
        if foreign:
            found[str(file.relative_to(package.parent))] = foreign
    return found


def test_the_engine_imports_only_the_standard_library_numpy_and_itself():
    assert foreign_imports(ENGINE) == {}


def test_the_check_sees_an_import_of_django_or_of_an_app(tmp_path):
    package = tmp_path / "engine"
    (package / "strategy").mkdir(parents=True)
    (package / "strategy" / "odd.py").write_text(
        "def f():\n    from django.conf import settings\n    import games.models\n"
    )
    assert foreign_imports(package) == {"engine/strategy/odd.py": {"django", "games"}}


def test_importing_every_engine_module_loads_nothing_of_the_site():
    modules = sorted(
        ".".join(file.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for file in ENGINE.rglob("*.py")
    )
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted({m.partition('.')[0] for m in sys.modules}))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    roots = set(ast.literal_eval(loaded.stdout))
    site = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"engine"}
    assert "engine.strategy.simulate" in modules and "numpy" in roots  # it did load the engine
    assert roots & (site | {"django", "channels"}) == set()
