from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"

    def ready(self) -> None:
        """Pay diamond matches and rate ranked matches as they finish, in the finishing action's
        transaction."""
        from games import events
        from lobby import diamonds, ranked

        events.game_finishing.connect(diamonds.settle_game, dispatch_uid="lobby.diamonds.settle")
        events.game_finishing.connect(ranked.rate_game, dispatch_uid="lobby.ranked.rate_game")
