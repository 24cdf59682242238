"""The site's door to the strategy engine: loads each table once, never builds one in a request.

The tables are built beside the server by `manage.py solve --if-missing`; until a table is there,
pages say the computer is getting ready. `scripts/serve` runs that command at start, and a server
started otherwise (systemd, after an upgrade to a new table format) need not wait for someone to:
the first time this process finds a table missing, or there but damaged (``storage.load_table``
checks its checksum and its values), it logs so and starts that same command in the background,
once. The command's lock beside the table makes a second builder wait, then find the table there.
The first request after the built file is in place loads it: no restart needed.

A rule set with saved rolls is answered from the table of the same game without them (its file,
``storage.table_path``, is that table's; ``Advisor.exact`` is then False). The five-dice tables
build in seconds; Maxi Yatzy's takes 5-25 minutes of both cores and 1.4 GiB at its peak
(docs/strategy.md), so no request ever starts it: ``scripts/serve`` builds it in the background
once the others are there, and until it is, a Maxi game has no coach and only the beginner
computer (``offered``).
"""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

from django.conf import settings

from core.refusals import ActionRefused
from engine.rulesets import YAHTZEE, RuleSet
from engine.strategy import Advisor, bots, storage
from engine.strategy.points import exact_rules, solvable
from engine.words import _
from games import winchance

logger = logging.getLogger(__name__)

NEEDS_TABLE = {bot.id for bot in bots.BOTS.values() if bot.uses_advisor}
NEEDS_WIN_MODEL = {bots.TO_WIN.id}  # against one opponent (alone it plays as the perfect one)

_lock = threading.Lock()
_advisors: dict[Path, Advisor] = {}  # the loaded tables, by file
_refused: dict[Path, tuple[int, int, int]] = {}  # a damaged file, by what stat() said of it
_rebuilt: set[Path] = set()  # files this process has started a rebuild of (once each)


def is_ready(rules: RuleSet = YAHTZEE) -> bool:
    """True when the table of this rule set is loaded, or on disk and sound."""
    return advisor(rules) is not None


def advisor(rules: RuleSet = YAHTZEE) -> Advisor | None:
    """The process-wide advisor for this rule set, or None while its table is missing or damaged."""
    directory = storage.cache_dir()
    file = storage.table_path(rules, directory)
    with _lock:
        if file in _advisors:
            return _advisors[file].answering(rules)
        try:
            status = file.stat()
        except FileNotFoundError:
            if solvable(rules):  # else no build could make it
                _missing(rules, directory, file)
            return None
        except OSError:
            return None  # unreadable: a solve could not write there either
        seen = (status.st_ino, status.st_size, status.st_mtime_ns)
        if _refused.get(file) == seen:
            return None  # the same damaged file: a stat per request, not a read and a checksum
        try:
            loaded = Advisor.load(rules, directory, build_if_missing=False)
        except FileNotFoundError:  # removed since the stat
            _missing(rules, directory, file)
            return None
        except storage.DamagedTable as damage:
            _refused[file] = seen
            if solvable(rules):  # Maxi Yatzy's: scripts/serve's build, never a request's
                _damaged(rules, directory, file, damage)
            return None
        _advisors[file] = loaded
        return loaded


def offered(rules: RuleSet = YAHTZEE) -> bool:
    """Whether this rule set has a coach and the computer's stronger players at all: its table is
    loaded, or the solver can build it (until then they are getting ready)."""
    return solvable(rules) or is_ready(rules)


def exact(rules: RuleSet = YAHTZEE) -> bool:
    """Whether this rule set's coach plays perfectly: False for one answered from another game's
    table (saved rolls, from the same game's without them: ``Advisor.exact``). True while no
    coach is loaded (nothing is said of one that is not there)."""
    found = advisor(rules)
    return found is None or found.exact


def bot_offered(bot: str, rules: RuleSet = YAHTZEE) -> bool:
    """Whether this computer strength plays this rule set at all (now or once ready): the one
    that plays to win only the games win chances are worked out for (five dice)."""
    if bot in NEEDS_WIN_MODEL and not solvable(rules):
        return False
    return bot not in NEEDS_TABLE or offered(rules)


def bot_refusal(bot: str, rules: RuleSet) -> ActionRefused | None:
    """Why this computer strength does not play this rule set (``bot_offered``), or None: the
    one playing to win plays five-dice games only; the others need the game's table, which the
    solver does not make (its computer plays as the beginner)."""
    if bot_offered(bot, rules):
        return None
    if offered(rules):  # only the one playing to win is refused: win chances need five dice
        return ActionRefused(
            _("The computer plays to win in five-dice games only: choose another.")
        )
    return ActionRefused(
        _("The computer plays %(game)s only as the beginner: choose the beginner."),
        game=rules.name,
    )


def check_bot(bot: str, rules: RuleSet) -> None:
    """Refuse a computer strength that does not play this rule set (``bot_refusal``)."""
    if (refusal := bot_refusal(bot, rules)) is not None:
        raise refusal


def bot_can_play(bot: str, rules: RuleSet = YAHTZEE) -> bool:
    """Whether this computer strength can play now (the greedy beginner needs no table; the
    one that plays to win its win model too)."""
    if bot in NEEDS_WIN_MODEL and not winchance.available(rules):
        return False
    return bot not in NEEDS_TABLE or is_ready(rules)


def _missing(rules: RuleSet, directory: Path, file: Path) -> None:
    """Have a missing table built in the background, the first time this process misses it."""
    if file in _rebuilt:  # being built, or its build failed (logged): a stat per request, no more
        return
    _rebuilt.add(file)
    logger.warning("Strategy table %s missing; building it in the background", file)
    _solve_in_background(rules, directory)


def _damaged(rules: RuleSet, directory: Path, file: Path, damage: Exception) -> None:
    """Log a damaged table and have it rebuilt in the background, at most once per process."""
    if file in _rebuilt:  # damaged again after its rebuild: no loop of rebuilds
        logger.error("Strategy table damaged again (%s); not rebuilding it twice", damage)
        return
    _rebuilt.add(file)
    logger.error("Strategy table damaged (%s); treated as missing, rebuilding it", damage)
    _solve_in_background(rules, directory)


def _solve_in_background(rules: RuleSet, directory: Path) -> None:
    """Start `manage.py solve --if-missing` for one rule set, as `scripts/serve` does at start.

    A process of its own, so that the solve (seconds of CPU; Maxi Yatzy's, minutes) does not hold
    this one's threads. If another solve of this table is running (`scripts/serve`'s, another
    server process's), this one waits on the table's lock and then finds the table there: one
    build, not two.
    """
    command = [
        sys.executable,
        str(Path(settings.BASE_DIR) / "manage.py"),
        "solve",
        "--if-missing",
        f"--variant={exact_rules(rules).key}",  # saved rolls: the plain game's table
        f"--dir={directory}",
    ]
    threading.Thread(target=_run, args=(command,), name="strategy-solve", daemon=True).start()


def _run(command: list[str]) -> None:
    """Run the solve and log how it ended (its progress bar is dropped)."""
    started = time.monotonic()
    try:
        result = subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
        )
    except OSError as error:
        logger.error("Could not start the strategy table's rebuild: %s", error)
        return
    if result.returncode:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        logger.error("Rebuilding the strategy table failed (exit %s): %s", result.returncode, last)
    else:
        logger.warning("Strategy table rebuilt in %.0f s", time.monotonic() - started)
