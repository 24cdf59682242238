"""Who is online: a player with a lobby or table page open (see ``games.presence``), or a
page without a socket loaded just now (``page_loaded``)."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import OuterRef
from django.utils import timezone

from games import presence
from games.openpages import OpenPage
from lobby.models import Player

# A page without JavaScript has no socket to say it is open: its load (Play now's waiting page,
# which reloads itself every few seconds, and the press that opened it) keeps its player online
# this long instead.
LOADED_WINDOW = timedelta(seconds=15)


def refresh_player(visitor: str) -> bool:
    """Copy this visitor's open lobby and table pages onto their player; True if that took them
    online or offline (the lobby then redraws; nothing else does)."""
    now = timezone.now()
    pages = presence.fresh_pages(now).filter(game=None, visitor=OuterRef("visitor"))
    players = Player.objects.filter(visitor=visitor)
    return presence.copy_presence(players, pages, "online_until", now)


def page_loaded(visitor: str) -> bool:
    """A page of this browser's player was loaded (or a form posted from one): online for
    ``LOADED_WINDOW``, unless a socket of theirs says more. True if that took them online."""
    until = timezone.now() + LOADED_WINDOW
    OpenPage.objects.renew(_loaded_row(visitor), presence.MOVES, visitor, None, until)
    return refresh_player(visitor)


def _loaded_row(visitor: str) -> str:
    return f"loaded:{visitor}"


def arrive(channel: str, process: str, visitor: str) -> bool:
    """A lobby or table page of this browser opened; True if that took its player online.

    Its socket speaks for the player from now on: a page load's presence (``page_loaded``) ends,
    or closing the page would leave them online for the rest of its window."""
    presence.close_page(_loaded_row(visitor))
    presence.open_page(channel, process, visitor, None)
    return refresh_player(visitor)


def touch(channel: str, process: str, visitor: str) -> bool:
    """Heartbeat of an open page: stay online while any page is open, and take offline the
    players whose pages' server died (True: someone came or went)."""
    presence.open_page(channel, process, visitor, None)
    went = [refresh_player(lapsed) for lapsed in presence.lapse(None)]  # their server died
    return refresh_player(visitor) or any(went)


def depart(channel: str, visitor: str) -> bool:
    """A page closed; True if it was the player's last, and they left the list of who is
    online."""
    presence.close_page(channel)
    return refresh_player(visitor)
