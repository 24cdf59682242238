"""Swiss: pairing rounds by the Dutch system's core, whole tournaments simulated with random
results (no two players meet twice while any pairing avoids it, nobody paired twice in a round,
everyone paired or given the computer, the computer once a player while avoidable), and the
standings and tie-breaks against hand-worked examples."""

from __future__ import annotations

import random

import networkx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.swiss import (
    SwissPlayer,
    SwissResult,
    SwissStanding,
    match_result,
    pair_round,
    standings,
)


def field(count: int) -> list[SwissPlayer]:
    """``count`` new players, 1 the highest rated."""
    return [SwissPlayer(n, 0, 2000 - 10 * n, frozenset()) for n in range(1, count + 1)]


def test_the_first_round_pairs_the_top_half_against_the_bottom_half():
    assert pair_round(field(8)) == ([(1, 5), (2, 6), (3, 7), (4, 8)], None)


def test_an_odd_field_gives_the_lowest_the_computer():
    assert pair_round(field(5)) == ([(1, 3), (2, 4)], 5)


def test_the_second_round_pairs_within_each_score_group_worked_by_hand():
    # Round 1: 1 beat 5, 2 beat 6, 7 beat 3, 8 beat 4.
    # One point: 1, 2, 7, 8 (rating order): S1 = 1, 2; S2 = 7, 8: 1-7, 2-8.
    # No point: 3, 4, 5, 6: S1 = 3, 4; S2 = 5, 6: 3-5, 4-6 (none of them met).
    met = {1: 5, 5: 1, 2: 6, 6: 2, 7: 3, 3: 7, 8: 4, 4: 8}
    won = {1, 2, 7, 8}
    players = [
        SwissPlayer(n, 1.0 if n in won else 0.0, 2000 - 10 * n, frozenset({met[n]}))
        for n in range(1, 9)
    ]
    assert pair_round(players) == ([(1, 7), (2, 8), (3, 5), (4, 6)], None)


def test_a_group_that_cannot_pair_floats_down_worked_by_hand():
    # Round 1: 1 beat 4, 2 drew with 5, 3 beat 6. Groups: 1, 3 (one point); 2, 5 (a half, but
    # they met); 4, 6 (none). 1-3; 2 floats down to the top of the next group, 4; 5 meets 6.
    met = {1: 4, 4: 1, 2: 5, 5: 2, 3: 6, 6: 3}
    points = {1: 1.0, 3: 1.0, 2: 0.5, 5: 0.5, 4: 0.0, 6: 0.0}
    players = [SwissPlayer(n, points[n], 2000 - 10 * n, frozenset({met[n]})) for n in range(1, 7)]
    assert pair_round(players) == ([(1, 3), (2, 4), (5, 6)], None)


def test_the_computer_goes_to_the_lowest_who_has_not_had_it_worked_by_hand():
    # Round 1: 1 beat 3, 4 beat 2, 5 beat the computer. One point: 1, 4, 5; none: 2, 3.
    # The computer: 3 (the lowest; 5 had it). Then 1-4 (S1 = 1, S2 = 4, 5) and 5 floats to 2.
    players = [
        SwissPlayer(1, 1.0, 1990, frozenset({3})),
        SwissPlayer(2, 0.0, 1980, frozenset({4})),
        SwissPlayer(3, 0.0, 1970, frozenset({1})),
        SwissPlayer(4, 1.0, 1960, frozenset({2})),
        SwissPlayer(5, 1.0, 1950, frozenset(), had_computer=True),
    ]
    assert pair_round(players) == ([(1, 4), (5, 2)], 3)


def test_the_computer_passes_over_a_player_whose_absence_would_force_a_rematch():
    # 1 (joined first) has met 2, 3 and 4. Were 5, the lowest, at the computer, 1 would have
    # nobody left to meet; so the computer goes to 4, the next lowest, and 1 meets 5.
    players = [
        SwissPlayer(1, 3.0, 1990, frozenset({2, 3, 4})),
        SwissPlayer(2, 1.0, 1980, frozenset({1})),
        SwissPlayer(3, 1.0, 1970, frozenset({1})),
        SwissPlayer(4, 0.0, 1960, frozenset({1})),
        SwissPlayer(5, 0.0, 1950, frozenset()),
    ]
    assert pair_round(players) == ([(1, 5), (2, 3)], 4)


