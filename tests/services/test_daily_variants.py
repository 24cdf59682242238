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

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_background_builds(monkeypatch):
    """Asking whether a table is there starts no solve here."""
    monkeypatch.setattr(daily.advice, "_solve_in_background", lambda *args: None)


SATURDAY = dt.date(2026, 12, 5)
MONDAY = dt.date(2026, 12, 7)


def test_the_rule_gives_yahtzee_most_days_and_yatzy_on_saturdays_when_it_is_known():
    assert SATURDAY.weekday() == 5
    assert daily.ROTATION[SATURDAY.weekday()] is YATZY
    assert daily.game_of_the_day(MONDAY) is YAHTZEE
    expected = YATZY if daily.advice.is_ready(YATZY) else YAHTZEE
    assert daily.game_of_the_day(SATURDAY) is expected


def test_a_day_whose_game_the_perfect_player_knows_is_played_in_it(monkeypatch):
    today = daily.today()
    # Multiple Yahtzees off has a table here: it stands for a variant of the day that is known.
    monkeypatch.setattr(daily, "ROTATION", {today.weekday(): YAHTZEE_NO_BONUS})
    visitor = client_for("ana")
    visitor.post("/daily/start/")
    challenge = Challenge.objects.get(day=today)
    assert challenge.rules is YAHTZEE_NO_BONUS
    assert challenge.attempts.get().game.rules is YAHTZEE_NO_BONUS
    assert "Game: Yahtzee, multiple Yahtzees off" in visitor.get("/daily/").text
    spanish = visitor.get("/daily/", headers={"Accept-Language": "es"}).text
    assert "Juego: Yahtzee, con los Yahtzees múltiples desactivados" in spanish


def test_a_day_whose_game_is_unknown_is_yahtzee_and_a_day_keeps_its_game(monkeypatch):
    monkeypatch.setattr(daily, "ROTATION", {MONDAY.weekday(): MAXI_YATZY})
    assert daily.challenge_of(MONDAY).rules is YAHTZEE
    monkeypatch.setattr(daily, "ROTATION", {SATURDAY.weekday(): YAHTZEE_NO_BONUS})
    made = daily.challenge_of(SATURDAY)
    assert made.rules is YAHTZEE_NO_BONUS
    monkeypatch.setattr(daily, "ROTATION", {})  # the rule changed since: the day did not
    assert daily.challenge_of(SATURDAY).rules is YAHTZEE_NO_BONUS
    assert daily.challenge_of(SATURDAY).seed == made.seed
