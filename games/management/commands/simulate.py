"""``manage.py simulate``: play many games with a bot and print score statistics."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from engine.rulesets import YAHTZEE, YAHTZEE_NO_BONUS
from engine.strategy import Advisor
from engine.strategy.bots import BOTS
from engine.strategy.simulate import describe, simulate


class Command(BaseCommand):
    """Simulate solitaire games played by one of the bots."""

    help = "Play N solitaire games with a bot and print mean, std, median, min/max and speed."

    def add_arguments(self, parser: CommandParser) -> None:
        """--bot, --games, --seed and --no-multiple."""
        parser.add_argument("--bot", choices=list(BOTS), default="optimal")
        parser.add_argument("--games", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--no-multiple",
            action="store_true",
            help="play without the Yahtzee bonus and joker rule",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        """Run the games and print the statistics."""
        rules = YAHTZEE_NO_BONUS if options["no_multiple"] else YAHTZEE
        bot = BOTS[options["bot"]]
        advisor = None
        if bot.uses_advisor:
            if not Advisor.table_exists(rules):
                self.stdout.write("No strategy table yet: building it first…")
            advisor = Advisor.load(rules)
        started = time.perf_counter()
        with tqdm(total=options["games"], unit="game", disable=options["games"] < 2) as bar:
            totals = simulate(
                bot.id, options["games"], options["seed"], advisor, rules, progress=bar.update
            )
        elapsed = time.perf_counter() - started
        stats = describe(totals)
        self.stdout.write(
            f"Bot: {bot.name} ({bot.id}), {stats['games']} games, seed {options['seed']}"
        )
        self.stdout.write(f"Mean: {stats['mean']:.2f}")
        self.stdout.write(f"Standard deviation: {stats['std']:.2f}")
        self.stdout.write(f"Median: {stats['median']:.1f}")
        self.stdout.write(f"Min / max: {stats['min']:.0f} / {stats['max']:.0f}")
        self.stdout.write(f"Games per second: {stats['games'] / elapsed:.0f}")
