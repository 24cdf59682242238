from django.apps import AppConfig


class ProfilesConfig(AppConfig):
    name = "profiles"

    def ready(self) -> None:
        """Answer the lobby's questions on blocks and favourites (``lobby.apart``)."""
        from lobby import apart
        from profiles import blocking

        apart.answer_with(blocking)
