"""A challenge offers the pace: live (the default) or at your own pace; a diamond match is live."""

from __future__ import annotations

import pytest

from core.refusals import ActionRefused
from games import clock
from games.models import Game
from lobby import services
from lobby.models import Challenge, Player
from tests.clients import online

pytestmark = pytest.mark.django_db


def bo_id() -> int:
    return Player.objects.get(visitor="bo").pk


def test_a_challenge_at_your_own_pace_starts_a_game_at_your_own_pace_and_its_rematch_too():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    assert ana.post("/online/challenge/", {"player": bo_id(), "pace": "own"}).status_code == 302
    made = Challenge.objects.get()
    assert made.pace == Game.Pace.OWN
    assert "Ana challenges you (at your own pace)" in bo.get("/online/").text
    assert "Waiting for Bo to answer (at your own pace)" in ana.get("/online/").text
    assert bo.post(f"/online/challenge/{made.pk}/accept/").status_code == 302
    game = Game.objects.get()
    assert (game.pace, game.turn_seconds) == (Game.Pace.OWN, clock.OWN_PACE_SECONDS)
    assert game.turn_deadline is not None
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    services.rematch("ana", game)
    services.rematch("bo", game)
    again = Game.objects.exclude(pk=game.pk).get()
    assert (again.pace, again.turn_seconds) == (Game.Pace.OWN, clock.OWN_PACE_SECONDS)


@pytest.mark.parametrize("posted", [{}, {"pace": ""}, {"pace": "live"}])
def test_a_challenge_is_live_unless_chosen_otherwise(posted):
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    ana.post("/online/challenge/", {"player": bo_id()} | posted)
    page = bo.get("/online/").text
    assert "Ana challenges you" in page and "at your own pace)" not in page
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    game = Game.objects.get()
    assert (game.pace, game.turn_seconds, game.turn_deadline) == (Game.Pace.LIVE, None, None)


@pytest.mark.parametrize("pace", ["fast", "OWN", "own pace", "ow\x00n"])
def test_a_pace_not_offered_is_refused_and_changes_nothing(pace):
    ana = online("ana", "Ana")
    online("bo", "Bo")
    refused = ana.post("/online/challenge/", {"player": bo_id(), "pace": pace})
    assert refused.status_code == 400
    assert "Choose a pace: live or at your own pace." in refused.text
    assert not Challenge.objects.exists() and not Game.objects.exists()


def test_a_diamond_match_at_your_own_pace_is_refused_and_changes_nothing():
    ana = online("ana", "Ana")
    online("bo", "Bo")
    before = dict(Player.objects.values_list("visitor", "diamonds"))
    refused = ana.post("/online/challenge/", {"player": bo_id(), "stake": 50, "pace": "own"})
    assert refused.status_code == 400
    assert "A match for diamonds is played live: choose Live or no stake." in refused.text
    assert not Challenge.objects.exists()
    assert dict(Player.objects.values_list("visitor", "diamonds")) == before
    # The same stake, live, is a diamond match as before.
    assert ana.post("/online/challenge/", {"player": bo_id(), "stake": 50}).status_code == 302
    assert Challenge.objects.get().pace == Game.Pace.LIVE


def test_the_service_keeps_the_pace_and_refuses_a_stake_at_your_own_pace():
    online("ana", "Ana")
    online("bo", "Bo")
    with pytest.raises(ActionRefused) as refused:
        services.challenge("ana", bo_id(), stake=50, pace="own")
    assert refused.value.status == 400
    with pytest.raises(ActionRefused):
        services.challenge("ana", bo_id(), pace="later")
    assert not Challenge.objects.exists()
    made = services.challenge("ana", bo_id(), pace="own")
    game = services.answer("bo", made.pk, "accept").game
    assert game.pace == Game.Pace.OWN


def test_the_lobby_offers_the_pace_in_spanish():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    page = ana.get("/online/", headers={"Accept-Language": "es"}).text
    assert "A tu ritmo (un día por turno)" in page and 'value="own"' in page
    ana.post("/online/challenge/", {"player": bo_id(), "pace": "own"})
    spanish = bo.get("/online/", headers={"Accept-Language": "es"}).text
    assert "Ana te reta (a tu ritmo)" in spanish
