"""The one place that adds a line of chat, and changes a reader's chat settings.

Who may write: a seated player of an online game (until an hour after its end: "good game" is
expected) or a player seated at a private table. Watchers read but never write. Each line is
plain text, shown auto-escaped; a sender may say at most ``BURST`` lines in ``BURST_WINDOW``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from chat.models import ChatSetting, Message
from chat.phrases import PHRASES
from core import panels
from core.refusals import ActionRefused, NotFound
from games import events
from games.models import Game
from lobby.models import Player, Table
from lobby.notify import table_group
from profiles import blocking

MAX_LENGTH = 200
# A burst of 5, then one line every 2 s on average: at most 5 lines in any 10 seconds.
BURST = 5
BURST_WINDOW = timedelta(seconds=10)
# After the end of a game its players may still say "good game" for this long.
OPEN_AFTER_END = timedelta(hours=1)
# Text that starts an HTML tag, comment or declaration ("<b", "</", "<!", "<?"); "<3" and
# "x < y" are fine.
MARKUP = re.compile(r"<[/!?A-Za-z]")
EMOJI_JOINER = "\u200d"
EMOJI_TAGS = ("\U000e0020", "\U000e007f")


class ChatRefused(ActionRefused):
    """A line that cannot be said as it is (empty, too long, markup, no such phrase)."""


class NotAPlayer(ActionRefused):
    """The visitor is not a player here: a watcher or a stranger reads, never writes."""

    status = 403


class ChatClosed(ActionRefused):
    """The game ended too long ago, or the table expired."""

    status = 409


class SlowDown(ActionRefused):
    """The sender is writing faster than ``BURST`` lines in ``BURST_WINDOW``."""

    status = 429


class Blocked(ActionRefused):
    """A block between the writer and a player here: the chat between them has stopped."""

    status = 403


NO_CHAT = _("There is no chat here.")
BLOCKED = _("You cannot write in this chat: there is a block between you and one of its players.")
SLOW_DOWN = _("Slow down: you can send 5 messages every 10 seconds. Wait a moment and try again.")


@dataclass(frozen=True)
class Place:
    """Where a chat happens: an online game or a private table, and who plays there."""

    game_id: str | None
    table_id: int | None
    code: str | None  # the table's code
    group: str  # the Channels group of its open pages
    players: dict[str, str]  # visitor id -> name, in seat order
    closed: bool  # no one may write any more


def game_group(game_id: str) -> str:
    """The group of a game's open pages: ``games.live.pages.group_name``'s name, spelled here
    because nothing below the views imports the live layer (a test pins that they agree)."""
    return f"game-{game_id}"


def place_of_game(game_id: str) -> Place:
    """The chat of an online game; refused for a game of another mode (it has no chat)."""
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None or game.mode != Game.Mode.ONLINE:
        raise NotFound(NO_CHAT)
    return place_at_game(game)


def place_at_game(game: Game) -> Place:
    """The chat of this online game, as loaded (its seats prefetched)."""
    seats = game.ordered_seats()
    finished = game.status == Game.Status.FINISHED
    return Place(
        game_id=game.id,
        table_id=None,
        code=None,
        group=game_group(game.id),
        players={seat.visitor: seat.name for seat in seats if seat.visitor},
        closed=finished and game.updated_at < timezone.now() - OPEN_AFTER_END,
    )


def place_of_table(code: str) -> Place:
    """The chat of a private table (before its game starts: then the game's page has its own)."""
    table = Table.objects.filter(code=code.strip().upper()).first()
    if table is None:
        raise NotFound(NO_CHAT)
    seated = table.seats.select_related("player").order_by("joined_at", "id")
    return Place(
        game_id=None,
        table_id=table.pk,
        code=table.code,
        group=table_group(table.code),
        players={seat.player.visitor: seat.player.name for seat in seated},
        closed=table.expired,
    )


def clean_text(raw: str) -> str:
    """The free text as it is stored: whitespace runs made one space; refused when it is empty,
    longer than ``MAX_LENGTH``, markup, or holds control characters."""
    text = " ".join(raw.split())
    if not text:
        raise ChatRefused(_("Write something first: the message is empty."))
    if len(text) > MAX_LENGTH:
        raise ChatRefused(_("A message can be at most 200 characters long."))
    if MARKUP.search(text):
        raise ChatRefused(_("Messages are plain text: leave out the < > tags."))
    if any(_unshowable(char) for char in text):
        raise ChatRefused(_("That message holds characters that cannot be shown."))
    return text


def _unshowable(char: str) -> bool:
    """Control, private or lone surrogate characters, and the invisible format ones (bidi
    overrides that turn a line around, zero-width spaces) but for the joiner and the tags that
    build emoji (👨‍👩‍👧, subdivision flags)."""
    category = unicodedata.category(char)
    if category == "Cf":
        return char != EMOJI_JOINER and not EMOJI_TAGS[0] <= char <= EMOJI_TAGS[1]
    return category in ("Cc", "Cs", "Co")


def setting_of(visitor: str | None) -> ChatSetting:
    """This visitor's chat settings (unsaved defaults when they changed none)."""
    found = ChatSetting.objects.filter(visitor=visitor).first() if visitor else None
    return found or ChatSetting(visitor=visitor or "")


def hidden_senders(
    reader: str | None, setting: ChatSetting | None = None, apart: set[str] | None = None
) -> set[str]:
    """Whose lines this reader does not see: the players they muted and those with a block either
    way with them (``setting``, ``apart``: the reader's, when already read). The one place the
    chat asks."""
    muted = (setting or setting_of(reader)).muted
    return set(muted) | (kept_apart(reader) if apart is None else apart)


def kept_apart(visitor: str | None) -> set[str]:
    """The visitor ids of the players with a block either way with this visitor's player."""
    if not visitor:
        return set()
    return {row["visitor"] for row in blocking.kept_apart_visitors(visitor)}


def say(visitor: str | None, place: Place, *, phrase: str = "", text: str = "") -> Message:
    """Add a line (a quick phrase by key, or free text) and push it to the place's open pages."""
    if phrase:
        if phrase not in PHRASES:
            raise ChatRefused(_("There is no such quick phrase."))
        kind, text = Message.Kind.PHRASE, ""
    else:
        kind, text = Message.Kind.TEXT, clean_text(text)
    if not visitor or visitor not in place.players:
        raise NotAPlayer(_("Only the players can write here: watchers can read the chat."))
    if place.closed:
        raise ChatClosed(_("This chat has closed."))
    if setting_of(visitor).off:
        raise ChatRefused(_("Your chat is off: turn it on to write."))
    if kept_apart(visitor) & place.players.keys():
        # Their lines are hidden from each other both ways; writing stops too, so that a block
        # cannot be talked around in front of the player who made it. Who blocked whom is not said.
        raise Blocked(BLOCKED)
    with transaction.atomic():
        # One sender's lines are counted one at a time (on PostgreSQL; SQLite writes one at a
        # time anyway), so that a flood from several tabs cannot pass the limit together.
        list(Player.objects.select_for_update().filter(visitor=visitor))
        since = timezone.now() - BURST_WINDOW
        if Message.objects.filter(sender=visitor, created_at__gt=since).count() >= BURST:
            raise SlowDown(SLOW_DOWN)
        message = Message.objects.create(
            game_id=place.game_id,
            table_id=place.table_id,
            sender=visitor,
            name=place.players[visitor],
            kind=kind,
            phrase=phrase if kind == Message.Kind.PHRASE else "",
            text=text,
        )
        events.announce(place.group, panels.changed("chat", sender=visitor))
    return message


def set_off(visitor: str | None, off: bool) -> ChatSetting:
    """Switch this visitor's chat off (the panel folds, nothing is pushed) or on again."""
    if not visitor:
        raise NotAPlayer(_("Open a game or a table first."))
    setting, _created = ChatSetting.objects.update_or_create(visitor=visitor, defaults={"off": off})
    return setting


def set_muted(visitor: str | None, place: Place, player_id: str, muted: bool) -> ChatSetting:
    """Mute (hide their lines for this visitor, everywhere) or unmute a player of this place,
    named by their profile's number."""
    if not visitor:
        raise NotAPlayer(_("Open a game or a table first."))
    number = player_id.isascii() and player_id.isdigit() and len(player_id) < 12
    found = Player.objects.filter(pk=int(player_id)).first() if number else None
    other = found.visitor if found is not None else None
    if other not in place.players or other == visitor:
        raise ChatRefused(_("There is no such player here."))
    with transaction.atomic():
        setting, _created = ChatSetting.objects.select_for_update().get_or_create(visitor=visitor)
        others = [who for who in setting.muted if who != other]
        setting.muted = [*others, other] if muted else others
        setting.save(update_fields=["muted"])
    return setting