def test_when_every_pairing_repeats_one_the_fewest_rematches():
    # 1 has met 2 and 4, and 2 has met 4: every pairing of the four repeats one game. Of the
    # three, the one that pairs equal points: 2-3 (one point each), and 1 meets 4 again.
    players = [
        SwissPlayer(1, 2.0, 1990, frozenset({2, 4})),
        SwissPlayer(2, 1.0, 1980, frozenset({1, 4})),
        SwissPlayer(3, 1.0, 1970, frozenset()),
        SwissPlayer(4, 0.0, 1960, frozenset({1, 2})),
    ]
    assert pair_round(players) == ([(1, 4), (2, 3)], None)


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        pair_round([*field(2), field(1)[0]])


def repeat_free_exists(players: list[SwissPlayer], computer_for: set[int]) -> bool:
    """Whether a round pairs everyone with nobody meeting twice, the computer (for an odd field)
    going to one of ``computer_for``: a perfect matching, found by networkx's blossom, the
    computer a node of its own."""
    graph = networkx.Graph()
    graph.add_nodes_from(player.id for player in players)
    for index, a in enumerate(players):
        for b in players[index + 1 :]:
            if b.id not in a.opponents and a.id not in b.opponents:
                graph.add_edge(a.id, b.id)
    if len(players) % 2:
        graph.add_edges_from(("computer", id) for id in computer_for)
    matching = networkx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == graph.number_of_nodes()


def play_tournament(count: int, seed: int) -> int:
    """Pair and play rounds of ``count`` players with random results until no round can avoid a
    rematch; check every round; return how many rounds were played."""
    chance = random.Random(seed)
    points = dict.fromkeys(range(1, count + 1), 0.0)
    rating = {id: chance.randint(1000, 2200) for id in points}
    met: dict[int, set[int]] = {id: set() for id in points}
    had_computer: set[int] = set()
    rounds = 0
    while True:
        players = [
            SwissPlayer(id, points[id], rating[id], frozenset(met[id]), id in had_computer)
            for id in points
        ]
        if not repeat_free_exists(players, set(points)):
            return rounds
        pairs, computer = pair_round(players)
        seated = [id for pair in pairs for id in pair] + ([computer] if computer else [])
        assert sorted(seated) == sorted(points)  # everyone once, paired or at the computer
        assert (computer is None) == (count % 2 == 0)
        assert not any(b in met[a] for a, b in pairs)  # nobody meets twice
        if repeat_free_exists(players, set(points) - had_computer):
            assert computer not in had_computer  # the computer once a player, while avoidable
        for a, b in pairs:
            assert points[a] >= points[b]  # the higher placed named first
            result = chance.choice((1.0, 0.5, 0.0))
            points[a] += result
            points[b] += 1 - result
            met[a].add(b)
            met[b].add(a)
        if computer:
            had_computer.add(computer)
            points[computer] += chance.choice((1.0, 0.5, 0.0))
        rounds += 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(0, 2**32))
def test_whole_tournaments_pair_every_round_without_a_rematch(count, seed):
    rounds = play_tournament(count, seed)
    assert rounds >= 1


@pytest.mark.parametrize("count", [4, 6, 7, 10, 13])
def test_small_fields_play_as_many_rounds_as_a_round_robin_or_close(count):
    # A round robin has n - 1 rounds for an even n, n for an odd one (each sits out once, here
    # at the computer). Pairing for equal points can paint a Swiss into a corner sooner (six
    # players after three rounds can be left as two triangles), but not by half.
    played = [play_tournament(count, seed) for seed in range(5)]
    assert max(played) == count - 1 + count % 2
    assert min(played) >= count // 2


