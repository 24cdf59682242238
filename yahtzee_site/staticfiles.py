"""Collected static files: the site's own stylesheets and scripts go out without their comments.

static/css and static/js explain themselves at length, and a browser downloaded every word: in
brotli, comments were 40-50% of game.js and page.js and 30% of site.css, some 5 KB of a first
visit of a game page (issue 15). collectstatic (scripts/serve, the stack, the benchmarks) now
stores them without comments, blank lines and indentation; the sources keep everything, and
development and the tests (no STATIC_MANIFEST) serve them as written. Nothing else changes: every
line of code is kept, in its order, on a line of its own. Third-party files (django_htmx/) are
stored as they come.

Only what is certain is taken out. In a script, a line that holds a ``//`` comment and nothing
else, and a comment after code when nothing before it can hide a ``//``: no slash (a regular
expression, a division), no backslash, no backtick, and quotes that close on the line; a script
that has a template literal over several lines, a block comment or a line continued with a
backslash is stored as written, where a line's start could be inside a string. In a stylesheet,
every ``/* */`` comment outside a quoted string.
"""

from __future__ import annotations

from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

OWN = ("css/", "js/")  # the site's folders in static/; apps' files come under their own names


class SiteStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """whitenoise's hashed, compressed files, the site's own stripped before they are stored and
    named by the hash of what is stored (so that a change here renames them too: browsers keep a
    hashed file for a year)."""

    def _save(self, name, content):
        return super()._save(name, _stripped(name, content))

    def file_hash(self, name, content=None):
        return super().file_hash(name, None if content is None else _stripped(name, content))


def _stripped(name: str, content):
    """The content of one of the site's stylesheets or scripts without its comments; any other
    file's as it is."""
    if not (name and name.startswith(OWN) and name.endswith((".css", ".js"))):
        return content
    content.seek(0)
    text = content.read()
    text = text.decode() if isinstance(text, bytes) else text
    return ContentFile((strip_css(text) if name.endswith(".css") else strip_js(text)).encode())


def strip_js(text: str) -> str:
    """The script without its comment lines, blank lines and indentation (or as it is, if a line
    of it could start inside a string or a comment)."""
    lines = [line.strip() for line in text.splitlines()]
    kept = [line for line in lines if line and not line.startswith("//")]
    if "/*" in text or any(line.count("`") % 2 or line.endswith("\\") for line in kept):
        return text
    return "\n".join(_without_end_comment(line) for line in kept) + "\n"


def _without_end_comment(line: str) -> str:
    """A line of code without the ``//`` comment at its end, if nothing before the comment can be
    a string, regular expression or template literal that holds the ``//``."""
    quote = ""
    for at, char in enumerate(line):
        if char in "\\`":
            return line
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "/":
            return line[:at].rstrip() if line.startswith("//", at) and at else line
    return line


def strip_css(text: str) -> str:
    """The stylesheet without its comments, blank lines and indentation."""
    out, at, quote = [], 0, ""
    while at < len(text):
        char = text[at]
        if quote:
            if char == "\\":
                out.append(text[at : at + 2])
                at += 2
                continue
            if char == quote or char == "\n":
                quote = ""
        elif char in "\"'":
            quote = char
        elif text.startswith("/*", at):
            end = text.find("*/", at + 2)
            if end < 0:
                return text  # unclosed: leave it to the browser as written
            at = end + 2
            continue
        out.append(char)
        at += 1
    lines = (line.strip() for line in "".join(out).splitlines())
    return "\n".join(line for line in lines if line) + "\n"
