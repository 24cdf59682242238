"""The engine is a pure package: it imports the standard library, numpy and itself, nothing else
(no Django, no app of the site), read from its source and checked again in a fresh interpreter."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.purity import ROOT, imported_names, loaded_modules, module_names, site_apps

ENGINE = ROOT / "engine"
ALLOWED = {"numpy", "engine"}  # besides the standard library


def foreign_imports(package: Path) -> dict[str, set[str]]:
    """``{module file: imports outside the standard library, numpy and the engine}``."""
    found = {}
    for file in sorted(package.rglob("*.py")):
        roots = {name.partition(".")[0] for name in imported_names(file, "engine")}
        foreign = roots - ALLOWED - set(sys.stdlib_module_names)
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
    modules = module_names(ENGINE)
    roots = {name.partition(".")[0] for name in loaded_modules(modules)}
    assert "engine.strategy.simulate" in modules and "numpy" in roots  # it did load the engine
    assert roots & ((site_apps() - {"engine"}) | {"django", "channels"}) == set()
