"""A profile's session lasts: renewed on use, its browser known, signed out when asked."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from core.identity import VISITOR_KEY, sign_out
from lobby.models import Player
from profiles.models import Browser

RENEWED_KEY = "renewed"  # the day this session's year was last restarted
# [the session key the browser was recorded under, whether it is a profile's]
BROWSER_KEY = "browser"


class LastingProfile:
    """Keep a session with an identity for a year after its last use, and its browser recorded.

    - Renewal: settings.SESSION_COOKIE_AGE is a year from the session's last save. Saving on every
      request (SESSION_SAVE_EVERY_REQUEST) would write the session each time; marking it changed
      once a day renews the year (database row and cookie) at one write a day per browser.
    - Browsers: a profile's sessions are recorded (``profiles.models.Browser``) so that one of them
      can sign out the others. The record is made after the view, once per session key (a key
      changes only when an identity is made or taken: ``core.identity``), so pages cost nothing.
    - Sessions from before browsers were recorded have no record: the first request of one checks
      that its profile has not signed out its other browsers since, and then records it.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = request.session
        visitor = session.get(VISITOR_KEY)
        if visitor and BROWSER_KEY not in session:
            signed_out = Player.objects.filter(visitor=visitor, others_signed_out_at__isnull=False)
            if signed_out.exists():
                sign_out(request)
        response = self.get_response(request)
        if session.get(VISITOR_KEY):
            self._keep(request)
        return response

    def _keep(self, request: HttpRequest) -> None:
        session = request.session
        today = timezone.now().date().isoformat()
        if session.get(RENEWED_KEY) != today:
            session[RENEWED_KEY] = today
        recorded = session.get(BROWSER_KEY)
        if recorded and recorded[0] == session.session_key:
            return
        if session.session_key is None:
            session.save()  # a session made in this request: its key, once (see the docstring)
        player = Player.objects.filter(visitor=session[VISITOR_KEY]).only("pk").first()
        if recorded:
            Browser.objects.filter(session_key=recorded[0]).delete()
        if player is not None:
            Browser.objects.update_or_create(
                session_key=session.session_key,
                defaults={
                    "player": player,
                    "label": browser_label(request.headers.get("User-Agent", "")),
                },
            )
        session[BROWSER_KEY] = [session.session_key, player is not None]


# The first of each list found in a User-Agent names the browser, then the system (order matters:
# Edge and Opera also say Chrome, Chrome also says Safari, Android also says Linux).
BROWSERS = [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"),
            ("CriOS", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]  # fmt: skip
SYSTEMS = [("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
           ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux")]  # fmt: skip


def browser_label(user_agent: str) -> str:
    """A browser's name as its player knows it, "Firefox on Android"; "" when unknown."""
    browser = next((name for token, name in BROWSERS if token in user_agent), "")
    system = next((name for token, name in SYSTEMS if token in user_agent), "")
    if browser and system:
        return f"{browser} · {system}"
    return browser or system
