"""What a pure package imports, read from its source and seen in a fresh interpreter: the engine
and the tournament formats import no Django and no app of the site."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_names(file: Path, package: str) -> set[str]:
    """The full names of the modules ``file`` imports, anywhere in its source (a relative import
    named as ``package``, inside which it stays)."""
    names = set()
    for node in ast.walk(ast.parse(file.read_text(), str(file))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(package if node.level else node.module or "")
    return names - {"__future__"}


def loaded_modules(modules: list[str]) -> set[str]:
    """Every module a fresh interpreter holds after importing ``modules`` from the project."""
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(sys.modules))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(ast.literal_eval(loaded.stdout))


def module_names(package: Path) -> list[str]:
    """The dotted names of every module in ``package``, a folder of the project."""
    return sorted(
        ".".join(file.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for file in package.rglob("*.py")
    )


def site_apps() -> set[str]:
    """The project's top-level packages: its apps, the engine and the wiring."""
    return {path.parent.name for path in ROOT.glob("*/__init__.py")}
