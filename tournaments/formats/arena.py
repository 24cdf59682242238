"""Arena (Lichess's rules, adapted): a game's points with streaks and berserk, and pairing the
players waiting for a game.

Scoring, as Lichess scores an arena: a win 2, a draw 1, a loss 0. After two wins in a row a player
is on fire: every result counts double (a win 4, a draw 2, a loss 0) until a game is not won, and
the game that is not won (a draw or a loss) still counts double, as it does on Lichess. A player who
went berserk and won scores one more; that point is not doubled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
STREAK = 2  # wins in a row that set a player on fire


@dataclass(frozen=True)
class ArenaGame:
    """One finished arena game, from one player's side: 1 won, 0.5 drew, 0 lost."""

    result: float
    berserk: bool = False


def base_points(result: float) -> int:
    """A game's points before streaks and berserk: a win 2, a draw 1, a loss 0."""
    if result == WIN:
        return 2
    if result == DRAW:
        return 1
    if result == LOSS:
        return 0
    raise ValueError(f"an arena result is 1, 0.5 or 0, not {result!r}")


def game_points(history: Sequence[ArenaGame]) -> list[int]:
    """Each game's points, in the order played.

    >>> game_points([ArenaGame(WIN), ArenaGame(WIN), ArenaGame(WIN), ArenaGame(DRAW)])
    [2, 2, 4, 2]
    >>> game_points([ArenaGame(WIN, berserk=True), ArenaGame(LOSS, berserk=True)])
    [3, 0]
    """
    points = []
    wins_in_a_row = 0
    for game in history:
        value = base_points(game.result)
        if wins_in_a_row >= STREAK:
            value *= 2
        if game.berserk and game.result == WIN:
            value += 1
        points.append(value)
        wins_in_a_row = wins_in_a_row + 1 if game.result == WIN else 0
    return points


def on_fire(history: Sequence[ArenaGame]) -> bool:
    """Whether the player's next game counts double: their last two games were won."""
    return len(history) >= STREAK and all(game.result == WIN for game in history[-STREAK:])


@dataclass(frozen=True)
class Waiting:
    """A player waiting for a game: their entry's id, their rank (1 = the leader), and whom they
    played last (None: nobody yet)."""

    id: int
    rank: int
    last_opponent: int | None


def played_last(a: Waiting, b: Waiting) -> bool:
    """Whether ``a`` and ``b`` would meet twice in a row."""
    return a.last_opponent == b.id or b.last_opponent == a.id


def pair_waiting(waiting: Sequence[Waiting]) -> tuple[list[tuple[int, int]], list[int]]:
    """Pairs of waiting players' ids, each pair close in rank, and the ids left waiting.

    Never two players who just played each other (Lichess's rule: never the same opponent twice
    in a row); such a player waits for the next one to come free rather than meet them again, so
    two players alone in the waiting room who just met stay waiting (the caller may fill a seat
    with the computer). As many pairs as the rule allows, then the smallest sum of rank gaps.
    """
    players = sorted(waiting, key=lambda player: (player.rank, player.id))
    pairs: list[tuple[int, int]] = []
    left: list[Waiting] = []
    for player in players:
        partner = next((other for other in left if not played_last(player, other)), None)
        if partner is None:
            left.append(player)
        else:
            left.remove(partner)
            pairs.append((partner.id, player.id))
    return pairs, [player.id for player in left]
