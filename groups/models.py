"""A circle of friends: a group, its members, and the invite code that lets a friend in."""

from __future__ import annotations

import secrets

from django.db import models

from lobby.models import CODE_ALPHABET, Player

INVITE_CODE_LENGTH = 8
MAX_NAME_LENGTH = 40
MAX_DESCRIPTION_LENGTH = 280


def new_invite_code() -> str:
    """A code to join a group: read aloud or typed on a phone without ambiguity (no 0/O, 1/I/L)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(INVITE_CODE_LENGTH))


def new_group_id() -> str:
    """An id for a group's address (not secret: the invite code is what lets someone in)."""
    return secrets.token_urlsafe(6)


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
