from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self) -> None:
        # The chat shows on the game's and the table's pages through the hook they offer: the
        # games and lobby apps never import it.
        from chat import live, pages
        from core import panels

        template = "chat/panel.html#panel"
        game = panels.Panel("chat", template, pages.on_game_page, live.push_to_game)
        panels.offer(panels.GAME_PAGE, game)
        table = panels.Panel("chat", template, pages.on_table_page, live.push_to_table)
        panels.offer(panels.TABLE_PAGE, table)
