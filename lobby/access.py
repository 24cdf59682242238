"""Who may act in the lobby, and how often: the visitor's player, and the per-minute rate limits.

The limits count by visitor and by address; the lobby, ranked matches and profiles all check
here, and ``lobby.services`` passes these names on to its callers.
"""

from __future__ import annotations

import ipaddress

from django.core.cache import cache
from django.utils import timezone

from core.refusals import ActionRefused
from engine.words import _
from lobby.models import Player

# What one visitor (a browser session) may do per minute: challenges, tables made or joined,
# names chosen, joins and leaves of the ranked queue, table codes looked up that found no table
# (a player's own table's page, reloaded, never counts; someone guessing codes counts at every
# try), and device codes tried or made (profiles).
RATE_LIMITS = {"challenge": 10, "join": 20, "name": 10, "lookup": 10, "code": 10, "queue": 20}
# What everyone behind one address may do together per minute, so that a script making fresh
# sessions meets a limit too: four times one visitor's, for a household or a class of players
# behind one router.
ADDRESS_RATE_LIMITS = {action: 4 * limit for action, limit in RATE_LIMITS.items()}


class TooMany(ActionRefused):
    """The visitor, or everyone at their address, is sending requests too fast."""

    status = 429


class Forbidden(ActionRefused):
    """Not this visitor's to do."""

    status = 403


def check_rate(
    visitor: str | None, action: str, address: str | None = None, *, count: bool = True
) -> None:
    """Count ``action`` for this visitor and this address; refuse when either went past its limit
    in the current minute. ``count=False`` refuses as the next one would, counting nothing."""
    minute = rate_window()
    bucket = address_bucket(address)
    for who, limits in ((visitor and f"v:{visitor}", RATE_LIMITS), (bucket, ADDRESS_RATE_LIMITS)):
        if not who:
            continue
        key = f"rate:{action}:{who}:{minute}"  # the cache is shared by every process (Redis)
        if count:
            cache.add(key, 0, timeout=90)
            done = cache.incr(key)
        else:
            done = cache.get(key, 0) + 1
        if done > limits[action]:
            if action == "lookup":
                raise TooMany(_("Too many codes that found no table: wait a minute and try again."))
            raise TooMany(_("Too many requests: wait a minute and try again."))


def rate_window() -> int:
    """The number of the current minute: the limits count from zero in each."""
    return int(timezone.now().timestamp() // 60)


def address_bucket(address: str | None) -> str | None:
    """What a limit by address counts: the address; for IPv6 its /64 network, which is what one
    home is given. None (no limit by address) for this machine's own addresses: the tests and
    benchmarks, and every player behind a proxy left out of settings.TRUSTED_PROXIES, who would
    otherwise share one limit."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return None
    if ip.is_loopback:
        return None
    if ip.version == 6:
        return f"a:{ipaddress.ip_network(f'{ip}/64', strict=False)}"
    return f"a:{ip}"


def player_of(visitor: str | None) -> Player | None:
    """The online identity of this browser, if it chose a name."""
    return Player.objects.filter(visitor=visitor).first() if visitor else None


def require_player(visitor: str | None) -> Player:
    """This browser's player; refused when it has not chosen a name yet."""
    player = player_of(visitor)
    if player is None:
        raise Forbidden(_("Choose a name first."))
    return player
