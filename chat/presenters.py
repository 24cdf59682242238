"""The chat panel as one reader sees it: plain values for templates/chat/panel.html."""

from __future__ import annotations

from django.urls import reverse

from chat import services
from chat.models import ChatSetting, Message
from chat.phrases import PHRASES
from lobby.models import Player

LINES_SHOWN = 50  # the latest lines; older ones stay stored with the game


def urls_of(place: services.Place) -> dict[str, str]:
    """Where the panel's forms post, and the page they come back to."""
    if place.game_id is not None:
        args, prefix = [place.game_id], "chat:game"
        back = reverse("games:play", args=args)
    else:
        args, prefix = [place.code], "chat:table"
        back = reverse("lobby:table", args=args)
    return {
        "say": reverse(f"{prefix}_say", args=args),
        "mute": reverse(f"{prefix}_mute", args=args),
        "off": reverse(f"{prefix}_off", args=args),
        "back": f"{back}#chat",
    }


def refusal_place(place: services.Place) -> str:
    """The name under which a refused plain post leaves its reason for the page (``refused_to``)."""
    return f"chat-{place.group}"


def chat_context(
    reader: str | None,
    place: services.Place,
    *,
    error: str = "",
    setting: ChatSetting | None = None,
    log_only: bool = False,
) -> dict:
    """The panel for this reader: the latest lines they see, and what they may do.

    ``setting``: the reader's, when already read; ``log_only``: for redrawing the log alone (a
    push), without the players the settings list.
    """
    setting = setting or services.setting_of(reader)
    apart = services.kept_apart(reader)  # hidden lines, and the reason a player may not write
    hidden = services.hidden_senders(reader, setting, apart)
    lines = []
    if not setting.off:
        stored = Message.objects.of_place(place.game_id, place.table_id).exclude(sender__in=hidden)
        for message in reversed(stored.order_by("-id")[:LINES_SHOWN]):
            said = PHRASES.get(message.phrase, "") if message.phrase else message.text
            lines.append({"name": message.name, "text": said, "mine": message.sender == reader})
    player = reader in place.players
    # Named by their profile's number, as the lobby's challenge form does: a visitor id is
    # never printed in a page.
    ids = {}
    if not log_only:
        players = Player.objects.filter(visitor__in=place.players)
        ids = dict(players.values_list("visitor", "pk"))
    others = [
        {"id": ids[visitor], "name": name, "muted": visitor in setting.muted}
        for visitor, name in place.players.items()
        if visitor != reader and visitor in ids
    ]
    blocked = player and bool(apart & place.players.keys())  # services.say refuses them
    return {
        "chat": {
            "lines": lines,
            "off": setting.off,
            "can_write": player and not place.closed and not blocked,
            "blocked": blocked,
            "player": player,
            "closed": place.closed,
            "others": others if player or reader else [],
            "phrases": [{"key": key, "label": label} for key, label in PHRASES.items()],
            "max_length": services.MAX_LENGTH,
            "urls": urls_of(place),
            "error": error,
        }
    }
