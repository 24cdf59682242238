"""``manage.py timeouts``: play every turn whose timer has run out (for cron)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games import timeouts


class Command(BaseCommand):
    """Play the overdue turns of timed games, as the live layer's sweep does."""

    help = "Play every turn whose timer has run out, as the beginner computer would."

    def handle(self, *args, **options) -> None:
        played = timeouts.sweep()
        self.stdout.write(f"{played} timed-out turn(s) played.")
