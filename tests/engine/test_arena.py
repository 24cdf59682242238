"""Arena: a game's points with streaks and berserk (Lichess's rules) against hand-worked
sequences, and pairing the waiting players: nobody twice, never the last opponent, as many pairs
as the rule allows, close in rank."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.arena import (
    DRAW,
    LOSS,
    WIN,
    ArenaGame,
    Waiting,
    game_points,
    on_fire,
    pair_waiting,
)

W, D, L = ArenaGame(WIN), ArenaGame(DRAW), ArenaGame(LOSS)
BERSERK_WIN = ArenaGame(WIN, berserk=True)


def test_a_win_scores_two_a_draw_one_a_loss_nothing():
    assert game_points([W, D, L, D, W]) == [2, 1, 0, 1, 2]


def test_a_season_with_two_streaks_and_a_berserk_win_worked_by_hand():
    # game:         1  2  3  4  5  6  7  8  9  10 11 12
    # result:       W  W  W  D  W  W  L  W  W  Wb W  L
    # on fire:      -  -  y  y  -  -  y  -  -  y  y  y   (after two wins in a row)
    # points:       2  2  4  2  2  2  0  2  2  4+1 4 0   = 27
    games = [W, W, W, D, W, W, L, W, W, BERSERK_WIN, W, L]
    points = game_points(games)
    assert points == [2, 2, 4, 2, 2, 2, 0, 2, 2, 5, 4, 0]
    assert sum(points) == 27


@pytest.mark.parametrize(
    ("games", "points"),
    [
        ([BERSERK_WIN], [3]),  # berserk adds one to a win
        ([ArenaGame(DRAW, berserk=True)], [1]),  # and nothing to a draw
        ([ArenaGame(LOSS, berserk=True)], [0]),  # or a loss
        ([W, W, BERSERK_WIN], [2, 2, 5]),  # on fire the win doubles, the berserk point does not
        ([W, W, D, W], [2, 2, 2, 2]),  # a draw on fire counts double and puts the fire out
        ([W, L, W, W, W], [2, 0, 2, 2, 4]),  # a loss resets the count
        ([], []),
    ],
)
def test_streaks_and_berserk(games, points):
    assert game_points(games) == points


@pytest.mark.parametrize(
    ("games", "fire"),
    [([], False), ([W], False), ([W, W], True), ([L, W, W], True), ([W, W, D], False)],
)
def test_on_fire_after_two_wins_in_a_row_until_a_game_is_not_won(games, fire):
    assert on_fire(games) is fire
    assert game_points([*games, W])[-1] == (4 if fire else 2)


def test_a_result_that_is_not_a_win_a_draw_or_a_loss_is_refused():
    with pytest.raises(ValueError, match="1, 0.5 or 0"):
        game_points([ArenaGame(0.75)])


def test_waiting_players_meet_their_neighbours_in_rank():
    waiting = [Waiting(id=10 + rank, rank=rank, last_opponent=None) for rank in (4, 1, 6, 2, 5, 3)]
    assert pair_waiting(waiting) == ([(11, 12), (13, 14), (15, 16)], [])


@pytest.mark.parametrize("met", [(1, 2), (3, 4)])
def test_two_who_just_met_are_paired_across_worked_by_hand(met):
    # Ranks 1 and 2 (or 3 and 4) just played. 1-3 and 2-4 (gaps 2 and 2, squares 4 + 4 = 8)
    # beats 1-4 and 2-3 (gaps 3 and 1, squares 9 + 1 = 10): nobody meets a player far away.
    last = {met[0]: met[1], met[1]: met[0]}
    waiting = [Waiting(rank, rank, last.get(rank)) for rank in (1, 2, 3, 4)]
    assert pair_waiting(waiting) == ([(1, 3), (2, 4)], [])


def test_one_side_of_a_last_game_is_enough_to_keep_them_apart():
    # 2 has played someone since, but 1's last game was against 2: 1-2 is out; of 2-3 (gap 1)
    # and 1-3 (gap 2), 2-3; 1 waits.
    waiting = [Waiting(1, 1, 2), Waiting(2, 2, 9), Waiting(3, 3, None)]
    assert pair_waiting(waiting) == ([(2, 3)], [1])


def test_players_the_search_window_leaves_apart_still_meet_worked_by_hand():
    # 1 just played 2 to 7 in turn, and each of them came back to wait (their last opponent: 1).
    # Within six places of 1 there is nobody 1 may meet; 2-3, 4-5 and 6-7 pair, and 1 meets 8,
    # far below, rather than wait: every player in a game.
    waiting = [Waiting(1, 1, 7), *(Waiting(n, n, 1) for n in range(2, 8)), Waiting(8, 20, None)]
    assert pair_waiting(waiting) == ([(1, 8), (2, 3), (4, 5), (6, 7)], [])


def test_two_alone_who_just_met_wait_rather_than_meet_again():
    assert pair_waiting([Waiting(5, 1, 6), Waiting(6, 2, 5)]) == ([], [5, 6])


def test_nobody_and_one_player_are_left_waiting():
    assert pair_waiting([]) == ([], [])
    assert pair_waiting([Waiting(1, 3, None)]) == ([], [1])


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        pair_waiting([Waiting(1, 1, None), Waiting(1, 2, None)])


@st.composite
def waiting_rooms(draw, most=40):
    """Waiting players with distinct ids, any ranks (ties too), and last opponents among
    themselves, among players not waiting, or none."""
    count = draw(st.integers(0, most))
    ids = draw(st.lists(st.integers(1, 500), min_size=count, max_size=count, unique=True))
    others = st.one_of(st.none(), st.sampled_from(ids), st.integers(501, 510)) if ids else st.none()
    return [Waiting(id, draw(st.integers(1, 60)), draw(others)) for id in ids]


def just_met(a: Waiting, b: Waiting) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def check_pairing(waiting, pairs, left):
    """What every answer must be: each player once, never the last opponent, and no two of those
    left waiting who could have met."""
    by_id = {player.id: player for player in waiting}
    seen = [id for pair in pairs for id in pair] + left
    assert sorted(seen) == sorted(by_id)
    assert not any(just_met(by_id[a], by_id[b]) for a, b in pairs)
    assert all(just_met(by_id[a], by_id[b]) for a, b in itertools.combinations(left, 2))


@settings(max_examples=300, deadline=None)
@given(waiting_rooms())
def test_every_waiting_player_is_paired_once_or_left_never_with_the_last_opponent(waiting):
    pairs, left = pair_waiting(waiting)
    check_pairing(waiting, pairs, left)


def best_by_hand(waiting):
    """Every way to pair ``waiting``: the most pairs, then the least sum of squared rank gaps."""

    def pairings(players):
        if len(players) < 2:
            yield []
            return
        first, rest = players[0], players[1:]
        yield from pairings(rest)  # first waits
        for index, other in enumerate(rest):
            if not just_met(first, other):
                for more in pairings(rest[:index] + rest[index + 1 :]):
                    yield [(first, other), *more]

    return min(
        (-len(pairing), sum((a.rank - b.rank) ** 2 for a, b in pairing))
        for pairing in pairings(list(waiting))
    )


@settings(max_examples=200, deadline=None)
@given(waiting_rooms(most=8))
def test_a_small_room_gets_the_most_pairs_and_the_closest_of_any_pairing(waiting):
    pairs, left = pair_waiting(waiting)
    rank = {player.id: player.rank for player in waiting}
    got = (-len(pairs), sum((rank[a] - rank[b]) ** 2 for a, b in pairs))
    assert got == best_by_hand(waiting)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 200))
def test_a_room_where_nobody_just_met_pairs_neighbours_all_the_way_down(count):
    waiting = [Waiting(id=1000 - rank, rank=rank, last_opponent=None) for rank in range(count)]
    pairs, left = pair_waiting(waiting)
    assert all(
        abs(rank_a - rank_b) == 1 for rank_a, rank_b in ((1000 - a, 1000 - b) for a, b in pairs)
    )
    assert len(pairs) == count // 2 and len(left) == count % 2
