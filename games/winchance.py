"""The site's door to the win chances of a two-player game: each rule set's ``WinModel`` loaded
once per process, never built in a request.

Like ``games.advice`` for the advisor: while a rule set's tables are missing (or the solver
cannot solve it) ``model`` answers None, the pages show no bar and the computer that plays to
win waits; the tables are built beside the server by ``manage.py solve`` (which ``advice`` starts
in the background the first time it misses the points table). Loading one (its file read and
checked, its last turns worked out) takes about 3 s, once per process and rule set. A chance
is a pure function of the position, so the last few are kept: a move's redraws for the players
and the watchers, and each page of theirs in another language, ask for the same one.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Sequence

from engine.rules import Scorecard
from engine.rulesets import YAHTZEE, RuleSet
from engine.strategy import storage
from engine.strategy.points import solvable
from engine.strategy.winning import WinModel

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_models: dict[tuple[RuleSet, str], WinModel] = {}  # loaded, by rule set and directory
_failed: set[tuple[RuleSet, str]] = set()  # damaged: logged once, then not read again


def model(rules: RuleSet = YAHTZEE) -> WinModel | None:
    """The process-wide win model of this rule set, or None while it cannot be had."""
    if not solvable(rules):
        return None
    key = (rules, str(storage.cache_dir()))
    with _lock:
        if key in _models:
            return _models[key]
        if key in _failed:
            return None
        if not WinModel.exists(rules, storage.cache_dir()):
            return None  # a stat or two a request until `manage.py solve` has built the tables
        try:
            loaded = WinModel.load(rules, storage.cache_dir(), build_if_missing=False)
        except FileNotFoundError:
            return None  # removed since the stat
        except ValueError as damage:  # storage.DamagedTable, or a rule set it cannot take
            _failed.add(key)
            logger.error("Win-chance model of %s not loaded: %s", rules.key, damage)
            return None
        _models[key] = loaded
        return loaded


def is_ready(rules: RuleSet = YAHTZEE) -> bool:
    """True when this rule set's win chances can be worked out now."""
    return model(rules) is not None


def chances(
    cards: Sequence[Scorecard], current: int, dice: tuple[int, ...] | None, rolls_left: int
) -> tuple[float, float] | None:
    """Each of two players' chance to win this position (a draw counting half), or None while
    the model of their rule set is not ready."""
    cards = tuple(cards)
    if len(cards) != 2 or model(cards[0].rules) is None:
        return None
    return _chances(cards, current, dice or None, rolls_left)


@functools.lru_cache(maxsize=256)
def _chances(
    cards: tuple[Scorecard, ...], current: int, dice: tuple[int, ...] | None, rolls_left: int
) -> tuple[float, float]:
    """``WinModel.chances`` of a position, kept for the pages that draw it after this one."""
    return model(cards[0].rules).chances(cards, current, dice, rolls_left)
