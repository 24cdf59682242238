"""How fast the computer's turns play back on a player's screen: the choices, and this browser's.

After a person scores, the computer moves inside the same request; the page then shows those
moves one step at a time (``?at=n``, see ``presenters/page.py``). A turn took 5-6 s at the
original pauses, about 70 s of waiting a game (issue 16), so the player chooses the speed, and it
is kept in the browser's session: found again in the next game and after a browser restart.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

SESSION_KEY = "playback_speed"


@dataclass(frozen=True)
class Speed:
    """One way to show the computer's moves: ``scale`` multiplies the pauses; None plays none."""

    id: str
    label: Promise
    scale: float | None


SPEEDS = {
    speed.id: speed
    for speed in (
        Speed("instant", _("Instant"), None),
        Speed("quick", _("Quick"), 1 / 3),
        Speed("watch", _("Watch"), 1.0),
    )
}
# Quick by default: a computer's turn goes by in about 2 s instead of 5-6 s, and its rolls and
# holds can still be followed, which "instant" only tells in words afterwards.
DEFAULT = "quick"


def speed_of(request: HttpRequest) -> Speed:
    """The speed this browser chose (the default if none, or if the session holds an old name)."""
    return SPEEDS.get(request.session.get(SESSION_KEY, DEFAULT), SPEEDS[DEFAULT])


def remember(request: HttpRequest, speed: Speed) -> None:
    """Keep the speed for this browser's next pages and games."""
    request.session[SESSION_KEY] = speed.id
