"""Who keeps apart from whom (a block) and whom a player favours: asked here by the lobby,
answered by ``profiles.blocking``.

The lobby knows nothing of profiles, which build on it (tests/test_imports.py): profiles gives
its answers when it loads (``profiles.apps``), as a ``Relations``. Until then (an app without
profiles) nobody keeps apart and nobody is a favourite.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Relations(Protocol):
    """What the lobby asks of who blocked and favoured whom, by players' ids."""

    def kept_apart(self, player_id: int) -> set[int]:
        """The players with a block either way with this one."""

    def apart_pairs(self, player_ids: Iterable[int]) -> set[frozenset[int]]:
        """The pairs among these players with a block either way."""

    def favourites(self, player_id: int) -> set[int]:
        """The players this one has made favourites."""


class _Nobody:
    def kept_apart(self, player_id: int) -> set[int]:
        return set()

    def apart_pairs(self, player_ids: Iterable[int]) -> set[frozenset[int]]:
        return set()

    def favourites(self, player_id: int) -> set[int]:
        return set()


_relations: Relations = _Nobody()


def answer_with(relations: Relations) -> None:
    """Make ``relations`` the lobby's answers (profiles does, when it loads)."""
    global _relations
    _relations = relations


def kept_apart(player_id: int) -> set[int]:
    """The players with a block either way with this one: neither sees nor meets the other."""
    return _relations.kept_apart(player_id)


def apart_pairs(player_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among these players with a block either way (one query for a whole queue)."""
    return _relations.apart_pairs(player_ids)


def any_apart(player_id: int, others: Iterable[int]) -> bool:
    """Whether this player has a block either way with any of ``others``."""
    return bool(kept_apart(player_id) & set(others))


def favourites(player_id: int) -> set[int]:
    """The players this one has made favourites."""
    return _relations.favourites(player_id)
