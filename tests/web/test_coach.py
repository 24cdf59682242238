"""The coach: hints, live odds and the post-game analysis, against the strategy engine."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from engine.analysis import THRESHOLDS, analyse, classify
from engine.rules import CATEGORIES
from engine.rulesets import YAHTZEE
from tests.clients import HTMX, client_for
from tests.factories import act, fill_all_but, make_game

pytestmark = pytest.mark.django_db


def test_hint_names_the_best_moves_with_expected_totals(strategy_tables):
    advisor = strategy_tables[YAHTZEE]
    game = make_game()
    act(game, "roll", dice=[5, 5, 5, 5, 5])
    game.refresh_from_db()
    response = client_for().get(f"/game/{game.id}/?hint=1", headers=HTMX)
    assert response.status_code == 200
    assert 'id="coach"' in response.text
    best = advisor.options(game.state().cards[0], (5, 5, 5, 5, 5), 2)[0]
    assert best[0] == ("score", "yahtzee")
    assert f"Score Yahtzee now (50 points): <strong>{best[1]:.1f}</strong>" in response.text
    hint = response.text.split('<ol class="hint">')[1].split("</ol>")[0]
    assert hint.count("<li>") == 3


def test_hint_in_words_for_a_keep(strategy_tables):
    game = fill_all_but(["threes", "chance"])
    act(game, "roll", dice=[3, 3, 3, 1, 6])
    page = client_for().get(f"/game/{game.id}/?hint=1").text
    lines = re.findall(r"<li>([^<]+): <strong>([\d.]+)</strong>", page)
    assert lines[0][0] in {"Keep 3 3 3 and roll", "Keep 3 3 3 6 and roll"}
    values = [float(v) for _, v in lines]
    assert values == sorted(values, reverse=True)


def test_no_hint_button_before_rolling_or_for_a_watcher():
    game = make_game()
    assert "?hint=1" not in client_for().get(f"/game/{game.id}/").text
    act(game, "roll", dice=[1, 2, 3, 4, 6])
    assert "?hint=1" in client_for().get(f"/game/{game.id}/").text
    assert "?hint=1" not in client_for("stranger").get(f"/game/{game.id}/").text


def test_odds_follow_the_held_dice():
    game = make_game()
    act(game, "roll", dice=[1, 2, 3, 4, 6])
    for die in range(4):
        act(game, "hold", die=die, held=True)
    page = client_for().get(f"/game/{game.id}/").text
    exact = 1 - Fraction(5, 6) ** 2  # two rolls of one die; only a 5 completes 1-2-3-4-5
    assert f"Large straight <strong>{float(exact) * 100:.1f}%</strong>" in page
    assert "Small straight <strong>100.0%</strong>" in page


def test_odds_count_the_forced_joker():
    # Sixes and the Yahtzee box filled: five sixes may go in any open lower box, as a joker.
    game = fill_all_but(["large_straight", "small_straight", "full_house", "four_of_a_kind"])
    act(game, "roll", dice=[6, 6, 6, 6, 6])
    for die in range(5):
        act(game, "hold", die=die, held=True)
    page = client_for().get(f"/game/{game.id}/").text
    for box in ("Large straight", "Small straight", "Full house", "Four of a kind"):
        assert f"{box} <strong>100.0%</strong>" in page


def test_odds_of_a_yahtzee_that_must_go_in_its_upper_box():
    # Sixes still open: five sixes must go there, so they make no large straight.
    game = fill_all_but(["sixes", "large_straight"])
    act(game, "roll", dice=[6, 6, 6, 6, 6])
    for die in range(5):
        act(game, "hold", die=die, held=True)
    assert "Large straight <strong>0.0%</strong>" in client_for().get(f"/game/{game.id}/").text


def test_grades_by_points_lost():
    assert [classify(x) for x in (0, 0.99, 1.0, 2.9, 3.0, 7.9, 8.0, 40)] == [
        "fine", "fine", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"
    ]  # fmt: skip
    assert [name for name, _ in THRESHOLDS] == ["fine", "inaccuracy", "mistake", "blunder"]


def test_analysis_finds_a_blunder(strategy_tables):
    advisor = strategy_tables[YAHTZEE]
    # Turn 1: a Yahtzee thrown away in Chance (a blunder); the other turns score their box.
    turns = [((5, 5, 5, 5, 5), "chance")] + [((1, 2, 3, 4, 6), box) for box in CATEGORIES[:-1]]
    game = make_game(turns)
    log = [(a.seat, a.kind, a.payload) for a in game.actions.order_by("seq")]
    result = analyse(log, seats=1, seat=0, rules=YAHTZEE, advisor=advisor)
    assert len(result.decisions) == 13  # one score a turn, no keeps
    first = result.decisions[0]
    assert first.move == ("score", "chance")
    assert first.best == ("score", "yahtzee")
    assert first.grade == "blunder"
    assert result.costliest(1) == [first]
    assert result.final_total == game.state().cards[0].total
    assert abs(result.start_value - 254.5877) < 1e-3
    assert result.total_loss == pytest.approx(sum(d.loss for d in result.decisions))
    page = client_for().get(f"/game/{game.id}/analysis/").text
    assert "The three costliest decisions" in page
    assert "Better: Score Yahtzee now (50 points)" in page
    chart = page[page.index('<svg class="chart"') :]
    assert chart[: chart.index("</svg>")].count("<circle") == 14  # the start and 13 decisions
    assert "<polyline" in page


def test_the_analysis_chart_draws_in_spanish_too(strategy_tables):
    """SVG takes numbers with a point: Spanish writes 36,0 and the browser drew nothing."""
    turns = [((5, 5, 5, 5, 5), "chance")] + [((1, 2, 3, 4, 6), box) for box in CATEGORIES[:-1]]
    game = make_game(turns)
    client = client_for()
    client.cookies["django_language"] = "es"
    page = client.get(f"/game/{game.id}/analysis/").text
    assert "Análisis de la partida" in page
    chart = page.split('<svg class="chart"')[1].split("</svg>")[0]
    coordinates = re.findall(r' (?:cx|cy|x1|x2|y1|y2|y|viewBox)="([^"]*)"', chart)
    assert len(coordinates) > 30
    assert all(re.fullmatch(r"[-\d. ]+", value) for value in coordinates), coordinates
    (points,) = re.findall(r' points="([^"]*)"', chart)  # "x,y x,y ...": the comma is SVG's
    assert re.fullmatch(r"[\d.]+,[\d.]+( [\d.]+,[\d.]+)*", points), points
    # What people read keeps the Spanish comma: the expected score of each point.
    assert re.search(r"<title>\d+,\d</title>", chart)


def test_analysis_of_keeps_uses_the_held_dice(strategy_tables):
    game = make_game()
    act(game, "roll", dice=[6, 6, 6, 1, 2])
    for die in (0, 1, 2):
        act(game, "hold", die=die, held=True)
    act(game, "roll", dice=[6, 3])
    act(game, "score", box="sixes")
    log = [(a.seat, a.kind, a.payload) for a in game.actions.order_by("seq")]
    result = analyse(log, seats=1, seat=0, rules=YAHTZEE, advisor=strategy_tables[YAHTZEE])
    assert [d.move for d in result.decisions] == [("keep", (6, 6, 6)), ("score", "sixes")]
    assert result.decisions[0].rolls_left == 2
    assert result.decisions[1].rolls_left == 1


def test_analysis_waits_for_the_end():
    game = make_game([((1, 2, 3, 4, 6), "chance")])
    response = client_for().get(f"/game/{game.id}/analysis/")
    assert response.status_code == 409
    assert "once it is over" in response.text


@pytest.mark.parametrize("language", ["en", "es"])
def test_hint_leaves_out_keeping_all_five_and_never_shows_a_loss_of_nothing(
    strategy_tables, language
):
    """Keeping 5 5 5 5 5 and rolling none tied with scoring the Yahtzee: the hint said
    "(−0,0)" for it in Spanish (issue 16)."""
    game = make_game()
    act(game, "roll", dice=[5, 5, 5, 5, 5])
    client = client_for()
    client.cookies["django_language"] = language
    page = client.get(f"/game/{game.id}/?hint=1", headers=HTMX).text
    hint = page.split('<ol class="hint">')[1].split("</ol>")[0]
    assert hint.count("<li>") == 3
    assert "5 5 5 5 5" not in hint
    assert not re.search(r"−0[.,]0\)", hint)
    losses = [float(x.replace(",", ".")) for x in re.findall(r"\(−([\d.,]+)\)", hint)]
    assert len(losses) == 2 and all(loss > 0 for loss in losses)
