from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """Redraw a tournament's open pages as it changes; show a tournament game's tournament
        above its game, and the tournaments a profile played on its page (``core.panels``)."""
        from core import panels
        from tournaments import events, live, presenters

        events.tournament_changed.connect(
            live.on_tournament_changed, dispatch_uid="tournaments.live.redraw"
        )
        game = panels.Panel("tournament", "tournaments/panels.html#game", presenters.on_game_page)
        panels.offer(panels.GAME_HEADER, game)
        played = panels.Panel(
            "tournaments", "tournaments/panels.html#profile", presenters.on_profile_page
        )
        panels.offer(panels.PROFILE_PAGE, played)
