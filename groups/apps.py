from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "groups"
    verbose_name = "Groups"

    def ready(self) -> None:
        """Answer what the lobby asks of a table sent to a group (who may sit, whose it is, the
        members' lobbies listing it), and redraw a group's page when one of its tables changes."""
        from groups import presenters, services
        from lobby import hooks

        hooks.TABLE_ADMITS.answer = services.table_admits
        hooks.TABLE_FOR.answer = presenters.table_for
        hooks.TABLES_FOR.answer = presenters.open_tables
        hooks.table_changed.connect(services.table_changed, dispatch_uid="groups.table_changed")
