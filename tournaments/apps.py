from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """Record a tournament game's result in the transaction of the action that finishes it;
        move tournaments on in every socket server's sweep. Redraw a tournament's open pages as
        it changes, and show a tournament game's tournament above its game and the tournaments a
        profile played on its page (``core.panels``: ``tournaments.pages.offer_panels``)."""
        from games import events, timeouts
        from tournaments import clock, pages

        events.game_finishing.connect(clock.record, dispatch_uid="tournaments.clock.record")
        if clock.sweep not in timeouts.SWEPT_WITH:
            timeouts.SWEPT_WITH.append(clock.sweep)
        pages.connect()
