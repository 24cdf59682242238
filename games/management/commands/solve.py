"""``manage.py solve``: build the optimal-strategy table(s) ahead of time."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from engine.rules import Scorecard
from engine.rulesets import RULE_SETS, RuleSet
from engine.strategy import build, storage, table_path
from engine.strategy.points import exact_rules, solvable
from engine.strategy.solver import count_states
from engine.strategy.winning import WinModel


def _has_table(rules: RuleSet) -> bool:
    """Whether a table answers ``rules`` (its own, or with saved rolls the plain game's)."""
    try:
        exact_rules(rules)
    except ValueError:
        return False
    return True


SOLVABLE = [key for key, rules in RULE_SETS.items() if solvable(rules)]
"""The rule sets ``--variant all`` builds a table for, by key (five dice: seconds each)."""

TABLES = [key for key, rules in RULE_SETS.items() if _has_table(rules)]
"""Every rule set a table answers, by key: the above and Maxi Yatzy's (minutes to build), whose
table also answers saved rolls (``--variant maxi-saved`` builds the ``maxi`` table)."""


class Command(BaseCommand):
    """Solve Yahtzee exactly and write the table to the strategy cache directory."""

    help = (
        "Solve solitaire Yahtzee exactly and save the strategy table(s) to the cache directory "
        "($YAHTZEE_STRATEGY_DIR, default <YAHTZEE_DATA_DIR>/strategy, that is var/strategy)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        """--variant: which rules to solve; --dir: where to write."""
        parser.add_argument(
            "--variant",
            choices=["all", "both", *TABLES],
            default="all",
            help="official: 100-point Yahtzee bonus and forced joker; no-multiple: neither; yatzy, "
            "...-in-order, maxi (default: all the five-dice rule sets, seconds each; 'both' is an "
            "old name for it; Maxi Yatzy's table takes about an hour and is built only when named)",
        )
        parser.add_argument("--dir", default=None, help="cache directory to write to")
        parser.add_argument(
            "--if-missing",
            action="store_true",
            help="only build the variants whose table is not there yet or is damaged (what "
            "serving runs)",
        )
        parser.add_argument(
            "--points-only",
            action="store_true",
            help="only the points tables, not the win models beside them (what the build "
            "benchmark times against other solvers, which build only those)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        """Build each requested variant with a progress bar and report its value and time."""
        every = options["variant"] in ("all", "both")
        asked = list(SOLVABLE) if every else [options["variant"]]
        names = list(dict.fromkeys(exact_rules(RULE_SETS[name]).key for name in asked))
        for name in names:
            rules = RULE_SETS[name]
            file = table_path(rules, options["dir"])
            # One solve at a time across processes: serving's solve at start and a server's build
            # of a table it found missing or damaged may overlap; the second waits here, then
            # finds the table there (--if-missing) and exits without solving it again.
            with storage.build_lock(file):
                if options["if_missing"] and self._sound(name, file):
                    self.stdout.write(f"The {name} table is ready at {file}")
                    if not options["points_only"]:
                        self._win_model(name, rules, options["dir"], options["if_missing"])
                    continue
                self.stdout.write(f"Solving the {name} rules…")
                started = time.perf_counter()
                with tqdm(total=count_states(rules), unit="state", unit_scale=True) as bar:
                    advisor = build(rules, options["dir"], progress=bar)
            elapsed = time.perf_counter() - started
            value = advisor.expected_total(Scorecard(rules))
            self.stdout.write(f"Expected score of a new game: {value:.4f}")
            self.stdout.write(f"Built in {elapsed:.1f} s; table at {file}")
            if not options["points_only"]:
                self._win_model(name, rules, options["dir"], options["if_missing"])

    def _win_model(
        self, name: str, rules: RuleSet, directory: str | None, if_missing: bool
    ) -> None:
        """The two-player win model's tables beside the points table, built if missing (or, but
        for ``--if-missing``, damaged: ``WinModel.load`` checks them); the win-probability bar
        and the computer that plays to win wait for them (``games.winchance``). Six dice have
        none: win chances are worked out for five."""
        if not solvable(rules) or (if_missing and WinModel.exists(rules, directory)):
            return
        started = time.perf_counter()
        model = WinModel.load(rules, directory)
        if model.build_seconds is not None:
            self.stdout.write(
                f"Built the {name} win model in {model.build_seconds:.1f} s "
                f"({time.perf_counter() - started:.1f} s with loading)"
            )

    def _sound(self, name: str, file: Path) -> bool:
        """Whether the table in ``file`` loads and checks out; a damaged one is said so."""
        try:
            storage.load_table(file, RULE_SETS[name])
        except FileNotFoundError:
            return False
        except storage.DamagedTable as damage:
            self.stdout.write(f"The {name} table is damaged ({damage}): solving it again")
            return False
        return True
