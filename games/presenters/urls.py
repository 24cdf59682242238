"""Where the game page's forms and links go: every address of a game, as ``{% url %}`` gives
them, reversed once per script prefix and URLconf and then filled in with the game's id."""

from __future__ import annotations

import functools
from urllib.parse import quote

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.http import RFC3986_SUBDELIMS

# A stand-in for a game's id in the addresses below: a replace costs far less than a reverse().
_GAME_ID = "GAME-ID"


@functools.lru_cache(maxsize=16)
def _url_patterns(prefix: str, urlconf: str | None) -> dict[str, str]:
    """The game's addresses for the stand-in id, reversed once per script prefix and URLconf."""
    urls = {kind: reverse("games:act", args=[_GAME_ID, kind]) for kind in ("roll", "hold", "score")}
    names = (
        "play",
        "again",
        "leave_out",
        "resign",
        "analysis",
        "replay",
        "game_sheet",
        "speed",
        "seed",
        "verify",
    )
    for name in names:
        urls[name] = reverse(f"games:{name}", args=[_GAME_ID])
    urls["player"] = reverse("profiles:seat", args=[_GAME_ID])  # ?seat=N: that seat's profile
    urls["home"] = reverse("games:home")
    return urls


def game_urls(game_id: str) -> dict[str, str]:
    """Where the game page's forms and links go, as ``{% url %}`` gives them."""
    patterns = _url_patterns(get_script_prefix(), get_urlconf(settings.ROOT_URLCONF))
    game_id = quote(game_id, safe=RFC3986_SUBDELIMS + "/~:@")  # as reverse() quotes
    return {name: url.replace(_GAME_ID, game_id) for name, url in patterns.items()}
