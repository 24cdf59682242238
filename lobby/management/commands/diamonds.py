"""``manage.py diamonds audit``: each balance against its ledger, all diamonds against grants."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from lobby.diamonds import audit


class Command(BaseCommand):
    help = "Diamonds: 'audit' reconciles every balance with the ledger and prints the totals."

    def add_arguments(self, parser) -> None:
        parser.add_argument("action", choices=["audit"])

    def handle(self, *args, **options) -> None:
        report = audit()
        self.stdout.write(f"players: {report.players}")
        self.stdout.write(f"granted (welcome grants and daily top-ups): {report.granted}")
        self.stdout.write(f"held by players: {report.held}")
        self.stdout.write(f"in the pots of games being played: {report.in_play}")
        for problem in report.problems:
            self.stderr.write(problem)
        if report.problems:
            raise CommandError(f"{len(report.problems)} mismatch(es): see above")
        self.stdout.write(self.style.SUCCESS("the ledger and the balances agree"))
