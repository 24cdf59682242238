"""A circle of friends: a group, its members, and the invite code that lets a friend in."""

from __future__ import annotations

import secrets

from django.db import models

from lobby.models import CODE_ALPHABET, Player, Table

INVITE_CODE_LENGTH = 8
MAX_NAME_LENGTH = 40
MAX_DESCRIPTION_LENGTH = 280


def new_invite_code() -> str:
    """A code to join a group: read aloud or typed on a phone without ambiguity (no 0/O, 1/I/L)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(INVITE_CODE_LENGTH))


def new_group_id() -> str:
    """An id for a group's address (not secret: the invite code is what lets someone in)."""
    return secrets.token_urlsafe(6)


class GroupQuerySet(models.QuerySet):
    """Queries on groups."""

    def of_player(self, player: Player) -> GroupQuerySet:
        """The groups this player is a member of, by name."""
        return self.filter(memberships__player=player).order_by("name", "created_at")


class Group(models.Model):
    """A group of friends; its owner can remove members and hand the group over."""

    id = models.CharField(primary_key=True, max_length=12, default=new_group_id, editable=False)
    name = models.CharField(max_length=MAX_NAME_LENGTH)
    description = models.CharField(max_length=MAX_DESCRIPTION_LENGTH, blank=True)
    owner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="groups_owned")
    invite_code = models.CharField(
        max_length=INVITE_CODE_LENGTH, unique=True, default=new_invite_code
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = GroupQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A player in a group (the owner is a member too)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="one_membership_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.group_id}"


class Removal(models.Model):
    """A member the owner removed: no invite lets them back in until the owner does."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="removals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    removed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="one_removal_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} removed from {self.group_id}"


class GroupTable(models.Model):
    """A private table sent to a group: any member may take a seat, nobody else
    (``lobby.hooks.TABLE_ADMITS``). Gone with its table (an expired one is deleted)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="group_table")

    def __str__(self) -> str:
        return f"{self.table_id} for {self.group_id}"
