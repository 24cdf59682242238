"""Diamonds: grants, stakes held in a game's pot, payouts at its end, the ledger and its audit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.utils import timezone

from core.appendonly import AppendOnly
from core.refusals import ActionRefused
from games.models import Game, Seat
from lobby import diamonds
from lobby.models import Challenge, DiamondEntry, Player
from tests.clients import HTMX, online

pytestmark = pytest.mark.django_db


def balances() -> dict[str, int]:
    return dict(Player.objects.values_list("visitor", "diamonds"))


def challenge_for(stake: int):
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    made = ana.post(
        "/online/challenge/", {"player": Player.objects.get(visitor="bo").pk, "stake": stake}
    )
    assert made.status_code == 302, made.text[-2000:]
    return ana, bo


def finished_game(pk: str = "g1") -> Game:
    """A game over: a stake moved into its pot is lost, no longer in play."""
    return Game.objects.create(pk=pk, status=Game.Status.FINISHED)


def audit_ok() -> diamonds.Audit:
    report = diamonds.audit()
    assert report.problems == []
    return report


def test_a_new_profile_gets_the_welcome_grant_once():
    ana = online("ana", "Ana")
    assert balances() == {"ana": 500}
    ana.post("/online/name/", {"name": "Ana Bel"})  # a new name is not a new profile
    assert balances() == {"ana": 500}
    assert list(DiamondEntry.objects.values_list("reason", "amount")) == [("grant", 500)]
    assert "You have 500 diamonds." in ana.get("/online/").text
    assert audit_ok().granted == 500


def test_a_diamond_match_holds_both_stakes_and_pays_the_winner(settings):
    ana, bo = challenge_for(50)
    assert "Ana challenges you for 50 diamonds each" in bo.get("/online/").text
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    game = Game.objects.get()
    assert game.stake == 50 and diamonds.pot(game) == 100
    assert "Diamond match: 50 each, the winner takes 100" in ana.get(f"/game/{game.id}/").text
    assert balances() == {"ana": 450, "bo": 450}
    assert audit_ok().in_play == 100
    # Bo leaves for good and Ana ends the game: Bo's seat loses, Ana takes the pot.
    settings.AWAY_GRACE_SECONDS = 0
    Seat.objects.filter(game=game, visitor="ana").update(
        present_until=timezone.now() + timedelta(seconds=30)
    )
    ended = ana.post(f"/game/{game.id}/leave-out/", {"seat": 1, "end": "1"})
    assert ended.status_code in (200, 302)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and diamonds.pot(game) == 0
    assert balances() == {"ana": 550, "bo": 450}
    assert "You take the pot: 100 diamonds." in ana.get(f"/game/{game.id}/").text
    assert "Ana takes the pot: 100 diamonds." in bo.get(f"/game/{game.id}/").text
    reasons = DiamondEntry.objects.filter(game=game).values_list(
        "player__visitor", "reason", "amount"
    )
    assert sorted(reasons) == [
        ("ana", "stake", -50),
        ("ana", "winnings", 100),
        ("bo", "stake", -50),
    ]
    assert audit_ok().in_play == 0


def test_a_tie_splits_the_pot_and_a_second_payout_pays_nothing():
    ana, bo = challenge_for(100)
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    game = Game.objects.get()
    players = {p.visitor: p for p in Player.objects.all()}
    with transaction.atomic():
        diamonds.settle(game, {players["ana"].pk: 0.5, players["bo"].pk: 0.5})
        diamonds.settle(game, {players["ana"].pk: 1.0, players["bo"].pk: 0.0})
    assert balances() == {"ana": 500, "bo": 500}
    assert DiamondEntry.objects.filter(reason="share").count() == 2


def test_stakes_above_a_balance_are_refused_and_change_nothing():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    bo_id = Player.objects.get(visitor="bo").pk
    with transaction.atomic():  # Ana lost most of hers: today's top-up brings her to 100
        diamonds.move(Player.objects.get(visitor="ana"), -460, "stake", finished_game())
    refused = ana.post("/online/challenge/", {"player": bo_id, "stake": 250}, headers=HTMX)
    assert refused.status_code == 409
    assert "You have 100 diamonds: not enough for a stake of 250." in refused.text
    assert not Challenge.objects.exists()
    # Made while both had enough; Bo's diamonds went before he accepted.
    ana_ok = online("cy", "Cy")
    ana_ok.post("/online/challenge/", {"player": bo_id, "stake": 250})
    with transaction.atomic():
        diamonds.move(Player.objects.get(visitor="bo"), -300, "stake", Game.objects.create(pk="g2"))
    before = balances()
    accept = bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/", headers=HTMX)
    assert accept.status_code == 409 and "not enough for a stake of 250" in accept.text
    assert balances() == before and Challenge.objects.get().status == "pending"
    assert Game.objects.filter(stake__gt=0).count() == 0


@pytest.mark.parametrize("stake", ["7", "-50", "abc", "1e9", "99999999999999999999"])
def test_only_the_stakes_offered_can_be_played_for(stake):
    ana, _bo = online("ana", "Ana"), online("bo", "Bo")
    refused = ana.post(
        "/online/challenge/", {"player": Player.objects.get(visitor="bo").pk, "stake": stake},
        headers=HTMX,
    )  # fmt: skip
    assert refused.status_code == 400 and "Choose one of the stakes offered." in refused.text
    assert not Challenge.objects.exists()


def test_below_the_floor_a_player_is_topped_up_once_a_day(monkeypatch):
    online("ana", "Ana")
    ana = Player.objects.get(visitor="ana")
    with transaction.atomic():
        diamonds.move(ana, -480, "stake", finished_game())
    assert diamonds.balance(ana) == 100 and diamonds.balance(ana) == 100
    with transaction.atomic():
        diamonds.move(ana, -90, "stake", finished_game("g2"))
    assert diamonds.balance(ana) == 10  # already topped up today
    tomorrow = timezone.now() + timedelta(days=1)
    monkeypatch.setattr(timezone, "now", lambda: tomorrow)
    assert diamonds.balance(ana) == 100
    assert DiamondEntry.objects.filter(reason="top_up").count() == 2


def test_a_challenge_without_a_stake_moves_no_diamonds_and_writes_no_row():
    ana, bo = challenge_for(0)
    accepted = bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    assert accepted.status_code == 302
    game = Game.objects.get()
    assert game.stake == 0 and game.status == Game.Status.PLAYING
    assert list(DiamondEntry.objects.values_list("reason", "amount")) == [
        ("grant", 500),
        ("grant", 500),
    ]
    assert "Stake" not in ana.get("/me/").text
    assert audit_ok().in_play == 0


def test_a_stake_in_a_live_pot_still_counts_as_the_players_for_the_top_up(settings):
    """Ana stakes her last 100: while the game is played she holds 0 but is not topped up; once
    she has lost it, she is (once that day)."""
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    with transaction.atomic():  # Ana lost 400 to Bo in an earlier match
        lost = finished_game()
        diamonds.move(Player.objects.get(visitor="ana"), -400, "stake", lost)
        diamonds.move(Player.objects.get(visitor="bo"), 400, "winnings", lost)
    ana.post("/online/challenge/", {"player": Player.objects.get(visitor="bo").pk, "stake": 100})
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    game = Game.objects.get(stake=100)
    assert "You have 0 diamonds." in ana.get("/online/").text
    assert diamonds.balance(Player.objects.get(visitor="ana")) == 0
    assert not DiamondEntry.objects.filter(reason="top_up").exists()
    assert audit_ok().in_play == 200
    # Ana leaves for good and Bo ends the game: her stake is lost, and now she is topped up.
    settings.AWAY_GRACE_SECONDS = 0
    Seat.objects.filter(game=game, visitor="bo").update(
        present_until=timezone.now() + timedelta(seconds=30)
    )
    bo.post(f"/game/{game.id}/leave-out/", {"seat": game.seat_of("ana").position, "end": "1"})
    assert "You have 100 diamonds." in ana.get("/online/").text
    assert balances() == {"ana": 100, "bo": 1000}
    assert list(DiamondEntry.objects.filter(reason="top_up").values_list("amount", flat=True)) == [
        100
    ]
    assert audit_ok().in_play == 0


def test_the_top_up_counts_a_stake_in_play_as_held():
    online("ana", "Ana")
    ana = Player.objects.get(visitor="ana")
    with transaction.atomic():
        diamonds.move(ana, -450, "stake", finished_game())  # lost: 50 left
        diamonds.move(ana, -10, "stake", Game.objects.create(pk="live"))  # 10 in play, 40 held
    assert diamonds.in_play(ana) == 10
    assert diamonds.balance(ana) == 90  # topped up by 50: with the 10 in play, 100
    assert DiamondEntry.objects.get(reason="top_up").amount == 50


def test_the_ledger_is_append_only_and_the_audit_finds_a_mismatch(capsys):
    online("ana", "Ana")
    entry = DiamondEntry.objects.get()
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        DiamondEntry.objects.update(amount=1)
    with pytest.raises(AppendOnly):
        DiamondEntry.objects.all().delete()
    call_command("diamonds", "audit")
    assert "the ledger and the balances agree" in capsys.readouterr().out
    Player.objects.filter(visitor="ana").update(diamonds=10_000)  # changed behind the ledger
    with pytest.raises(CommandError):
        call_command("diamonds", "audit")
    err = capsys.readouterr().err
    assert "balance 10000, ledger 500" in err and "!= granted 500" in err


@pytest.mark.django_db(transaction=True)  # no test transaction around it: as in production
def test_diamonds_move_only_inside_a_transaction():
    online("ana", "Ana")
    with pytest.raises(RuntimeError):
        diamonds.move(Player.objects.get(visitor="ana"), 5, "top_up")
    assert balances() == {"ana": 500}


def test_the_profile_shows_the_diamonds_and_their_statement():
    ana, bo = challenge_for(10)
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    page = bo.get("/me/", follow=True).text
    assert "Your diamonds" in page and "Welcome grant" in page and "Stake" in page
    assert '<td class="number">-10</td>' in page and '<td class="number">490</td>' in page
    public = ana.get(bo.get("/me/")["Location"]).text
    assert "Diamonds" in public and "490" in public and "Your diamonds" not in public


@pytest.mark.django_db(transaction=True)  # each thread commits on its own connection
def test_two_challenges_accepted_at_once_cannot_overspend():
    import concurrent.futures

    from django.db import connection

    from lobby import services

    if connection.vendor == "sqlite":
        pytest.skip(
            "the tests' SQLite database is in memory with a shared cache, where a connection "
            "reading a table another one is writing fails at once (SQLITE_LOCKED, no busy wait): "
            "under load that, not the race, decides; the site's file database (WAL) lets readers "
            "read, and PostgreSQL's pass runs this race"
        )
    ana = online("ana", "Ana")
    for visitor, name in (("bo", "Bo"), ("cy", "Cy")):
        challenger = online(visitor, name)
        challenger.post(
            "/online/challenge/", {"player": Player.objects.get(visitor="ana").pk, "stake": 250}
        )
    with transaction.atomic():  # Ana has 300: enough for either challenge, not for both
        diamonds.move(Player.objects.get(visitor="ana"), -200, "stake", Game.objects.create())
    challenges = list(Challenge.objects.values_list("pk", flat=True))

    def accept(pk: int) -> str:
        try:
            services.answer("ana", pk, "accept")
            return "accepted"
        except ActionRefused as refusal:
            return type(refusal).__name__
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = sorted(pool.map(accept, challenges))
    assert answers == ["NotEnough", "accepted"]
    assert balances()["ana"] == 50 and Game.objects.filter(stake=250).count() == 1
    assert audit_ok().in_play == 200 + 500  # the setup's stake and the one match's pot
    assert "Ana" in ana.get("/online/").text


def test_a_challenge_from_a_player_gone_offline_cannot_be_accepted():
    _ana, bo = challenge_for(250)
    Player.objects.filter(visitor="ana").update(online_until=timezone.now())  # Ana went away
    accept = bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/", headers=HTMX)
    assert accept.status_code == 409 and "That player is not online any more." in accept.text
    assert not Game.objects.exists() and balances() == {"ana": 500, "bo": 500}
