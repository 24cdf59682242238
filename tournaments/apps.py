from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """Record a tournament game's result in the transaction of the action that finishes it;
        move tournaments on in every socket server's sweep; tell the diamonds' audit which
        tournament pots are closed. Redraw a tournament's open pages as it changes, and show a
        tournament game's tournament above its game and the tournaments a profile played on its
        page (``core.panels``: ``tournaments.pages.connect``); list a group's tournaments on
        its page (``groups.hooks``)."""
        from games import events, timeouts
        from groups import hooks as group_hooks
        from lobby import diamonds
        from tournaments import clock, of_groups, pages, results

        events.game_finishing.connect(clock.record, dispatch_uid="tournaments.clock.record")
        if clock.sweep not in timeouts.SWEPT_WITH:
            timeouts.SWEPT_WITH.append(clock.sweep)
        if results.closed_pots not in diamonds.CLOSED_POTS:  # the audit: an ended pot is empty
            diamonds.CLOSED_POTS.append(results.closed_pots)
        pages.connect()
        group_hooks.GROUP_TOURNAMENTS.answer = of_groups.group_tournaments
