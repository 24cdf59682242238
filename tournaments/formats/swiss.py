"""Swiss: pairing a round (the Dutch system's core) and the standings with their tie-breaks.

Pairing: players with equal points meet, never two who have met; the odd player out plays the
computer instead of a bye (the lowest in the standings who has not played it yet).

Standings: points, then Buchholz (the sum of one's opponents' points), then Sonneborn-Berger (the
sum of the points of the opponents one beat, and half of those one drew with). A game against the
computer counts as a game against a virtual opponent with the player's own final points (FIDE's
tie-break regulations treat an unplayed round so): it adds the player's points to their Buchholz,
and to their Sonneborn-Berger times the result. The computer is never in the standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SwissPlayer:
    """A player to pair: their entry's id, points so far, rating, whom they have met, and whether
    they have played the computer."""

    id: int
    points: float
    rating: float
    opponents: frozenset[int]
    had_computer: bool = False


def standing_order(player: SwissPlayer) -> tuple[float, float, int]:
    """The order players are paired in: most points first, then highest rating."""
    return (-player.points, -player.rating, player.id)


def computer_player(players: Sequence[SwissPlayer]) -> SwissPlayer | None:
    """Who plays the computer this round: None when the players are even; else the lowest in
    the order who has not had it yet (the lowest of all when everyone has)."""
    if len(players) % 2 == 0:
        return None
    ordered = sorted(players, key=standing_order)
    fresh = [player for player in ordered if not player.had_computer]
    return (fresh or ordered)[-1]


def pair_round(players: Sequence[SwissPlayer]) -> tuple[list[tuple[int, int]], int | None]:
    """A round's pairs of ids (the higher placed first), and the id who plays the computer
    (None when the players are even)."""
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    odd = computer_player(players)
    rest = sorted((p for p in players if p is not odd), key=standing_order)
    pairs = match(rest, allow_rematch=False) or match(rest, allow_rematch=True) or []
    return pairs, odd.id if odd else None


def match(ordered: list[SwissPlayer], allow_rematch: bool) -> list[tuple[int, int]] | None:
    """Pairs of everyone in ``ordered`` (an even number), each the first unpaired player with the
    nearest below who fits; backtracking when the rest cannot be paired; None when none fits."""
    budget = [20_000]

    def search(left: list[SwissPlayer]) -> list[tuple[int, int]] | None:
        if not left:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        top, others = left[0], left[1:]
        for index, other in enumerate(others):
            if not allow_rematch and other.id in top.opponents:
                continue
            rest = search(others[:index] + others[index + 1 :])
            if rest is not None:
                return [(top.id, other.id), *rest]
        return None

    return search(ordered)


@dataclass(frozen=True)
class SwissResult:
    """One player's result in one round: 1, 0.5 or 0 against ``opponent`` (None: the computer).
    A match between two players is two results, one from each side."""

    player: int
    opponent: int | None
    result: float


def match_result(games: Sequence[float]) -> float:
    """A match's result from its games' results (best of one or of three): 1 for more games won
    than lost, 0 for fewer, 0.5 for as many."""
    won = sum(1 for game in games if game == 1)
    lost = sum(1 for game in games if game == 0)
    if won > lost:
        return 1.0
    if won < lost:
        return 0.0
    return 0.5


@dataclass(frozen=True)
class SwissStanding:
    """A player's place: rank (equal on all three counts, equal rank), points and tie-breaks."""

    id: int
    rank: int
    points: float
    buchholz: float
    sonneborn_berger: float


def standings(ids: Sequence[int], results: Sequence[SwissResult]) -> list[SwissStanding]:
    """The standings of ``ids``: by points, then Buchholz, then Sonneborn-Berger."""
    points = {player: 0.0 for player in ids}
    for result in results:
        points[result.player] = points.get(result.player, 0.0) + result.result
    buchholz = dict.fromkeys(ids, 0.0)
    berger = dict.fromkeys(ids, 0.0)
    for result in results:
        if result.player not in buchholz:
            continue
        theirs = points.get(result.player if result.opponent is None else result.opponent, 0.0)
        buchholz[result.player] += theirs
        berger[result.player] += theirs * result.result
    ordered = sorted(ids, key=lambda p: (-points[p], -buchholz[p], -berger[p], p))
    table: list[SwissStanding] = []
    for place, player in enumerate(ordered, start=1):
        key = (points[player], buchholz[player], berger[player])
        previous = table[-1] if table else None
        same = previous and (previous.points, previous.buchholz, previous.sonneborn_berger) == key
        table.append(SwissStanding(player, previous.rank if same else place, *key))
    return table
