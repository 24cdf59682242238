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
    in a row): such a player waits for the next one to come free rather than meet them again, so
    two players alone in the waiting room who just met stay waiting (the caller may fill a seat
    with the computer). Among the pairings the rule allows: as many pairs as possible, then the
    smallest sum of the squares of the rank gaps between partners (two pairs each two places
    apart rather than one of neighbours and one three apart). Each player is paired with one of
    the ``WINDOW`` nearest in rank, which keeps the search linear in the number waiting (200 players
    in a few milliseconds); players it leaves apart then meet each other when the rule allows.

    >>> pair_waiting([Waiting(7, 1, 8), Waiting(8, 2, 7), Waiting(9, 3, None), Waiting(5, 4, 1)])
    ([(7, 9), (8, 5)], [])
    """
    ordered = sorted(waiting, key=lambda player: (player.rank, player.id))
    if len({player.id for player in ordered}) != len(ordered):
        raise ValueError("a player is waiting twice")
    matched = closest_pairs(ordered, WINDOW)
    paired = {index for pair in matched for index in pair}
    left = [index for index in range(len(ordered)) if index not in paired]
    # Players the window left apart (rare: their near neighbours all just met them) meet each
    # other rather than wait, when the rule allows.
    still: list[int] = []
    for index in left:
        partner = next((o for o in still if not played_last(ordered[o], ordered[index])), None)
        if partner is None:
            still.append(index)
        else:
            still.remove(partner)
            matched.append((partner, index))
    matched.sort()
    return [(ordered[a].id, ordered[b].id) for a, b in matched], [ordered[i].id for i in still]


WINDOW = 6  # how far down the order a player's partner is looked for
UNPAIRED = 1 << 48  # the cost of leaving a player waiting: more than any sum of squared gaps


def closest_pairs(ordered: Sequence[Waiting], window: int) -> list[tuple[int, int]]:
    """The pairs of indices into ``ordered`` (sorted by rank) that pair the most players, none
    with their last opponent, each within ``window`` places of their partner, with the smallest
    sum of squared rank gaps: a dynamic programme over (place, which of the next places are
    taken)."""
    count = len(ordered)
    # best[mask]: (cost, pairs) of the players from the current place on, where bit k of mask
    # says the player k places ahead is already paired; filled from the last place up. Pairs
    # are a chain (pair, rest) so that adding one copies nothing.
    best: dict[int, tuple[int, Chain]] = {0: (0, None)}
    for place in range(count - 1, -1, -1):
        player = ordered[place]
        reach = min(window, count - 1 - place)
        # (bit of the partner, the cost of the pair) for each partner the rule allows
        partners = [
            (1 << ahead, (ordered[place + ahead].rank - player.rank) ** 2, place + ahead)
            for ahead in range(1, reach + 1)
            if not played_last(player, ordered[place + ahead])
        ]
        options: dict[int, tuple[int, Chain]] = {}
        for mask in range(1 << (reach + 1)):
            if mask & 1:
                options[mask] = best.get(mask >> 1, NOWHERE)
                continue
            cost, pairs = best.get(mask >> 1, NOWHERE)
            choice = (cost + UNPAIRED, pairs)
            for bit, gap, partner in partners:
                if mask & bit:
                    continue
                cost, pairs = best.get((mask | bit) >> 1, NOWHERE)
                if cost + gap < choice[0]:
                    choice = (cost + gap, ((place, partner), pairs))
            options[mask] = choice
        best = options
    found = []
    chain = best[0][1]
    while chain is not None:
        pair, chain = chain
        found.append(pair)
    return found


Chain = tuple[tuple[int, int], "Chain"] | None
NOWHERE: tuple[int, Chain] = (1 << 62, None)  # a state no pairing reaches
