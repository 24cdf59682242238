from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "history"
    verbose_name = "History and stats"

    def ready(self) -> None:
        """Sum up each seat of a game as it finishes, in the finishing action's transaction."""
        from games import events
        from history import summaries

        events.game_finishing.connect(summaries.on_finish, dispatch_uid="history.summaries")
