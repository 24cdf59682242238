"""Swiss: pairing a round (the Dutch system's core) and the standings with their tie-breaks.

Pairing follows the core of FIDE's Dutch system (C.04.3):
- players in pairing order: points, then rating (the pairing number's order);
- absolute criteria: no two players meet twice (C1), and the computer, which stands in for the
  bye, goes at most once to each player (C2) and to the lowest placed who leaves the rest
  pairable; both kept whenever any pairing keeps them (a rematch is avoided before a second
  game against the computer);
- score groups paired from the top: S1 (the top half) against S2 (the bottom half) in order,
  then S2's transpositions and exchanges with S1, then a float down to the next group; the
  completion criterion (C4): a group's pairing must leave the rest of the field pairable, else
  another is tried;
- when the search runs long or no pairing avoids a rematch, a maximum weight matching (Edmonds'
  blossom, networkx) pairs as many who have not met as possible, equal points preferred.
Not followed: colours and everything about them (C3, C10-C13, the colour allocation rules:
dice have no white and black), the float-history criteria (C14-C21: no float twice in a row;
a player carries no float history here), the exact order of exchanges and the minimisation of
the score differences of floaters beyond "nearest group first", and accelerated pairings. The
search is a depth-first one in the Dutch order, not C.04.3's full sequence of candidate
evaluations, so on a rare field two programs may pair a group differently; both are legal.

Standings: points, then Buchholz (the sum of one's opponents' points), then Sonneborn-Berger (the
sum of the points of the opponents one beat, and half of those one drew with). A game against the
computer counts as a game against a virtual opponent with the player's own final points (FIDE's
tie-break regulations treat an unplayed round so): it adds the player's points to their Buchholz,
and to their Sonneborn-Berger times the result. The computer is never in the standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx


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
    """The pairing order: most points first, then highest rating (then id, to be deterministic)."""
    return (-player.points, -player.rating, player.id)


def pair_round(players: Sequence[SwissPlayer]) -> tuple[list[tuple[int, int]], int | None]:
    """A round's pairs of ids (the higher placed first), and the id who plays the computer
    (None when the players are even).

    >>> field = [SwissPlayer(n, 0, 2000 - n, frozenset()) for n in range(1, 8)]
    >>> pair_round(field)
    ([(1, 4), (2, 5), (3, 6)], 7)
    """
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    ordered = sorted(players, key=standing_order)
    odd, fits = computer_player(ordered)
    rest = [player for player in ordered if player is not odd]
    pairs = dutch(rest) if fits else None
    if pairs is None:
        pairs = fewest_rematches(rest)
    return pairs, odd.id if odd else None


def computer_player(ordered: Sequence[SwissPlayer]) -> tuple[SwissPlayer | None, bool]:
    """Who plays the computer, and whether the others can then be paired without a rematch.

    Nobody when the players are even; else the lowest placed who has not played it yet and
    leaves the others a round without a rematch (FIDE's rule for the bye, the computer in its
    place); then the lowest placed who leaves that, even if they had the computer (a rematch is
    the worse of the two); then the lowest who has not had it."""
    if len(ordered) % 2 == 0:
        return None, pairable(ordered)
    upward = list(reversed(ordered))
    fresh = [player for player in upward if not player.had_computer]
    for candidate in (*fresh, *(player for player in upward if player.had_computer)):
        if pairable([player for player in ordered if player is not candidate]):
            return candidate, True
    return (fresh or upward)[0], False


def have_met(a: SwissPlayer, b: SwissPlayer) -> bool:
    """Whether ``a`` and ``b`` played each other already (either side may say so)."""
    return b.id in a.opponents or a.id in b.opponents


def pairable(players: Sequence[SwissPlayer]) -> bool:
    """Whether ``players`` (an even number) can all be paired with nobody meeting twice: a quick
    greedy pairing proves it in the usual case, else a maximum matching decides."""
    if greedy_pairs(players) or greedy_pairs(most_constrained_first(players)):
        return True
    return len(new_pairs_matching(players)) * 2 == len(players)


def greedy_pairs(players: Sequence[SwissPlayer]) -> bool:
    """Whether pairing each player in turn with the first one left they have not met, then
    mending what is left by swapping partners with a pair already made, pairs everyone (True
    proves ``players`` pairable; False proves nothing)."""
    pairs: list[tuple[SwissPlayer, SwissPlayer]] = []
    left = list(players)
    stuck: list[SwissPlayer] = []
    while left:
        top = left.pop(0)
        partner = next((other for other in left if not have_met(top, other)), None)
        if partner is None:
            stuck.append(top)
        else:
            left.remove(partner)
            pairs.append((top, partner))
    while stuck:
        x = stuck.pop()
        mended = next(
            (
                (y, index, new)
                for y in stuck
                for index, (a, b) in enumerate(pairs)
                for new in (((x, a), (y, b)), ((x, b), (y, a)))
                if not any(have_met(*pair) for pair in new)
            ),
            None,
        )
        if mended is None:
            return False
        y, index, new = mended  # x and y take a pair's two players, who part
        stuck.remove(y)
        pairs.pop(index)
        pairs += new
    return True


def most_constrained_first(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """``players`` by how few of the others they may still meet, fewest first."""
    ids = {player.id for player in players}
    return sorted(players, key=lambda player: len(ids) - len(player.opponents & ids))


def new_pairs_matching(players: Sequence[SwissPlayer]) -> set[tuple[int, int]]:
    """A maximum set of pairs of indices into ``players`` who have not met (Edmonds' blossom
    algorithm, networkx's)."""
    graph = networkx.Graph()
    graph.add_nodes_from(range(len(players)))
    # Float weights: networkx checks its answer's optimality, slowly, only for integer ones.
    graph.add_weighted_edges_from(
        (i, j, 1.0)
        for i, a in enumerate(players)
        for j in range(i + 1, len(players))
        if not have_met(a, players[j])
    )
    return {tuple(sorted(pair)) for pair in networkx.max_weight_matching(graph)}


SEARCH_BUDGET = 5_000  # the Dutch search's steps before the matching takes over


def dutch(ordered: Sequence[SwissPlayer]) -> list[tuple[int, int]] | None:
    """The Dutch system's pairs of ``ordered`` (in pairing order, an even number, known to be
    pairable): the highest unpaired player meets, in this order of preference, the top of the
    bottom half of their score group, the rest of that half, the lowest of their own half (an
    exchange), then the highest of the lower groups (a float down); at each new score group the
    rest must still be pairable (C.04.3's completion criterion), else the search goes back. None
    when the budget runs out."""
    budget = [SEARCH_BUDGET]

    def search(left: list[SwissPlayer], points: float | None) -> list[tuple[int, int]] | None:
        if not left:
            return []
        top = left[0]
        if points is not None and top.points != points and not pairable(left):
            return None
        group = [player for player in left if player.points == top.points]
        half = len(group) // 2
        lower = [player for player in left if player.points != top.points]
        for partner in (*group[max(half, 1) :], *reversed(group[1:half]), *lower):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if have_met(top, partner):
                continue
            rest = search([p for p in left[1:] if p is not partner], top.points)
            if rest is not None:
                return [(top.id, partner.id), *rest]
            if budget[0] < 0:
                return None
        return None

    return search(list(ordered), None)


def fewest_rematches(ordered: Sequence[SwissPlayer]) -> list[tuple[int, int]]:
    """Pairs of ``ordered`` when the Dutch search found none: as many pairs of players who have
    not met as possible, equal points preferred (a maximum weight matching), then the rest paired
    in order, rematches only when nothing else pairs everyone."""
    count = len(ordered)
    # A half point's difference outweighs any difference of place: penalties, then weights.
    penalty = {
        (i, j): int(4 * abs(a.points - ordered[j].points)) * count + (j - i)
        for i, a in enumerate(ordered)
        for j in range(i + 1, count)
        if not have_met(a, ordered[j])
    }
    most = max(penalty.values(), default=0) + 1
    graph = networkx.Graph()
    graph.add_nodes_from(range(count))
    graph.add_weighted_edges_from((i, j, float(most - cost)) for (i, j), cost in penalty.items())
    matched = networkx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted(tuple(sorted(pair)) for pair in matched)
    paired = {index for pair in pairs for index in pair}
    left = [index for index in range(count) if index not in paired]
    pairs += list(zip(left[::2], left[1::2], strict=True))
    return [(ordered[i].id, ordered[j].id) for i, j in sorted(pairs)]


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
