"""Who a browser is: a random visitor id kept in its session (no account, no password).

Every app takes the identity from here; lasting player profiles build on it.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from datetime import timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.sessions.backends.base import CreateError
from django.http import HttpRequest

from core.refusals import EXPIRED, StaleAction

VISITOR_KEY = "visitor"
# Marks a session whose key was replaced (see rotate_session_key); it holds no identity.
REPLACED_KEY = "replaced"
REPLACED_GRACE = timedelta(seconds=60)


def visitor_id(request: HttpRequest, *, create: bool = False) -> str | None:
    """The random id that links this browser's session to its seats."""
    visitor = request.session.get(VISITOR_KEY)
    if visitor is None and create:
        if request.session.get(REPLACED_KEY):
            # A post sent with a key that was just replaced (a button pressed twice, another
            # tab): an identity made here would set a cookie over the browser's new one.
            raise StaleAction(EXPIRED)
        rotate_session_key(request)  # a key the browser was given must not get the identity
        visitor = request.session[VISITOR_KEY] = secrets.token_urlsafe(16)
    return visitor


def sign_in_as(request: HttpRequest, visitor: str) -> None:
    """Make this browser ``visitor`` (a profile's id, from a one-time code): it plays as them."""
    rotate_session_key(request)  # as when an identity is made: a planted key must not get it
    request.session[VISITOR_KEY] = visitor


def sign_out(request: HttpRequest) -> None:
    """This browser is nobody now (signed out from another browser of its profile)."""
    request.session.pop(VISITOR_KEY, None)


def browser_mark(session_key: str | None) -> str:
    """What names this browser's session in messages between processes: a digest, not the key
    (the key is the browser's secret; an open socket compares its own against it)."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()[:32]


def still_signed_in(session_key: str | None) -> bool:
    """Whether this session still exists: a browser signed out from another one has lost it."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    return bool(session_key) and store().exists(session_key)


def rotate_session_key(request: HttpRequest) -> None:
    """Move this browser's session (and so its identity and games) to a new key.

    Called when an identity is taken (made, or first put online under a name): whoever else held
    the old key, planted in this browser or copied from it, no longer shares the identity. A key
    made during this request is nobody else's and is kept.
    """
    session, old_key = request.session, request.session.session_key
    if not old_key or old_key != request.COOKIES.get(settings.SESSION_COOKIE_NAME):
        return
    session.cycle_key()  # copies the data to a new key and deletes the old session
    # The old key stays a minute longer as a session that holds nothing but REPLACED_KEY. A
    # request already on its way with it (another tab's playback) would otherwise find no session
    # at all, and Django's SessionMiddleware answers that with a deletion of the cookie, which by
    # then is the new key: the browser would lose its identity. Found but empty, the session is
    # left alone by the middleware, and that request is only answered as a stranger. The identity
    # is not kept there even for that minute: a planted key must not act as it at all.
    replaced = type(session)(old_key)
    replaced.clear()  # its data starts empty, without loading the (deleted) old session
    replaced[REPLACED_KEY] = True
    replaced.set_expiry(REPLACED_GRACE)
    # A request at the same moment may have rotated the same key and left the same marker.
    with contextlib.suppress(CreateError):
        replaced.save(must_create=True)
