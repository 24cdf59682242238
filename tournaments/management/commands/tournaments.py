"""``manage.py tournaments``: move every tournament on that is due (for cron), as the socket
servers' sweep does."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tournaments import clock


class Command(BaseCommand):
    """Start, pair, change rounds and finish the tournaments that are due."""

    help = "Start, pair, change rounds and finish the tournaments that are due now."

    def handle(self, *args, **options) -> None:
        changed = clock.sweep()
        self.stdout.write(f"{changed} tournament(s) moved on.")
