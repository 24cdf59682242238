"""The rating core: Glickman's worked example, the bounds, time, display, ranks, properties."""

from __future__ import annotations

import doctest
import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

import engine.rating
from engine.rating import (
    MASTER,
    PROVISIONAL,
    RANKS,
    SCALE,
    SITE,
    UNRANKED,
    Rating,
    RatingSystem,
    after_game,
    change,
    deviation_now,
    established_until,
    is_provisional,
    rank_of,
    rate,
    shown,
)

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
DAY = timedelta(days=1)
# The paper's system: tau 0.5 and no floor that would lift its opponent's deviation of 30.
PAPER = replace(SITE, tau=0.5, min_deviation=1.0)
# In the paper every rating comes from the period before: exactly one period ago.
PERIOD_AGO = NOW - PAPER.period
PAPER_PLAYER = Rating(1500, 200, 0.06, PERIOD_AGO)
PAPER_GAMES = [
    (Rating(1400, 30, 0.06, PERIOD_AGO), 1),
    (Rating(1550, 100, 0.06, PERIOD_AGO), 0),
    (Rating(1700, 300, 0.06, PERIOD_AGO), 0),
]


def settled(value: float = 1600, *, days_ago: float = 1) -> Rating:
    """A player who has played a lot: deviation at the floor, an ordinary volatility."""
    return Rating(value, 45, 0.06, NOW - days_ago * DAY)


def test_glickmans_worked_example():
    after = rate(PAPER_PLAYER, PAPER_GAMES, NOW, PAPER)
    # The paper rounds mu' to four places (-0.2069) before it converts it to 1464.06; unrounded
    # it is 1464.0507, which other careful implementations print too.
    assert round((after.value - 1500) / SCALE, 4) == -0.2069
    assert after.value == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation / SCALE, 4) == 0.8722
    assert round(after.deviation, 2) == 151.52
    # The paper prints sigma' cut to five places; the converged value is 0.0599960.
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert after.updated_at == NOW


@given(
    phi=st.floats(45 / SCALE, 500 / SCALE),
    v=st.floats(0.05, 200),
    delta=st.floats(-30, 30),
    sigma=st.floats(0.01, 0.1),
    tau=st.floats(0.3, 1.2),
)
def test_the_new_volatility_solves_the_papers_equation_of_step_5(phi, v, delta, sigma, tau):
    # The paper's f, written out again here: sigma' is exp(x / 2) for its root x.
    def f(x: float) -> float:
        ex, a = math.exp(x), math.log(sigma**2)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    system = replace(SITE, tau=tau, tolerance=1e-9)
    root = 2 * math.log(engine.rating._new_volatility(phi, v, delta, sigma, system))
    # The Illinois bracket ends within the tolerance (1e-9) of the root: f changes sign across
    # any wider interval around it.
    assert f(root - 1e-7) > 0 > f(root + 1e-7)


@pytest.mark.parametrize(
    ("opponent", "g", "expected"),
    [((1400, 30), 0.9955, 0.639), ((1550, 100), 0.9531, 0.432), ((1700, 300), 0.7242, 0.303)],
)
def test_the_worked_examples_table_of_step_3(opponent, g, expected):
    value, deviation = opponent
    weight = engine.rating._g(deviation / SCALE)
    assert round(weight, 4) == g
    assert round(engine.rating._expected(0.0, (value - 1500) / SCALE, weight), 3) == expected


def test_the_sites_floor_lifts_the_examples_opponent_of_deviation_30_to_45():
    on_site = replace(SITE, tau=0.5)
    lifted = [(replace(o, deviation=max(o.deviation, 45)), score) for o, score in PAPER_GAMES]
    assert rate(PAPER_PLAYER, PAPER_GAMES, NOW, on_site) == rate(PAPER_PLAYER, lifted, NOW, on_site)
    assert rate(PAPER_PLAYER, PAPER_GAMES, NOW, on_site).value < 1464.0  # less was learnt


