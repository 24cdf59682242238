"""The daily challenge's game of the day: by the weekday's rule, only while the perfect player
knows it (Yahtzee otherwise), fixed when the day's challenge is made; attempts are played in it
and the page names it."""

from __future__ import annotations

import datetime as dt

import pytest

from daily import services as daily
from daily.models import Challenge
from engine.rulesets import MAXI_YATZY, YAHTZEE, YAHTZEE_NO_BONUS, YATZY
from tests.clients import client_for
from tests.factories import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_background_builds(monkeypatch):
    """Asking whether a table is there starts no solve here."""
    monkeypatch.setattr(daily.advice, "_solve_in_background", lambda *args: None)


# The site's rule, read before tests/conftest.py pins every day to Yahtzee for the other tests.
ROTATION = dict(daily.ROTATION)
SATURDAY = dt.date(2026, 12, 5)
MONDAY = dt.date(2026, 12, 7)


def test_the_rule_gives_yahtzee_most_days_and_yatzy_on_saturdays_when_it_is_known(monkeypatch):
    monkeypatch.setattr(daily, "ROTATION", ROTATION)  # the site's rule (tests pin Yahtzee)
    assert SATURDAY.weekday() == 5
    assert daily.ROTATION[SATURDAY.weekday()] is YATZY
    assert daily.game_of_the_day(MONDAY) is YAHTZEE
    expected = YATZY if daily.advice.is_ready(YATZY) else YAHTZEE
    assert daily.game_of_the_day(SATURDAY) is expected


def test_a_day_of_yatzy_is_played_in_it_and_its_fair_board_counts_points_lost(
    monkeypatch, strategy_tables
):
    today = daily.today()
    monkeypatch.setattr(daily, "ROTATION", {today.weekday(): YATZY})
    assert YATZY in strategy_tables  # the perfect player knows Yatzy: the day is Yatzy
    visitor = client_for("ana")
    visitor.post("/daily/start/")
    challenge = Challenge.objects.get(day=today)
    assert challenge.rules is YATZY
    attempt = play_out(challenge.attempts.get().game)
    assert attempt.rules is YATZY and attempt.status == "finished"
    page = visitor.get("/daily/").text
    assert "Game: Yatzy" in page
    (line,), _own = daily.board(challenge, "loss", "ana")
    assert line.yours and line.loss is not None  # valued by Yatzy's perfect player
    assert "Juego: Yatzy" in visitor.get("/daily/", headers={"Accept-Language": "es"}).text


@pytest.mark.usefixtures("maxi_unsolved")
def test_a_day_whose_game_is_unknown_is_yahtzee_and_a_day_keeps_its_game(monkeypatch):
    monkeypatch.setattr(daily, "ROTATION", {MONDAY.weekday(): MAXI_YATZY})
    assert daily.challenge_of(MONDAY).rules is YAHTZEE
    monkeypatch.setattr(daily, "ROTATION", {SATURDAY.weekday(): YAHTZEE_NO_BONUS})
    made = daily.challenge_of(SATURDAY)
    assert made.rules is YAHTZEE_NO_BONUS
    monkeypatch.setattr(daily, "ROTATION", {})  # the rule changed since: the day did not
    assert daily.challenge_of(SATURDAY).rules is YAHTZEE_NO_BONUS
    assert daily.challenge_of(SATURDAY).seed == made.seed
