from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games import (
            checks,  # noqa: F401 (registers the deployment checks)
            events,
        )
        from games.live import redraws

        # The live layer listens to what the services announce (games.events).
        events.game_changed.connect(redraws.on_game_changed, dispatch_uid="live-game")
        events.group_message.connect(redraws.on_group_message, dispatch_uid="live-group")
