"""Who is online: a player with a lobby or table page open (see ``games.presence``)."""

from __future__ import annotations

from django.db.models import OuterRef
from django.utils import timezone

from games import presence
from lobby.models import Player


def refresh_player(visitor: str) -> bool:
    """Copy this visitor's open lobby and table pages onto their player; True if that took them
    online or offline (the lobby then redraws; nothing else does)."""
    now = timezone.now()
    pages = presence.fresh_pages(now).filter(game=None, visitor=OuterRef("visitor"))
    players = Player.objects.filter(visitor=visitor)
    return presence.copy_presence(players, pages, "online_until", now)


def arrive(channel: str, process: str, visitor: str) -> bool:
    """A lobby or table page of this browser opened; True if that took its player online."""
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
