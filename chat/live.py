"""Pushing a new line of chat to the open pages of a game or a table, rendered for each page.

A message ``panel.changed`` for the panel "chat" (``chat.services.say``, after its commit; the
page's consumer hands it here through ``core.panels``) names only its sender: each page's
consumer renders the log as its own visitor reads it, in the page's language. A page whose
visitor switched chat off, or hides the sender (muted), is sent nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import translation

from chat import presenters, services
from core.refusals import ActionRefused
from core.socket_messages import PanelChanged


def render_log(
    load: Callable[[], services.Place],
    visitor: str | None,
    sender: str,
    language: str,
    catch_up: bool = False,
) -> str:
    """The chat log as this visitor reads it now, as an out-of-band swap ("" to send nothing).

    ``catch_up``: for a page whose socket has just (re)connected, which may have missed lines
    while it was away; nothing when there is nothing said to show.
    """
    setting = services.setting_of(visitor)  # read once: each page of a group renders its own
    if setting.off or sender in services.hidden_senders(visitor, setting):
        return ""
    try:
        place = load()
    except ActionRefused:
        return ""  # the game or table is gone: nothing to show
    with translation.override(language):
        context = presenters.chat_context(visitor, place, setting=setting, log_only=True)
        context["oob"] = True
        if catch_up and not context["chat"]["lines"]:
            return ""
        return render_to_string("chat/panel.html#log", context)


async def push_log(
    consumer, load: Callable[[], services.Place], event: dict, *, catch_up: bool = False
) -> None:
    """Send this consumer's page the log, unless its visitor is not to see the new line."""
    render = database_sync_to_async(render_log)
    sender, language = PanelChanged.read(event).sender, consumer.page["language"]
    html = await render(load, consumer.visitor, sender, language, catch_up)
    if html:
        await consumer.send(text_data=html)


async def push_to_game(consumer, game_id: str, event: dict, catch_up: bool) -> None:
    """The chat panel's push on an online game's page (``core.panels``)."""
    await push_log(consumer, lambda: services.place_of_game(game_id), event, catch_up=catch_up)


async def push_to_table(consumer, code: str, event: dict, catch_up: bool) -> None:
    """The chat panel's push on a private table's page (``core.panels``)."""
    await push_log(consumer, lambda: services.place_of_table(code), event, catch_up=catch_up)