def test_a_result_is_the_same_wherever_on_the_scale_it_happens():
    # A Glicko-2 result depends on rating differences only (PyPI's glicko2 2.1.0 fails this:
    # its step 5 uses the player's rating where the paper has the deviation).
    def ten_losses(value: float) -> Rating:
        player, weaker = (
            Rating(value, 60, 0.06, NOW - DAY),
            Rating(value - 600, 60, 0.06, NOW - DAY),
        )
        return rate(player, [(weaker, 0)] * 10, NOW)

    low, high = ten_losses(1500), ten_losses(2200)
    assert high.value - 2200 == pytest.approx(low.value - 1500)
    assert high.volatility == pytest.approx(low.volatility)
    assert high.volatility > 0.06  # ten losses to a far weaker player: less predictable now


def test_a_new_player_starts_as_lichess_does():
    new = Rating()
    assert (new.value, new.deviation, new.volatility, new.updated_at) == (1500, 500, 0.09, None)
    assert shown(new) == "1500?"
    assert rank_of(new) == UNRANKED


def test_a_draw_between_equals_moves_nothing_but_the_deviation():
    a, b = after_game(settled(1700), settled(1700), 0.5, NOW)
    assert a == b
    assert a.value == pytest.approx(1700)
    assert a.deviation == 45  # already at the floor
    new_a, new_b = after_game(Rating(), Rating(), 0.5, NOW)
    assert new_a.value == pytest.approx(1500) and new_b.value == pytest.approx(1500)
    assert new_a.deviation < 500


def test_a_win_mirrors_a_loss():
    a, b = Rating(1550, 120, 0.07, NOW - 3 * DAY), Rating(1480, 300, 0.09, NOW - 40 * DAY)
    a_wins = after_game(a, b, 1, NOW)
    b_loses = after_game(b, a, 0, NOW)
    assert a_wins == b_loses[::-1]
    assert change(a, a_wins[0]).startswith("+") and change(b, a_wins[1]).startswith("-")


def test_between_equally_known_players_the_winner_gains_what_the_loser_loses():
    a, b = Rating(1500, 90, 0.06, NOW - DAY), Rating(1500, 90, 0.06, NOW - DAY)
    winner, loser = after_game(a, b, 1, NOW)
    assert winner.value - 1500 == pytest.approx(1500 - loser.value)
    assert change(a, winner) == "+21" and change(b, loser) == "-21"


def test_a_fresh_profiles_first_loss_gives_its_winner_at_most_20():
    """Two brand-new profiles: Glicko-2 alone would move both by 241 (issue 29's farm)."""
    winner, loser = after_game(Rating(), Rating(), 1, NOW)
    assert (winner.value, loser.value) == (1520, 1480)
    assert change(Rating(), winner) == "+20" and change(Rating(), loser) == "-20"
    assert winner.deviation == pytest.approx(396.69, abs=0.01)  # as Glicko-2 says
    unbounded = replace(SITE, provisional_bound=math.inf)
    free_winner, free_loser = after_game(Rating(), Rating(), 1, NOW, unbounded)
    assert change(Rating(), free_winner) == "+241" and change(Rating(), free_loser) == "-241"
    assert free_winner.deviation == winner.deviation


@pytest.mark.parametrize("bound,rating", [(SITE.provisional_bound, "1700?"), (math.inf, "2163?")])
def test_beating_one_throwaway_profile_after_another_is_bounded(bound, rating):
    farmer = Rating()
    for game in range(10):
        at = NOW + game * 10 * timedelta(minutes=1)
        farmer, _throwaway = after_game(
            farmer, Rating(), 1, at, replace(SITE, provisional_bound=bound)
        )
    assert shown(farmer) == rating


def test_between_provisional_players_the_bound_holds_both_ways():
    a = b = Rating(1500, 200, 0.09, NOW - DAY)
    assert [r.value for r in after_game(a, b, 1, NOW)] == [1520, 1480]
    assert [r.value for r in after_game(a, b, 0, NOW)] == [1480, 1520]
    unbounded = replace(SITE, provisional_bound=math.inf)
    assert [round(r.value, 2) for r in after_game(a, b, 1, NOW, unbounded)] == [1578.71, 1421.29]


