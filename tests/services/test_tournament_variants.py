"""A tournament's variant: its arena, Swiss and duplicate games are made in it (the computer's
too); a duplicate (ranked by points lost against the perfect player) and a computer that needs the
perfect player's table are refused for a game the perfect player does not know, and a rated
tournament for any game but Yahtzee, in words, nothing made."""

from __future__ import annotations

import pytest

from core.refusals import ActionRefused
from engine.rulesets import MAXI_YATZY, YAHTZEE, YAHTZEE_NO_BONUS, YATZY, YATZY_IN_ORDER
from games import advice
from games.models import Game
from games.names import look_alike_key
from lobby.models import Player
from tests.factories import play_out
from tournaments import clock, services
from tournaments.models import Tournament, TournamentGame
from tournaments.services import TournamentOptions

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("maxi_unsolved")]

NAMES = {"ana": "Ana", "bo": "Bo", "cy": "Cy"}


@pytest.fixture(autouse=True)
def no_background_builds(monkeypatch):
    """Asking for a table the machine lacks starts no solve here."""
    monkeypatch.setattr(advice, "_solve_in_background", lambda *args: None)


def make(visitors, **options) -> Tournament:
    """A tournament made by the first visitor and joined by all of them."""
    for visitor in visitors:
        Player.objects.create(
            visitor=visitor, name=NAMES[visitor], name_key=look_alike_key(NAMES[visitor])
        )
    made = services.create(visitors[0], TournamentOptions(**({"name": "Friday"} | options)))
    for visitor in visitors:
        services.join(made.pk, visitor)
    return made


def games_of(tournament: Tournament) -> list[Game]:
    ids = TournamentGame.objects.filter(tournament=tournament).values_list("game_id", flat=True)
    return list(Game.objects.filter(pk__in=list(ids)))


def test_an_arena_in_yatzy_plays_yatzy_games():
    made = make(["ana", "bo"], format="arena", minutes=30, rules=YATZY)
    assert Tournament.objects.get().rules is YATZY
    services.start_now(made.pk, "ana")
    (game,) = games_of(made)
    assert game.rules is YATZY


def test_a_swiss_in_order_gives_the_odd_player_the_computer_in_the_same_game():
    made = make(["ana", "bo", "cy"], format="swiss", rounds=1, rules=YATZY_IN_ORDER)
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    games = games_of(made)
    assert len(games) == 2 and {game.rules for game in games} == {YATZY_IN_ORDER}
    against = next(game for game in games if any(seat.bot for seat in game.ordered_seats()))
    # The default computer plays at the club's strength where the table of the game is loaded,
    # and as the beginner, who needs none, while it is not (being built).
    strength = "club" if advice.is_ready(YATZY_IN_ORDER) else "beginner"
    assert [seat.bot for seat in against.ordered_seats()][1] == strength
    for game in games:
        play_out(game)
    clock.advance(made.pk)
    made.refresh_from_db()
    assert made.status == Tournament.Status.FINISHED
    rows = TournamentGame.objects.filter(tournament=made, entry__bot="")
    assert rows.count() == 3 and all(row.result is not None for row in rows)


def test_a_duplicate_of_yahtzee_deals_yahtzee_solo_games():
    made = make(["ana", "bo"], format="duplicate", rounds=1, rules=YAHTZEE)
    services.start_now(made.pk, "ana")
    assert {game.rules for game in games_of(made)} == {YAHTZEE}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"format": "duplicate", "rounds": 3},
            "A duplicate ranks by the points lost against the perfect player, who cannot play "
            "Maxi Yatzy yet: choose another game or format.",
        ),
        (
            {"format": "arena", "minutes": 30, "computer": "optimal"},
            "The computer plays Maxi Yatzy only as the beginner: choose the beginner.",
        ),
        (
            {"format": "arena", "minutes": 30, "rated": True},
            "A rated tournament is played in Yahtzee: choose Yahtzee or unrated.",
        ),
    ],
)
def test_what_maxi_yatzy_cannot_have_is_refused_and_nothing_is_made(options, message):
    assert not advice.offered(MAXI_YATZY)
    Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    with pytest.raises(ActionRefused) as refused:
        services.create("ana", TournamentOptions(name="Big", rules=MAXI_YATZY, **options))
    assert str(refused.value) == message
    assert not Tournament.objects.exists()


def test_the_computer_at_a_strength_needing_a_table_is_not_added_to_a_maxi_arena():
    made = make(["ana"], format="arena", minutes=30, rules=MAXI_YATZY, computer="beginner")
    with pytest.raises(ActionRefused, match="plays Maxi Yatzy only as the beginner"):
        services.add_computer(made.pk, "ana", "club")
    assert not made.entries.filter(bot="club").exists()
    services.add_computer(made.pk, "ana", "beginner")
    assert made.entries.filter(bot="beginner").count() == 1


def test_multiple_yahtzees_off_is_no_tournaments_game():
    Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    with pytest.raises(ActionRefused, match="Multiple Yahtzees are always on"):
        services.create(
            "ana",
            TournamentOptions(name="Old", format="arena", minutes=30, rules=YAHTZEE_NO_BONUS),
        )
