"""Collected static files: the site's own stylesheets and scripts go out minified.

static/css and static/js explain themselves at length, and a browser downloaded every word: in
brotli, comments were 40-50% of game.js and page.js and 30% of site.css, some 5 KB of the first
visit of a game page (issue 15: at most 30 KB; the online game page was 35.3 KB, 28.8 KB without
them, docs/benchmarks.md session 14). collectstatic (scripts/serve, the stack, the benchmarks)
stores them minified by rjsmin and rcssmin, the minifiers django-compressor uses; the sources
keep everything, and development and the tests without STATIC_MANIFEST serve them as written.
Third-party files (django_htmx/) are stored as they come.
"""

from __future__ import annotations

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

OWN = ("css/", "js/")  # the site's folders in static/; apps' files come under their own names


class SiteStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """whitenoise's hashed, compressed files, the site's own minified before they are stored and
    named by the hash of what is stored (so that a new minifier renames them too: browsers keep
    a hashed file for a year)."""

    def _save(self, name, content):
        return super()._save(name, minified(name, content))

    def file_hash(self, name, content=None):
        return super().file_hash(name, None if content is None else minified(name, content))


def minified(name: str, content):
    """One of the site's stylesheets or scripts, minified; any other file as it is."""
    if not (name and name.startswith(OWN) and name.endswith((".css", ".js"))):
        return content
    content.seek(0)
    text = content.read()
    text = text.decode() if isinstance(text, bytes) else text
    small = rcssmin.cssmin(text) if name.endswith(".css") else rjsmin.jsmin(text)
    return ContentFile(small.encode())
