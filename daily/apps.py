from django.apps import AppConfig


class DailyConfig(AppConfig):
    name = "daily"
    verbose_name = "Daily challenge"

    def ready(self) -> None:
        """Link the day's challenge from the home page, under the solo form, naming its game."""
        from core import panels
        from daily import presenters

        panels.offer(
            panels.HOME_SOLO,
            panels.Panel("daily-link", "daily/_home_link.html", presenters.home_link),
        )
