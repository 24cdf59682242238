"""The tournament formats are a pure package: they import the standard library, networkx and
themselves, nothing else (no Django, no app of the site, not the tournaments app's models), read
from their source and checked again in a fresh interpreter."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path

from tests.purity import ROOT, imported_names, loaded_modules, module_names, site_apps

FORMATS = ROOT / "tournaments" / "formats"
ALLOWED = {"networkx"}  # besides the standard library and tournaments.formats itself


def foreign(name: str) -> bool:
    """Whether importing ``name`` leaves the standard library, networkx and the formats."""
    if name == "tournaments.formats" or name.startswith("tournaments.formats."):
        return False
    return name.partition(".")[0] not in ALLOWED | set(sys.stdlib_module_names)


def foreign_imports(package: Path) -> dict[str, set[str]]:
    """``{module file: imports outside the standard library, networkx and the formats}``."""
    found = {}
    for file in sorted(package.rglob("*.py")):
        names = {name for name in imported_names(file, "tournaments.formats") if foreign(name)}
        if names:
            found[str(file.relative_to(package.parent.parent))] = names
    return found


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
    modules = module_names(FORMATS)
    names = loaded_modules(modules)
    assert "tournaments.formats.swiss" in names and "networkx" in names  # it did load them
    roots = {name.partition(".")[0] for name in names}
    assert roots & (site_apps() | {"django", "channels"}) == {"tournaments"}
    assert {name for name in names if name.startswith("tournaments")} == {"tournaments", *modules}


def test_the_examples_in_the_docstrings_hold():
    for name in ("arena", "swiss", "duplicate"):
        module = importlib.import_module(f"tournaments.formats.{name}")
        failed, tried = doctest.testmod(module)
        assert failed == 0 and (tried > 0 or name == "duplicate")
