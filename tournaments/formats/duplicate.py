"""Duplicate: every player plays each round's solo game on the same dice; the standings are the
sum over rounds of the points lost against the perfect player, fewest first.

- A tie on points lost (to the hundredth of a point) is broken by the sum of the scores, highest
  first; equal on both: equal rank.
- A round a player did not play (joined late, left, or did not finish) counts as the worst points
  lost of that round among those who played it, plus ``MISSED_ROUND_PENALTY``, and adds nothing to
  their score: missing a round is never better than playing it badly. A round nobody played counts
  for nobody. ``rounds`` says how many rounds the player did play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MISSED_ROUND_PENALTY = 10.0


@dataclass(frozen=True)
class DuplicateGame:
    """One player's finished game of one round: points lost against the perfect player, score."""

    player: int
    round: int
    points_lost: float
    score: int


@dataclass(frozen=True)
class DuplicateStanding:
    """A player's place: rank, total points lost, total score, rounds played."""

    id: int
    rank: int
    points_lost: float
    score: int
    rounds: int


def standings(ids: Sequence[int], games: Sequence[DuplicateGame]) -> list[DuplicateStanding]:
    """The standings of ``ids`` over every round of ``games``."""
    played: dict[int, dict[int, DuplicateGame]] = {}
    for game in games:
        if game.round in played.setdefault(game.player, {}):
            raise ValueError(f"player {game.player} has two games in round {game.round}")
        played[game.player][game.round] = game
    worst: dict[int, float] = {}
    for game in games:
        worst[game.round] = max(worst.get(game.round, 0.0), game.points_lost)
    rows = []
    for player in ids:
        own = played.get(player, {})
        lost = sum(
            own[number].points_lost if number in own else worst[number] + MISSED_ROUND_PENALTY
            for number in sorted(worst)
        )
        score = sum(game.score for game in own.values())
        rows.append((round(lost, 2), score, len(own), player))
    rows.sort(key=lambda row: (row[0], -row[1], row[3]))
    table: list[DuplicateStanding] = []
    for place, (lost, score, rounds, player) in enumerate(rows, start=1):
        previous = table[-1] if table else None
        same = previous and (previous.points_lost, previous.score) == (lost, score)
        table.append(
            DuplicateStanding(player, previous.rank if same else place, lost, score, rounds)
        )
    return table
