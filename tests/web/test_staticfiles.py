"""Collected static files: the site's own stylesheets and scripts minified, nothing else changed
(backends/staticfiles.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.files.base import ContentFile

from backends.staticfiles import minified

STATIC = Path(__file__).resolve().parents[2] / "static"
OWN_SCRIPTS = sorted(STATIC.glob("js/*.js"))
OWN_STYLESHEETS = sorted(STATIC.glob("css/*.css"))


def test_only_the_sites_own_stylesheets_and_scripts_are_minified():
    script = ContentFile(b"// Why.\nconst a = 1; // after code\n")
    assert minified("js/game.js", script).read() == b"const a=1;"
    untouched = ContentFile(b"// Why.\nconst a = 1;\n")
    assert minified("django_htmx/htmx-2.min.js", untouched) is untouched
    assert minified("img/die.svg", untouched) is untouched


@pytest.mark.parametrize("path", OWN_SCRIPTS, ids=lambda path: path.name)
def test_each_of_the_sites_scripts_minifies_to_a_script_that_parses(path, tmp_path):
    """Node parses the minified script (``node --check``); what it does is played in a browser by
    tests/browser/test_minified.py."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js here to parse the scripts (Debian's nodejs package has it)")
    small = minified(f"js/{path.name}", ContentFile(path.read_bytes())).read()
    assert len(small) < path.stat().st_size * 0.8, f"{path.name} hardly got smaller"
    (tmp_path / path.name).write_bytes(small)
    result = subprocess.run([node, "--check", tmp_path / path.name], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def without_spacing(css: str) -> str:
    """A stylesheet without its comments, its white space and the semicolons that close rules."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return re.sub(r"\s+", "", css).replace(";}", "}")


@pytest.mark.parametrize("path", OWN_STYLESHEETS, ids=lambda path: path.name)
def test_each_of_the_sites_stylesheets_keeps_every_rule_as_written(path):
    small = minified(f"css/{path.name}", ContentFile(path.read_bytes())).read().decode()
    assert "/*" not in small and len(small) < path.stat().st_size
    # The same selectors and declarations in the same order: only comments and spacing went.
    assert without_spacing(small) == without_spacing(path.read_text())