def test_against_an_established_opponent_a_newcomer_moves_freely():
    established = Rating(1600, 45, 0.06, NOW - DAY)
    beaten, newcomer = after_game(established, Rating(), 0, NOW)
    assert change(established, beaten) == "-4"  # Glicko-2's own change is under the bound
    assert change(Rating(), newcomer) == "+317"  # the opponent is known: no bound
    won, lost = after_game(established, Rating(), 1, NOW)
    assert (change(established, won), change(Rating(), lost)) == ("+3", "-179")


def test_an_opponent_long_away_is_provisional_again_and_bounded():
    away = Rating(1500, 45, 0.06, NOW - 3 * 365 * DAY)
    player = Rating(1500, 150, 0.09, NOW - DAY)
    assert is_provisional(away, NOW)
    assert after_game(player, away, 1, NOW)[0].value == 1520
    unbounded = replace(SITE, provisional_bound=math.inf)
    assert round(after_game(player, away, 1, NOW, unbounded)[0].value, 2) == 1550.12


def test_both_players_are_rated_from_the_ratings_before_the_game():
    a, b = settled(1500), Rating(1600, 200, 0.09, NOW - 9 * DAY)
    new_a, new_b = after_game(a, b, 0, NOW)
    assert new_a == rate(a, [(b, 0)], NOW)
    assert new_b == rate(b, [(a, 1)], NOW)


def test_a_newcomers_rating_moves_far_more_than_a_veterans():
    veteran, _ = after_game(settled(1500), settled(1500), 1, NOW)
    newcomer, _ = after_game(Rating(), settled(1500), 1, NOW)
    assert 0 < veteran.value - 1500 < 10
    assert newcomer.value - 1500 > 100


def test_results_of_one_batch_count_the_same_in_any_order():
    shuffled = [PAPER_GAMES[2], PAPER_GAMES[0], PAPER_GAMES[1]]
    first, second = rate(PAPER_PLAYER, PAPER_GAMES, NOW), rate(PAPER_PLAYER, shuffled, NOW)
    assert first.value == pytest.approx(second.value)
    assert first.deviation == pytest.approx(second.deviation)


def test_the_deviation_never_falls_below_the_floor():
    player, opponent = Rating(), settled(1500)
    for minute in range(200):
        player = rate(player, [(opponent, minute % 2)], NOW + minute * timedelta(minutes=1))
    assert player.deviation == SITE.min_deviation
    assert 1400 < player.value < 1600


def test_the_deviation_never_rises_above_the_cap():
    assert deviation_now(Rating(1500, 500, 0.1, NOW - 3000 * DAY), NOW) == 500
    assert deviation_now(Rating(1500, 900, 0.09), NOW) == 500  # a stored value out of bounds
    after, _ = after_game(Rating(1500, 900, 0.09), Rating(), 1, NOW)
    assert after.deviation < 500


def test_a_year_away_brings_the_deviation_back_up_but_not_over_the_cap():
    player = settled(1600, days_ago=0)
    month, year = deviation_now(player, NOW + 30 * DAY), deviation_now(player, NOW + 365 * DAY)
    assert 45 < month < year
    assert 100 < year < 500  # from 45 to about 103 with a volatility of 0.06
    assert is_provisional(player, NOW + 3 * 365 * DAY)  # after three years, provisional again
    assert deviation_now(player, NOW + 50 * 365 * DAY) == 500


def test_no_time_no_growth():
    player = settled(1600, days_ago=0)
    assert deviation_now(player, NOW) == 45
    unsure = Rating(1600, 100, 0.06, NOW)
    assert deviation_now(unsure, NOW - 10 * DAY) == 100  # a clock set back shrinks nothing
    assert rate(unsure, [(settled(), 1)], NOW - 10 * DAY).deviation < 100
    assert deviation_now(Rating(1500, 200, 0.09), NOW + 400 * DAY) == 200  # never rated: no time


def test_beating_an_opponent_long_away_counts_for_less():
    active = Rating(1500, 80, 0.06, NOW - DAY)
    away = replace(active, updated_at=NOW - 700 * DAY)
    after_active, _ = after_game(settled(1500), active, 1, NOW)
    after_away, _ = after_game(settled(1500), away, 1, NOW)
    assert 1500 < after_away.value < after_active.value


