"""Work out the summaries that finished games lack (games from before history, or valued later).

    manage.py summaries

Run once after deploying the history app: My games and the profile pages also fill a browser's
missing summaries as they are opened, but 50 at a time, each replaying and valuing a game's log.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games import advice
from games.models import Game, Seat
from history import summaries
from history.models import Summary


class Command(BaseCommand):
    help = "Work out the summaries finished games lack, from their logs."

    def handle(self, *args, **options) -> None:
        if not advice.is_ready():
            self.stderr.write("The strategy table is not ready: points lost stay to be valued.")
        missing = (
            Seat.objects.filter(summary__isnull=True, game__status=Game.Status.FINISHED)
            .exclude(visitor="")
            .filter(bot="")
            .values_list("game_id", flat=True)
            .distinct()
        )
        games = Game.objects.filter(pk__in=list(missing))
        written = summaries.summarise_all(games.iterator())
        valued = 0
        if advice.is_ready():
            visitors = Summary.objects.filter(decisions__isnull=True).values_list(
                "visitor", flat=True
            )
            for visitor in set(visitors):
                valued += summaries.fill_missing(visitor, limit=10**9)
        self.stdout.write(f"{written} summaries written, {valued} valued.")
