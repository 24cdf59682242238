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
from pathlib import Path

from engine.rules import Scorecard
from engine.rulesets import YAHTZEE, RuleSet
from engine.strategy import storage
from engine.strategy.points import solvable
from engine.strategy.winning import WinModel

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_models: dict[tuple[RuleSet, str], WinModel] = {}  # loaded, by rule set and directory
_loads: dict[tuple[RuleSet, str], threading.Event] = {}  # loading now, set when done
_failed: set[tuple[RuleSet, str]] = set()  # damaged: logged once, then not read again


def model(rules: RuleSet = YAHTZEE, *, wait: bool = False) -> WinModel | None:
    """The process-wide win model of this rule set, or None while it cannot be had.

    The first call that finds its files starts loading it on a thread of its own (about 3 s):
    a page drawn meanwhile goes without the bar rather than wait, unless ``wait`` (a move of
    the computer that plays to win, which needs it). Missing files cost a stat or two a call
    until ``manage.py solve`` has built them.
    """
    if not solvable(rules):
        return None
    directory = storage.cache_dir()
    key = _key(rules, directory)
    with _lock:
        if key in _models or key in _failed:
            return _models.get(key)
        done = _loads.get(key)
        if done is None:
            if not WinModel.exists(rules, directory):
                return None
            done = _loads[key] = threading.Event()
            thread = threading.Thread(
                target=_load, args=(rules, directory, key, done), name="win-model", daemon=True
            )
            thread.start()
    if not wait:
        return None
    done.wait()
    return _models.get(key)


def _load(rules: RuleSet, directory: Path, key: tuple[RuleSet, str], done: threading.Event) -> None:
    """Load a model and keep it (or mark its files damaged), then let the waiting calls go on."""
    loaded = None
    try:
        loaded = WinModel.load(rules, directory, build_if_missing=False)
    except FileNotFoundError:
        pass  # removed since the stat: asked again by the next call
    except ValueError as damage:  # storage.DamagedTable, or a rule set it cannot take
        logger.error("Win-chance model of %s not loaded: %s", rules.key, damage)
        with _lock:
            _failed.add(key)
    except Exception:
        logger.exception("Win-chance model of %s not loaded", rules.key)
        with _lock:
            _failed.add(key)
    with _lock:
        if loaded is not None:
            _models[key] = loaded
        del _loads[key]
    done.set()


def is_ready(rules: RuleSet = YAHTZEE) -> bool:
    """True when this rule set's win chances can be worked out now (its model loaded)."""
    return model(rules) is not None


def available(rules: RuleSet = YAHTZEE) -> bool:
    """True when this rule set's model is loaded or on its way (its files in place, not
    damaged): asking starts its loading."""
    if model(rules) is not None:
        return True
    with _lock:
        return _key(rules, storage.cache_dir()) in _loads


def _key(rules: RuleSet, directory: Path) -> tuple[RuleSet, str]:
    """Where a model is kept in this process: its rule set and the directory of its files."""
    return rules, str(directory)


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
