"""Groups of friends: making one, joining by its invite, leaving, the owner's powers, and the
private tables sent to a whole group.

Each change runs in one transaction under the group's row lock (``select_for_update``), as
``games.services.perform`` does under the game's: two joins at once, or a join as the owner
removes the same player, take turns and each sees what the other did. A refusal raises a
``core.refusals`` exception with its status and reason, and changes nothing.

Decisions (what a player would expect):
- The owner hands the group over before leaving; an owner who is its last member may leave, and
  the group ends with them (its tournaments stay, without a group).
- A removed player cannot join again by any invite, old or new, until the owner lets them back;
  a player who left of their own accord may come back with the current invite.
- A new invite code makes the old link and code stop working at once (after a leak).
- Blocks: a player with a block either way with the owner cannot join. Inside a group, two
  members with a block between them stay apart as everywhere (``lobby.apart``): neither is offered
  a challenge to the other, nor a seat at a table where the other sits.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from core.refusals import ActionRefused, NotFound, StaleAction
from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _
from games.forms import clean_name
from groups import notify
from groups.models import (
    MAX_DESCRIPTION_LENGTH,
    MAX_NAME_LENGTH,
    Group,
    GroupTable,
    Membership,
    Removal,
    new_invite_code,
)
from lobby import apart
from lobby.access import Forbidden, check_rate, require_player
from lobby.models import Player, Table
from lobby.tables import create_table

# A circle of friends is 4 to 30 people (issue 31); room for a few more.
MAX_MEMBERS = 50

NO_GROUP = _("There is no such group.")
NO_INVITE = _(
    "This invite does not lead to a group: it may have been replaced by a new one, or the group "
    "has ended. Ask a member for the current link."
)
NOT_A_MEMBER = _("You are not a member of this group.")
ONLY_OWNER = _("Only the group's owner can do that.")
CANNOT_JOIN = _("You cannot join this group.")
REMOVED = _("The owner removed you from this group: only they can let you back in.")
FULL = _("This group is full: it has %(count)s members.")
HAND_OVER_FIRST = _("Hand the group over to another member before you leave it.")
NOT_IN_GROUP = _("That player is not a member of this group.")


def clean_group_name(raw: str) -> str:
    """A group's name, checked as a player's name is (composed, trimmed, visible characters),
    up to ``MAX_NAME_LENGTH`` characters (look-alikes are allowed: two groups may share a
    name)."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if len(name) > MAX_NAME_LENGTH:
        raise ActionRefused(
            _("Group names have %(count)s characters at most."), count=str(MAX_NAME_LENGTH)
        )
    try:
        return clean_name(name, max_length=MAX_NAME_LENGTH)
    except ValidationError as error:
        raise ActionRefused(str(error.messages[0])) from None


def clean_description(raw: str) -> str:
    """A group's description: trimmed, up to ``MAX_DESCRIPTION_LENGTH`` characters."""
    description = unicodedata.normalize("NFC", raw).strip()
    if len(description) > MAX_DESCRIPTION_LENGTH:
        raise ActionRefused(
            _("A description has %(count)s characters at most."),
            count=str(MAX_DESCRIPTION_LENGTH),
        )
    if any(unicodedata.category(c) == "Cc" and c not in "\r\n\t" for c in description):
        raise ActionRefused(_("A description cannot contain control characters."))
    return description


def create_group(
    visitor: str | None, name: str, description: str = "", *, address: str | None = None
) -> Group:
    """A new group owned by this player, its first member."""
    player = require_player(visitor)
    check_rate(player.visitor, "join", address)
    name, description = clean_group_name(name), clean_description(description)
    for _attempt in range(5):
        try:
            with transaction.atomic():
                group = Group.objects.create(name=name, description=description, owner=player)
                Membership.objects.create(group=group, player=player)
                return group
        except IntegrityError:  # an invite code or id already in use: draw another
            continue
    raise ActionRefused(_("Could not make the group: try again."))


def find_invite(visitor: str | None, code: str, *, address: str | None = None) -> Group:
    """The group this invite code leads to, for its page. A code that finds none counts toward
    the look-up limits, as a table's does: a guesser meets them."""
    check_rate(visitor, "lookup", address, count=False)
    group = Group.objects.filter(invite_code=normal_code(code)).first()
    if group is None:
        check_rate(visitor, "lookup", address)
        raise NotFound(NO_INVITE)
    return group


def normal_code(code: str) -> str:
    """An invite code as typed or read aloud: any case, spaces and dashes left out."""
    return "".join(code.split()).replace("-", "").upper()[:16]


def join_group(visitor: str | None, code: str, *, address: str | None = None) -> Group:
    """Join the group this invite code leads to (a member already: nothing changes)."""
    check_rate(visitor, "join", address)
    with transaction.atomic():  # every read in it: on SQLite, racing joins take turns whole
        player = require_player(visitor)
        found = find_invite(player.visitor, code, address=address)
        group = _locked(found.pk)
        if group.invite_code != found.invite_code:  # renewed meanwhile
            raise NotFound(NO_INVITE)
        if group.memberships.filter(player=player).exists():
            return group
        if group.removals.filter(player=player).exists():
            raise Forbidden(REMOVED)
        if group.owner_id in apart.kept_apart(player.pk):
            raise Forbidden(CANNOT_JOIN)
        if group.memberships.count() >= MAX_MEMBERS:
            raise StaleAction(FULL, count=str(MAX_MEMBERS))
        Membership.objects.create(group=group, player=player)
    notify.group_changed(group.pk)
    return group


