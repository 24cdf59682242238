"""Blocks and favourites: who keeps apart from whom, whom a player lists first.

A block works both ways: neither player can challenge the other, join a table where the other
sits, be paired with them in the ranked queue or start a rematch with them, and neither sees
the other in the lobby or in "People you have played". A game already under way goes on (no
forfeit, nothing changed); the chat between them stops (``chat.services`` asks
``kept_apart_visitors``). Tables already shared stay as
they are: a table is left, or started by its host, as before the block.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from core.locks import serialize_on
from core.refusals import ActionRefused, NotFound
from engine.words import _
from lobby import notify
from lobby.access import Forbidden
from lobby.models import Challenge, Player
from profiles.models import Block, Favourite
from profiles.services import profile_of

NOT_YOURSELF = _("You cannot block yourself.")
NOT_YOUR_FAVOURITE = _("You cannot make yourself a favourite.")
NO_FAVOURITE_WHEN_BLOCKED = _("You cannot make this player a favourite.")


@dataclass(frozen=True)
class Done:
    """What a block, unblock, favourite or unfavourite did: ``changed`` False when it had
    already been so (asking twice changes nothing, and the page says so)."""

    other: Player
    changed: bool


def blocked_between(visitor_a: str, visitor_b: str) -> bool:
    """Whether either of these browsers' players blocked the other (one query)."""
    if not visitor_a or not visitor_b or visitor_a == visitor_b:
        return False
    return Block.objects.filter(
        Q(blocker__visitor=visitor_a, blocked__visitor=visitor_b)
        | Q(blocker__visitor=visitor_b, blocked__visitor=visitor_a)
    ).exists()


def _either_way(player_id: int) -> QuerySet:
    return Block.objects.filter(Q(blocker_id=player_id) | Q(blocked_id=player_id))


def kept_apart(player_id: int) -> set[int]:
    """The players with a block either way with this one."""
    rows = _either_way(player_id).values_list("blocker_id", "blocked_id")
    return {a if b == player_id else b for a, b in rows}


def apart_pairs(player_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among these players with a block either way."""
    ids = list(player_ids)
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids)
    return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}


def favourites(player_id: int) -> set[int]:
    """The players this one has made favourites."""
    return set(Favourite.objects.filter(player_id=player_id).values_list("of_id", flat=True))


def kept_apart_visitors(visitor: str) -> QuerySet:
    """The visitor ids of the players with a block either way with this browser's player, as a
    subquery (the daily board hides them)."""
    blocked = Player.objects.filter(blocks_received__blocker__visitor=visitor)
    blockers = Player.objects.filter(blocks_made__blocked__visitor=visitor)
    return (blocked | blockers).values("visitor")


def _other(other_id: int) -> Player:
    other = Player.objects.filter(pk=other_id).first()  # an id past 64 bits finds nobody too
    if other is None:
        raise NotFound(_("There is no such player."))
    return other


def block(visitor: str | None, other_id: int) -> Done:
    """Block a player: challenges between the two are cancelled, favourites either way undone;
    a game they play together goes on."""
    player = profile_of(visitor)
    other = _other(other_id)
    if other == player:
        raise ActionRefused(NOT_YOURSELF)
    with transaction.atomic():
        # The lock an answer to a challenge takes: an accept at this moment starts its game
        # before the block (which then lets it go on) or finds the challenge cancelled.
        serialize_on("pair", *sorted([player.pk, other.pk]))
        _block, created = Block.objects.get_or_create(blocker=player, blocked=other)
        if created:
            Challenge.objects.filter(
                Q(challenger=player, challenged=other) | Q(challenger=other, challenged=player),
                status=Challenge.Status.PENDING,
            ).update(status=Challenge.Status.CANCELLED, answered_at=timezone.now())
            Favourite.objects.filter(
                Q(player=player, of=other) | Q(player=other, of=player)
            ).delete()
    if created:  # both lobbies redraw: each leaves the other's list
        notify.players_changed(player.visitor, other.visitor)
    return Done(other, created)


def unblock(visitor: str | None, other_id: int) -> Done:
    """Take back a block of one's own (a block by the other player stays theirs)."""
    player = profile_of(visitor)
    other = _other(other_id)
    with transaction.atomic():
        deleted, _rows = Block.objects.filter(blocker=player, blocked=other).delete()
    if deleted:
        notify.players_changed(player.visitor, other.visitor)
    return Done(other, bool(deleted))


def favourite(visitor: str | None, other_id: int) -> Done:
    """Make a player a favourite: first and marked in one's lobby, with when last seen."""
    player = profile_of(visitor)
    other = _other(other_id)
    if other == player:
        raise ActionRefused(NOT_YOUR_FAVOURITE)
    with transaction.atomic():
        serialize_on("pair", *sorted([player.pk, other.pk]))  # not past a block made meanwhile
        if _either_way(player.pk).filter(Q(blocker=other) | Q(blocked=other)).exists():
            raise Forbidden(NO_FAVOURITE_WHEN_BLOCKED)
        _favourite, created = Favourite.objects.get_or_create(player=player, of=other)
    if created:
        notify.players_changed(player.visitor)
    return Done(other, created)


def unfavourite(visitor: str | None, other_id: int) -> Done:
    """No longer a favourite."""
    player = profile_of(visitor)
    other = _other(other_id)
    deleted, _rows = Favourite.objects.filter(player=player, of=other).delete()
    if deleted:
        notify.players_changed(player.visitor)
    return Done(other, bool(deleted))
