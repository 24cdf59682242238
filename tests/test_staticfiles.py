"""Collected static files: the site's own stylesheets and scripts without their comments, and
nothing else changed (yahtzee_site/staticfiles.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from yahtzee_site.staticfiles import strip_css, strip_js

STATIC = Path(__file__).resolve().parent.parent / "static"
OWN_SCRIPTS = sorted(STATIC.glob("js/*.js"))
OWN_STYLESHEETS = sorted(STATIC.glob("css/*.css"))


def test_a_script_loses_its_comments_blank_lines_and_indentation_only():
    script = (
        "// What this does.\n"
        "function f(a) {\n"
        "  // Why.\n"
        "\n"
        '  const url = "http://x/"; // after a string: goes\n'
        "  const n = 2; // after code: goes\n"
        "  const r = /a/; // after a regular expression: kept\n"
        "  const q = n / 2; // after a slash: kept\n"
        "  const s = 'it\\'s'; // after a backslash: kept\n"
        "  return `${a}`; // after a template literal: kept\n"
        "}\n"
    )
    assert strip_js(script).splitlines() == [
        "function f(a) {",
        'const url = "http://x/";',
        "const n = 2;",
        "const r = /a/; // after a regular expression: kept",
        "const q = n / 2; // after a slash: kept",
        "const s = 'it\\'s'; // after a backslash: kept",
        "return `${a}`; // after a template literal: kept",
        "}",
    ]


@pytest.mark.parametrize(
    "script",
    [
        "const a = `one\n  // inside a template literal\ntwo`;\n",
        "/* a block comment\n  // still the comment\n*/\nf();\n",
        'const a = "one \\\n  // a string continued\n";\n',
    ],
    ids=["template literal", "block comment", "continued string"],
)
def test_a_script_whose_line_may_start_inside_a_string_is_kept_as_written(script):
    assert strip_js(script) is script


def test_a_stylesheet_loses_its_comments_but_not_a_string_that_looks_like_one():
    stylesheet = (
        "/* The site. */\n"
        ".a { color: red; }  /* why */\n"
        '.b::before { content: "/* not a comment */"; }\n'
        "\n"
        "@media print {\n"
        "  /* Paper. */\n"
        "  .c { display: none; }\n"
        "}\n"
    )
    assert strip_css(stylesheet) == (
        '.a { color: red; }\n.b::before { content: "/* not a comment */"; }\n'
        "@media print {\n.c { display: none; }\n}\n"
    )


@pytest.mark.parametrize("path", OWN_SCRIPTS, ids=lambda path: path.name)
def test_each_of_the_sites_scripts_is_stripped_to_the_same_program(path, tmp_path):
    """Node's own copy of acorn parses the script and its stripped copy to the same tree (positions
    aside): the same statements, strings, regular expressions and template literals."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js here to parse the scripts")
    text = path.read_text()
    stripped = strip_js(text)
    assert stripped is not text, f"{path.name} is served with its comments"
    (tmp_path / "a.js").write_text(text)
    (tmp_path / "b.js").write_text(stripped)
    compare = (
        "const acorn = require('internal/deps/acorn/acorn/dist/acorn');"
        "const fs = require('fs');"
        "const tree = (file) => JSON.stringify(acorn.parse(fs.readFileSync(file, 'utf8'),"
        " {ecmaVersion: 'latest'}), (key, value) => key === 'start' || key === 'end' ?"
        " undefined : value);"
        "console.log(JSON.stringify(tree(process.argv[1]) === tree(process.argv[2])));"
    )
    result = subprocess.run(
        [node, "--expose-internals", "-e", compare, tmp_path / "a.js", tmp_path / "b.js"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    if result.returncode and "Cannot find module" in result.stderr:
        pytest.skip("this Node.js has no acorn of its own")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) is True


@pytest.mark.parametrize("path", OWN_STYLESHEETS, ids=lambda path: path.name)
def test_each_of_the_sites_stylesheets_keeps_every_rule_and_no_comment(path):
    text = path.read_text()
    stripped = strip_css(text)
    assert "/*" not in stripped
    # Every declaration and selector, in order: only comments and whitespace went.
    words = "".join(_without_comments(text).split())
    assert "".join(stripped.split()) == words


def _without_comments(text: str) -> str:
    out, at = [], 0
    while (start := text.find("/*", at)) >= 0:
        out.append(text[at:start])
        at = text.index("*/", start) + 2
    return "".join(out) + text[at:]
