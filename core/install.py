"""Install on a phone: the web app manifest, the service worker and the page it shows offline.

The service worker only keeps the static files and the offline page: every game page, move and
socket goes to the server as before (the server owns the game). With the network gone, a page
load gets the offline page ("your game is kept on the server") instead of the browser's error.
It is served from the site's root so that its scope is the whole site, never from the cache
(``no-cache``: a new version is picked up on the next visit), and its list of files names them
as ``{% static %}`` gives them, hashed in production.
"""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# Bump when the worker's behaviour changes: its cache is named by it, and old caches are dropped.
VERSION = "1"


@require_safe
@cache_control(max_age=3600)
def manifest(request):
    """The web app manifest: name, icons, colours, where the installed app starts."""
    return render(request, "install/manifest.webmanifest", content_type="application/manifest+json")


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    """The service worker's script."""
    response = render(
        request, "install/sw.js", {"version": VERSION}, content_type="text/javascript"
    )
    return response


@require_safe
def offline(request):
    """What an installed app (or any page) shows when the network is gone."""
    return render(request, "install/offline.html")
