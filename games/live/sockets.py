"""What every WebSocket goes through before a consumer sees it: the whole origin checked as
Django's CSRF check checks a post, ids in paths validated, the page's language resolved.

A socket's handshake is read as a Django request (``handshake``), so that the host, the scheme
(behind a proxy too), the cookies and the language are Django's own answers, not a second copy.
"""

from __future__ import annotations

import io
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest
from django.utils import translation
from django.utils.http import is_same_domain


def handshake(scope: dict) -> HttpRequest:
    """The socket's opening request as Django sees a request (ws: as http:, wss: as https:)."""
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return ASGIRequest({**scope, "type": "http", "method": "GET", "scheme": scheme}, io.BytesIO())


def language_of(scope: dict) -> str:
    """The page's language, chosen as ``LocaleMiddleware`` chooses it: the language cookie, the
    browser's preferences in order, else the site's default (never an error)."""
    return translation.get_language_from_request(handshake(scope))


def origin_allowed(request: HttpRequest) -> bool:
    """Whether the socket was opened by a page of this site: its Origin (scheme, host and port)
    is the site's own, or one of ``CSRF_TRUSTED_ORIGINS``; the host must be an allowed one.

    The same test Django's CSRF middleware makes of a post's Origin: a page served from another
    port or scheme of the same host is another origin and cannot use the visitor's cookies.
    """
    origin = request.META.get("HTTP_ORIGIN")
    if not origin:
        return False  # every browser sends one with a WebSocket: anything else is not a page
    try:
        host = request.get_host()
    except DisallowedHost:
        return False
    if origin == f"{'https' if request.is_secure() else 'http'}://{host}":
        return True
    trusted = settings.CSRF_TRUSTED_ORIGINS
    if origin in trusted:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(
        is_same_domain(parsed.netloc, urlsplit(pattern).netloc.replace("*", "", 1))
        for pattern in trusted
        if "*" in pattern and urlsplit(pattern).scheme == parsed.scheme
    )


class SameOriginValidator:
    """ASGI middleware: a socket whose origin is not this site's is refused (HTTP 403)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(handshake(scope)):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


# The characters ids are made of: a game's (``secrets.token_urlsafe``) and a table's code.
GAME_ID = r"(?P<game_id>[A-Za-z0-9_-]{1,16})"
TABLE_CODE = r"(?P<code>[A-Za-z0-9]{1,8})"
