"""Install on a phone: the manifest, its icons, the service worker and the offline page."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_icons_colours_and_start():
    response = Client().get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Yahtzee" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone" and manifest["theme_color"] == "#b42318"
    sizes = {
        (icon["sizes"], icon["type"], icon.get("purpose", "any")) for icon in manifest["icons"]
    }
    assert sizes == {
        ("any", "image/svg+xml", "any"),
        ("192x192", "image/png", "any"),
        ("512x512", "image/png", "any"),
        ("512x512", "image/png", "maskable"),
    }
    for icon in manifest["icons"]:
        path = icon["src"].removeprefix("/static/")
        assert finders.find(path), icon["src"]
        if icon["type"] == "image/png":
            with open(finders.find(path), "rb") as file:
                header = file.read(24)
            width, height = int.from_bytes(header[16:20]), int.from_bytes(header[20:24])
            assert f"{width}x{height}" == icon["sizes"]


def test_the_manifest_is_in_the_page_language():
    spanish = Client(headers={"Accept-Language": "es"}).get("/manifest.webmanifest")
    manifest = json.loads(spanish.content)
    assert manifest["lang"] == "es" and "dados" in manifest["description"]


def test_every_page_links_the_manifest_and_names_the_worker():
    page = Client().get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="service-worker" content="/sw.js">' in page


def test_the_worker_is_never_cached_and_keeps_only_static_files_and_the_offline_page():
    response = Client().get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    assert 'const OFFLINE = "/offline/";' in script
    for file in ("/static/css/site.css", "/static/js/page.js", "/static/js/game.js"):
        assert f'"{file}"' in script
    assert "/game/" not in script and "/ws/" not in script


def test_the_offline_page_says_the_game_is_kept():
    page = Client().get("/offline/")
    assert page.status_code == 200
    assert "Your game is kept on the server" in page.content.decode()
    assert Client().post("/offline/").status_code == 405


def test_a_first_visit_fetches_the_die_icon_once():
    """Issue 29: the header's logo was an <img> of the tab's icon, and a browser fetched the file
    twice (the image, then the icon). The logo is the same drawing, in the page."""
    page = Client().get("/").content.decode()
    assert page.count("img/die") == 1 and 'rel="icon"' in page
    with open(finders.find("img/die.svg")) as file:
        drawing = re.search(r"<svg[^>]*>(.*)</svg>", file.read()).group(1)
    logo = re.search(r'<svg class="logo"[^>]*>(.*?)</svg>', page).group(1)
    assert logo == drawing
