"""The site's door to the strategy engine: loads its table once, never builds it in a request.

The table is built ahead (`manage.py solve`, which `scripts/serve` runs in the background on a
first start); until it is there, pages say the computer is getting ready.
"""

from __future__ import annotations

from games.strategy import Advisor

NEEDS_TABLE = {"optimal", "club"}


def is_ready(multiple_yahtzees: bool = True) -> bool:
    """True when the table of this rules variant is on disk."""
    return Advisor.is_ready(multiple_yahtzees)


def advisor(multiple_yahtzees: bool = True) -> Advisor | None:
    """The process-wide advisor for this variant, or None while its table is not built yet."""
    if not is_ready(multiple_yahtzees):
        return None
    return Advisor.shared(multiple_yahtzees)


def bot_can_play(bot: str, multiple_yahtzees: bool = True) -> bool:
    """Whether this computer strength can play now (the greedy beginner needs no table)."""
    return bot not in NEEDS_TABLE or is_ready(multiple_yahtzees)