def test_a_best_of_three_is_won_by_the_one_who_won_more_games():
    assert match_result([1.0, 0.0, 1.0]) == 1.0
    assert match_result([0.0, 0.0]) == 0.0
    assert match_result([1.0, 0.0, 0.5]) == 0.5
    assert match_result([0.5, 0.5, 0.0]) == 0.0
    assert match_result([0.5]) == 0.5


def test_standings_with_a_buchholz_tie_broken_by_sonneborn_berger_worked_by_hand():
    # Round 1: 4 beat 2, 3 drew with 1. Round 2: 4 drew with 3, 2 beat 1. Round 3: 1 beat 4,
    # 2 beat 3.
    # Points:   4: 1 + 0.5 + 0 = 1.5      2: 0 + 1 + 1 = 2
    #           3: 0.5 + 0.5 + 0 = 1      1: 0.5 + 0 + 1 = 1.5
    # Buchholz: 4: 2 + 1 + 1.5 = 4.5      2: 1.5 + 1.5 + 1 = 4
    #           3: 1.5 + 1.5 + 2 = 5      1: 1 + 2 + 1.5 = 4.5
    # S-B:      4: 2 (beat 2) + 0.5 (drew 3) = 2.5            1: 0.5 (drew 3) + 1.5 (beat 4) = 2
    #           2: 1.5 (beat 1) + 1 (beat 3) = 2.5            3: 0.75 + 0.75 (two draws) = 1.5
    # 4 and 1 are equal on points and Buchholz: 4 is above on Sonneborn-Berger.
    results = [
        *both(4, 2, 1.0),
        *both(3, 1, 0.5),
        *both(4, 3, 0.5),
        *both(2, 1, 1.0),
        *both(1, 4, 1.0),
        *both(2, 3, 1.0),
    ]
    assert standings([1, 2, 3, 4], results) == [
        SwissStanding(id=2, rank=1, points=2.0, buchholz=4.0, sonneborn_berger=2.5),
        SwissStanding(id=4, rank=2, points=1.5, buchholz=4.5, sonneborn_berger=2.5),
        SwissStanding(id=1, rank=3, points=1.5, buchholz=4.5, sonneborn_berger=2.0),
        SwissStanding(id=3, rank=4, points=1.0, buchholz=5.0, sonneborn_berger=1.5),
    ]


def test_a_game_against_the_computer_counts_a_virtual_opponent_with_ones_own_points():
    # Round 1: 1 beat 2, 3 beat the computer. Round 2: 3 beat 1, 2 drew with the computer.
    # Points: 1: 1, 2: 0.5, 3: 2.
    # Buchholz: 1: 0.5 (2) + 2 (3) = 2.5; 2: 1 (1) + 0.5 (the computer: 2's own) = 1.5;
    #           3: 2 (the computer: 3's own) + 1 (1) = 3.
    # S-B: 1: 0.5 (beat 2); 2: 0.5 x 0.5 (drew the computer) = 0.25; 3: 2 + 1 = 3.
    results = [
        *both(1, 2, 1.0),
        SwissResult(3, None, 1.0),
        *both(3, 1, 1.0),
        SwissResult(2, None, 0.5),
    ]
    assert standings([1, 2, 3], results) == [
        SwissStanding(id=3, rank=1, points=2.0, buchholz=3.0, sonneborn_berger=3.0),
        SwissStanding(id=1, rank=2, points=1.0, buchholz=2.5, sonneborn_berger=0.5),
        SwissStanding(id=2, rank=3, points=0.5, buchholz=1.5, sonneborn_berger=0.25),
    ]


def test_players_equal_on_all_three_share_a_rank_and_the_next_skips():
    # 1 and 2 drew: 0.5 points, Buchholz 0.5, S-B 0.25 each; 3 has not played.
    assert [(row.id, row.rank) for row in standings([3, 2, 1], both(1, 2, 0.5))] == [
        (1, 1),
        (2, 1),
        (3, 3),
    ]


def both(player: int, opponent: int, result: float) -> list[SwissResult]:
    """A game's two results, one from each side."""
    return [SwissResult(player, opponent, result), SwissResult(opponent, player, 1 - result)]
