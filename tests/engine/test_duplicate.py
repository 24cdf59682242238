"""Duplicate: the standings are the sum over rounds of the points lost against the perfect
player, fewest first, the score beside them as the tie-break, a round missed counted as the
round's worst plus a penalty; against hand-worked examples."""

from __future__ import annotations

import pytest

from tournaments.formats.duplicate import (
    MISSED_ROUND_PENALTY,
    DuplicateGame,
    DuplicateStanding,
    standings,
)


def test_standings_over_two_rounds_with_a_round_missed_worked_by_hand():
    # Round 1: 1 lost 12.5 (scored 250), 2 lost 30 (231), 3 lost 12.5 (262).
    # Round 2: 1 lost 20.25 (198), 2 lost 5 (240), 3 did not play: the round's worst, 20.25,
    # plus the penalty of 10 = 30.25, and no score.
    # Totals: 1: 12.5 + 20.25 = 32.75, 448; 2: 30 + 5 = 35, 471; 3: 12.5 + 30.25 = 42.75, 262.
    assert MISSED_ROUND_PENALTY == 10
    games = [
        DuplicateGame(1, 1, 12.5, 250),
        DuplicateGame(2, 1, 30.0, 231),
        DuplicateGame(3, 1, 12.5, 262),
        DuplicateGame(1, 2, 20.25, 198),
        DuplicateGame(2, 2, 5.0, 240),
    ]
    assert standings([1, 2, 3], games) == [
        DuplicateStanding(id=1, rank=1, points_lost=32.75, score=448, rounds=2),
        DuplicateStanding(id=2, rank=2, points_lost=35.0, score=471, rounds=2),
        DuplicateStanding(id=3, rank=3, points_lost=42.75, score=262, rounds=1),
    ]


def test_equal_points_lost_are_parted_by_the_higher_score():
    # Both lost 10 on the same dice by different choices; 2's choices scored more.
    games = [DuplicateGame(1, 1, 10.0, 250), DuplicateGame(2, 1, 10.0, 260)]
    assert [(row.id, row.rank) for row in standings([1, 2], games)] == [(2, 1), (1, 2)]


def test_equal_on_both_share_a_rank_to_the_hundredth_and_the_next_skips():
    # 0.1 + 0.2 is 0.30000000000000004 in floating point: the same 0.3 lost, to the hundredth.
    lost = {(1, 1): 0.1, (1, 2): 0.2, (2, 1): 0.3, (2, 2): 0.0, (3, 1): 1.0, (3, 2): 1.0}
    games = [
        DuplicateGame(player, round, points, 240 if player == 3 else 250)
        for (player, round), points in lost.items()
    ]
    assert [(row.id, row.rank, row.points_lost) for row in standings([3, 2, 1], games)] == [
        (1, 1, 0.3),
        (2, 1, 0.3),
        (3, 3, 2.0),
    ]


def test_missing_a_round_is_never_better_than_playing_it_worst():
    games = [DuplicateGame(1, 1, 80.0, 120), DuplicateGame(2, 1, 3.0, 270)]
    table = standings([1, 2, 3], games)
    assert [row.id for row in table] == [2, 1, 3]
    assert table[2].points_lost == 80.0 + MISSED_ROUND_PENALTY and table[2].rounds == 0


def test_before_any_round_everyone_is_equal_first():
    assert standings([4, 5], []) == [
        DuplicateStanding(4, 1, 0, 0, 0),
        DuplicateStanding(5, 1, 0, 0, 0),
    ]


def test_two_games_of_one_player_in_one_round_are_refused():
    with pytest.raises(ValueError, match="two games in round 1"):
        standings([1], [DuplicateGame(1, 1, 2.0, 200), DuplicateGame(1, 1, 3.0, 210)])
