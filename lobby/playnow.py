"""Play now: two people who press it within a short time play each other, unrated and live;
after ``settings.PLAY_NOW_WAIT_SECONDS`` with nobody, the waiting page offers the computer.

Waiting. A press keeps one ``PlayNowEntry`` for the player (a name first, as the lobby asks) and
pairs at once: with whoever has waited longest and is here. Who is here is who the ranked queue
counts (``lobby.ranked``): a player online (``Player.online_until``), whom the waiting page's
socket keeps online as the lobby's does; closing it (their last lobby, table or waiting page)
takes them offline, and they are not paired; after ``ONLINE_WINDOW`` offline the entry goes. A
browser without JavaScript has no socket: the press and each load of the waiting page (it reloads
itself) keep its player online for ``lobby.presence.LOADED_WINDOW``. The waiting page's socket
also asks for a pairing every few seconds (``pair_if_waiting``, as the ranked queue's does), for
a player who was offline a moment when the other pressed.

Every press, pairing, cancel and giving up for the computer holds the ranked queue's lock
(``QUEUE_LOCK``): of two presses at once on two processes, the second finds the first waiting and
pairs with them; one game, never two; and a player in both queues is never put in two games
(the game starts through ``ranked.start_unranked``, which takes them out of the ranked queue; a
ranked game makes them busy, and busy players leave this queue). Two players with a block
either way are never paired (``lobby.apart``). A paired entry keeps its game: the waiting page
(a reload without JavaScript, a socket that opened after the push) goes there.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from core.locks import serialize_on
from core.refusals import COMPUTER_NOT_READY, ComputerNotReady, StaleAction
from engine.words import _
from games import advice
from games.models import Game
from games.services import start_game
from lobby import apart, notify, presence, ranked
from lobby.access import Forbidden, check_rate, require_player
from lobby.models import QUEUE_LOCK, PlayNowEntry

PAIRED_KEY = "play-now:paired"  # in the cache while a page's pairing is recent


def offer_after() -> timedelta:
    """How long a player waits for someone before the page offers the computer."""
    return timedelta(seconds=settings.PLAY_NOW_WAIT_SECONDS)


def press(visitor: str | None, *, address: str | None = None) -> Game | None:
    """This player pressed Play now: the game that starts if someone was waiting, else None."""
    player = require_player(visitor)
    check_rate(player.visitor, "queue", address)
    with transaction.atomic():
        serialize_on(QUEUE_LOCK)
        if PlayNowEntry.objects.filter(player=player, game=None).exists():
            raise StaleAction(_("You are already waiting for someone to play."))
        if ranked.live_game(player):
            raise Forbidden(_("You are in a game: finish it first."))
        # A game this player was paired into before, now over or left, is forgotten.
        PlayNowEntry.objects.update_or_create(
            player=player, defaults={"joined_at": timezone.now(), "game": None}
        )
        here(player.visitor)  # until the waiting page's socket says so
        started = pair_waiting()
    return next((game for game in started if game.seat_of(player.visitor)), None)


def cancel(visitor: str | None, *, address: str | None = None) -> None:
    """This player stops waiting."""
    player = require_player(visitor)
    check_rate(player.visitor, "queue", address)
    with transaction.atomic():
        serialize_on(QUEUE_LOCK)
        deleted, _rows = PlayNowEntry.objects.filter(player=player, game=None).delete()
        if not deleted:
            raise StaleAction(_("You are not waiting for a game."))


def play_computer(visitor: str, strength: str) -> Game:
    """The computer instead: this browser stops waiting (if it was) and plays it at that
    strength. Refused if someone was paired with it meanwhile: that game is on."""
    with transaction.atomic():
        serialize_on(QUEUE_LOCK)
        if paired_game(visitor) is not None:
            raise StaleAction(_("Someone pressed Play now: your game with them has started."))
        if not advice.bot_can_play(strength):
            raise ComputerNotReady(COMPUTER_NOT_READY)
        PlayNowEntry.objects.filter(player__visitor=visitor).delete()
        return start_game(visitor, ["", ""], mode=Game.Mode.COMPUTER, bots={1: strength})


def waiting_since(visitor: str | None) -> datetime | None:
    """Since when this browser's player waits for someone, or None (one indexed read)."""
    entry = PlayNowEntry.objects.filter(player__visitor=visitor or "", game=None).first()
    return entry.joined_at if entry else None


def paired_game(visitor: str | None) -> str | None:
    """The game this browser's player was paired into by Play now, while it is being played."""
    entry = PlayNowEntry.objects.filter(
        player__visitor=visitor or "", game__status=Game.Status.PLAYING
    ).first()
    return entry.game_id if entry else None


def still_here(visitor: str | None) -> str | None:
    """The waiting page was loaded: a waiting player is here a while longer (a page without
    JavaScript has no socket to say so) and pairs if someone else waits. The game this browser's
    player was paired into, if any."""
    if waiting_since(visitor) is not None:
        here(visitor)
        pair_waiting()
    return paired_game(visitor)


def here(visitor: str) -> None:
    """A press or a load of the waiting page: its player is here a while (``page_loaded``); if
    that took them online, the lobby's list of who is online shows them."""
    if presence.page_loaded(visitor):
        notify.lobby_changed()


def pair_if_waiting(visitor: str | None) -> list[Game]:
    """A waiting page asks: pair if this player waits, and no page (on any process: the cache is
    shared) has paired in the last ``ranked.PAIR_SECONDS`` (see ``ranked.pair_if_waiting``)."""
    recent = max(0, int(ranked.PAIR_SECONDS) - 1)
    if waiting_since(visitor) is None or not cache.add(PAIRED_KEY, True, recent):
        return []
    return pair_waiting()


def pair_waiting(now: datetime | None = None) -> list[Game]:
    """Pair whoever waits and is here, longest waiting first; the games started."""
    started: list[Game] = []
    with transaction.atomic():
        serialize_on(QUEUE_LOCK)
        ready, _gone = ranked.still_waiting(
            PlayNowEntry.objects.filter(game=None), now or timezone.now()
        )
        kept_apart = apart.apart_pairs(e.player_id for e in ready)  # blocks: never paired
        while len(ready) > 1:
            first = ready.pop(0)
            second = next(
                (e for e in ready if frozenset((first.player_id, e.player_id)) not in kept_apart),
                None,
            )
            if second is None:
                continue
            ready.remove(second)
            pair = [first.player, second.player]
            if secrets.randbelow(2):  # who plays first: a coin's toss
                pair.reverse()
            game = ranked.start_unranked(pair)
            PlayNowEntry.objects.filter(pk__in=[first.pk, second.pk]).update(game=game)
            notify.navigate([player.visitor for player in pair], game)
            started.append(game)
    return started