def test_games_in_quick_succession_do_not_grow_the_deviation_a_whole_period_each():
    player = Rating(1500, 100, 0.06, NOW - 10 * DAY)
    once = rate(player, [(settled(1500), 0.5)], NOW)
    again = rate(once, [(settled(1500), 0.5)], NOW + timedelta(minutes=5))
    assert again.deviation < once.deviation < 100


@pytest.mark.parametrize(
    ("rating", "text"),
    [
        (Rating(1623.4, 60), "1623"),
        (Rating(1623.5, 60), "1624"),  # half up, as people round
        (Rating(1500.5, 60), "1501"),
        (Rating(1623, 110), "1623"),  # provisional only above 110
        (Rating(1623, 110.01), "1623?"),
        (Rating(), "1500?"),
    ],
)
def test_shown(rating, text):
    assert shown(rating) == text


def test_shown_with_the_time_now_marks_a_long_absent_player_provisional():
    player = settled(1800, days_ago=4 * 365)
    assert shown(player) == "1800"
    assert shown(player, NOW) == "1800?"
    assert rank_of(player) != PROVISIONAL and rank_of(player, NOW) == PROVISIONAL


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (400, "Bronze"),
        (1199.4, "Bronze"),
        (1199.5, "Silver"),  # shown as 1200, so Silver
        (1200, "Silver"),
        (1399, "Silver"),
        (1400, "Gold"),
        (1599, "Gold"),
        (1600, "Platinum"),
        (1799, "Platinum"),
        (1800, "Diamond"),
        (1999, "Diamond"),
        (2000, "Master"),
        (3500, "Master"),
    ],
)
def test_rank_thresholds_at_their_edges(value, name):
    assert rank_of(settled(value)).name == name


def test_ranks_while_not_yet_known():
    assert rank_of(Rating()) == UNRANKED
    assert rank_of(Rating(2400, 111, 0.09, NOW)) == PROVISIONAL
    assert rank_of(Rating(2400, 110, 0.09, NOW)) == MASTER


def test_ranks_are_in_order_and_distinct():
    floors = [rank.floor for rank in RANKS[1:]]
    assert floors == sorted(floors) == [1200, 1400, 1600, 1800, 2000]
    assert RANKS[0].floor is None
    assert len({rank.key for rank in (*RANKS, UNRANKED, PROVISIONAL)}) == 8


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        ("Bronze", "Bronce"),
        ("Silver", "Plata"),
        ("Gold", "Oro"),
        ("Platinum", "Platino"),
        ("Diamond", "Diamante"),
        ("Master", "Maestro"),
        ("Provisional", "Provisional"),
        ("Unranked", "Sin clasificar"),
    ],
)
def test_rank_names_in_spanish(english, spanish):
    rank = next(r for r in (*RANKS, UNRANKED, PROVISIONAL) if r.name == english)
    with translation.override("es"):
        assert translation.gettext(rank.name) == spanish


@pytest.mark.parametrize(
    ("before", "after", "text"),
    [
        (1500, 1512, "+12"),
        (1500, 1491, "-9"),
        (1500, 1500.3, "±0"),
        (1500.4, 1512.6, "+13"),  # the difference of the shown numbers 1500 and 1513
        (1500.6, 1499.4, "-2"),
        (1623, 1865, "+242"),
    ],
)
def test_change(before, after, text):
    assert change(Rating(before), Rating(after)) == text


@pytest.mark.parametrize("score", [2, -1, 0.7, 1.0000001, True, "1", None, math.nan])
def test_a_score_outside_win_draw_loss_is_refused(score):
    with pytest.raises(ValueError, match=r"a score must be 1 \(win\), 0.5 \(draw\) or 0 \(loss\)"):
        after_game(Rating(), Rating(), score, NOW)
    with pytest.raises(ValueError, match="a score must be"):
        rate(Rating(), [(Rating(), score)], NOW)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"deviation": -30}, "deviation must be positive"),
        ({"deviation": 0}, "deviation must be positive"),
        ({"deviation": math.nan}, "deviation must be a finite number"),
        ({"deviation": math.inf}, "deviation must be a finite number"),
        ({"value": math.nan}, "value must be a finite number"),
        ({"value": "1500"}, "value must be a number"),
        ({"volatility": 0}, "volatility must be positive"),
        ({"volatility": -math.inf}, "volatility must be a finite number"),
        ({"updated_at": datetime(2026, 1, 1)}, "updated_at must be a timezone-aware datetime"),
        ({"updated_at": "2026-01-01"}, "updated_at must be a timezone-aware datetime"),
    ],
)
def test_a_broken_rating_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        Rating(**fields)