def _locked(group_id: str) -> Group:
    """The group's row, locked until the transaction ends."""
    group = Group.objects.select_for_update().filter(pk=str(group_id)[:12]).first()
    if group is None:
        raise NotFound(NO_GROUP)
    return group


def member_group(player: Player, group_id: str) -> Group:
    """The group (locked), this player being a member."""
    group = _locked(group_id)
    if not group.memberships.filter(player=player).exists():
        raise Forbidden(NOT_A_MEMBER)
    return group


def owned_group(visitor: str | None, group_id: str) -> tuple[Player, Group]:
    """This browser's player and their group (locked); refused unless they own it."""
    player = require_player(visitor)
    group = member_group(player, group_id)
    if group.owner_id != player.pk:
        raise Forbidden(ONLY_OWNER)
    return player, group


def _member(group: Group, player_id: int | str) -> Player:
    """A member of the group, by their player id as posted."""
    try:
        pk = int(player_id)
    except (TypeError, ValueError):
        raise NotFound(NOT_IN_GROUP) from None
    membership = group.memberships.select_related("player").filter(player_id=pk).first()
    if membership is None:
        raise NotFound(NOT_IN_GROUP)
    return membership.player


def leave_group(visitor: str | None, group_id: str) -> bool:
    """Leave a group; True when that ended it (its owner was its last member)."""
    player = require_player(visitor)
    with transaction.atomic():
        group = member_group(player, group_id)
        others = group.memberships.exclude(player=player)
        if group.owner_id == player.pk and others.exists():
            raise StaleAction(HAND_OVER_FIRST)
        group_pk, ended = group.pk, group.owner_id == player.pk
        if ended:
            group.delete()
        else:
            group.memberships.filter(player=player).delete()
    notify.group_changed(group_pk)
    return ended


def remove_member(visitor: str | None, group_id: str, player_id: int | str) -> Player:
    """The owner removes a member, who cannot join again until the owner lets them back."""
    with transaction.atomic():
        owner, group = owned_group(visitor, group_id)
        member = _member(group, player_id)
        if member == owner:
            raise ActionRefused(_("You cannot remove yourself: leave the group instead."))
        group.memberships.filter(player=member).delete()
        Removal.objects.get_or_create(group=group, player=member)
    notify.group_changed(group.pk)
    return member


def let_back(visitor: str | None, group_id: str, player_id: int | str) -> None:
    """The owner lets a removed player join again (with the invite)."""
    with transaction.atomic():
        _owner, group = owned_group(visitor, group_id)
        try:
            pk = int(player_id)
        except (TypeError, ValueError):
            pk = 0
        deleted, _rows = group.removals.filter(player_id=pk).delete()
        if not deleted:
            raise NotFound(_("That player was not removed from this group."))
    notify.group_changed(group.pk)


def hand_over(visitor: str | None, group_id: str, player_id: int | str) -> Player:
    """The owner makes another member the owner."""
    with transaction.atomic():
        owner, group = owned_group(visitor, group_id)
        member = _member(group, player_id)
        if member == owner:
            raise ActionRefused(_("You own this group already."))
        group.owner = member
        group.save(update_fields=["owner"])
    notify.group_changed(group.pk)
    return member


def rename(visitor: str | None, group_id: str, name: str, description: str) -> Group:
    """The owner changes the group's name and description."""
    name, description = clean_group_name(name), clean_description(description)
    with transaction.atomic():
        _owner, group = owned_group(visitor, group_id)
        group.name, group.description = name, description
        group.save(update_fields=["name", "description"])
    notify.group_changed(group.pk)
    return group


def new_invite(visitor: str | None, group_id: str) -> Group:
    """The owner replaces the invite code: the old link and code stop working at once."""
    for _attempt in range(5):
        try:
            with transaction.atomic():
                _owner, group = owned_group(visitor, group_id)
                group.invite_code = new_invite_code()
                group.save(update_fields=["invite_code"])
                return group
        except IntegrityError:  # a code already in use: draw another
            continue
    raise ActionRefused(_("Could not make a new invite: try again."))


def open_table(
    visitor: str | None, group_id: str, *, address: str | None = None, rules: RuleSet = YAHTZEE
) -> Table:
    """A private table for the group, hosted by this member, played under ``rules``: any member
    may take a seat."""
    player = require_player(visitor)
    with transaction.atomic():
        group = member_group(player, group_id)
        table = create_table(player.visitor, address=address, rules=rules)
        GroupTable.objects.create(group=group, table=table)
    notify.tables_changed(group.pk, member_visitors(group.pk))
    return table


def table_admits(table: Table, player: Player) -> str | None:
    """``lobby.hooks.TABLE_ADMITS``: a group's table seats its members only."""
    sent = GroupTable.objects.filter(table=table).select_related("group").first()
    if sent is None or sent.group.memberships.filter(player=player).exists():
        return None
    return _("Only the members of the group can take a seat at this table.")


def table_changed(sender, code: str, **kwargs) -> None:
    """``lobby.hooks.table_changed``: a group's page redraws its tables."""
    for group_id in GroupTable.objects.filter(table__code=code).values_list("group_id", flat=True):
        notify.tables_changed(group_id, member_visitors(group_id))


def member_visitors(group_id: str) -> list[str]:
    """The visitor ids of a group's members: whose lobbies to redraw."""
    return list(
        Membership.objects.filter(group_id=group_id).values_list("player__visitor", flat=True)
    )
