from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"

    def ready(self) -> None:
        """Pay diamond matches and rate ranked matches as they finish, in the finishing action's
        transaction; answer what a game's page asks of the lobby (its rematch, its ratings); show
        Play now on the home page."""
        from core import panels
        from games import events
        from games.presenters import hooks
        from lobby import diamonds, presenters, ranked

        events.game_finishing.connect(diamonds.settle_game, dispatch_uid="lobby.diamonds.settle")
        events.game_finishing.connect(ranked.rate_game, dispatch_uid="lobby.ranked.rate_game")
        hooks.REMATCH.answer = presenters.rematch_offer
        hooks.RATING_CHANGES.answer = presenters.rating_changes
        panels.offer(
            panels.HOME_PAGE,
            panels.Panel("play-now", "lobby/_play_now_panel.html", presenters.play_now_panel),
        )