def test_bad_calls_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="now must be a timezone-aware datetime"):
        after_game(Rating(), Rating(), 1, datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="now must be a timezone-aware datetime"):
        deviation_now(Rating(), datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="at least one result"):
        rate(Rating(), [], NOW)
    with pytest.raises(ValueError, match="an opponent must be a Rating"):
        rate(Rating(), [((1500, 350), 1)], NOW)


@pytest.mark.parametrize(
    "fields",
    [
        {"min_deviation": 0},
        {"min_deviation": 600},
        {"max_volatility": math.nan},
        {"max_value": math.inf},
        {"tau": 0},
        {"period": timedelta(0)},
        {"provisional_bound": 0},
        {"provisional_bound": math.nan},
    ],
)
def test_a_broken_system_is_refused(fields):
    with pytest.raises(ValueError, match="bounds must be finite and in order|must be positive"):
        RatingSystem(**fields)


def test_the_docstring_examples_hold():
    outcome = doctest.testmod(engine.rating)
    assert outcome.attempted >= 5
    assert outcome.failed == 0


ratings = st.builds(
    Rating,
    value=st.floats(400, 4000),
    deviation=st.floats(45, 500),
    volatility=st.floats(0.01, 0.1),
    updated_at=st.one_of(
        st.none(), st.floats(0, 3000).map(lambda days: NOW - timedelta(days=days))
    ),
)


@given(ratings, ratings, st.sampled_from([1, 0.5, 0]))
def test_any_game_keeps_ratings_in_bounds_and_the_winner_never_loses(a, b, score):
    new_a, new_b = after_game(a, b, score, NOW)
    for after in (new_a, new_b):
        assert math.isfinite(after.value) and 400 <= after.value <= 4000
        assert 45 <= after.deviation <= 500
        assert 0.01 <= after.volatility <= 0.1
        assert after.updated_at == NOW
    if score == 1:
        assert new_a.value >= a.value and new_b.value <= b.value
    elif score == 0:
        assert new_a.value <= a.value and new_b.value >= b.value
    elif a.value >= b.value:  # a draw never lifts the one rated higher
        assert new_a.value <= a.value + 1e-9


@given(ratings, ratings, st.sampled_from([1, 0.5, 0]), st.floats(-300, 300))
def test_any_game_depends_on_rating_differences_only(a, b, score, shift):
    wide = replace(SITE, min_value=-10_000, max_value=10_000)
    moved = replace(a, value=a.value + shift), replace(b, value=b.value + shift)
    new_a, new_b = after_game(a, b, score, NOW, wide)
    moved_a, moved_b = after_game(*moved, score, NOW, wide)
    assert moved_a.value - shift == pytest.approx(new_a.value, abs=1e-6)
    assert moved_b.value - shift == pytest.approx(new_b.value, abs=1e-6)
    assert moved_a.volatility == pytest.approx(new_a.volatility, rel=1e-6)


@pytest.mark.parametrize("deviation,volatility", [(45, 0.01), (100, 0.06), (110, 0.1), (80, 0.09)])
def test_established_until_is_when_inactivity_makes_a_rating_provisional(deviation, volatility):
    played = datetime(2026, 3, 1, tzinfo=UTC)
    rating = Rating(1700, deviation, volatility, played)
    until = established_until(rating)
    assert not is_provisional(rating, until - timedelta(seconds=1))
    assert is_provisional(rating, until + timedelta(minutes=1))


def test_a_provisional_or_unrated_rating_is_not_established():
    assert established_until(Rating()) is None
    assert established_until(Rating(1700, 111, 0.06, datetime(2026, 3, 1, tzinfo=UTC))) is None
