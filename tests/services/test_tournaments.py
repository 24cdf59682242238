"""Tournaments: making, joining and leaving, each refusal with its reason; fees in the ledger."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.refusals import ActionRefused
from games.names import look_alike_key
from groups.models import Group, Membership
from lobby import diamonds
from lobby.models import DiamondEntry, Player
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.services import TournamentOptions
from tournaments.standings import standings

pytestmark = pytest.mark.django_db


def profile(visitor: str, name: str, grant: bool = True) -> Player:
    player = Player.objects.create(visitor=visitor, name=name, name_key=look_alike_key(name))
    if grant:
        diamonds.welcome(player)
    return player


def arena(**options) -> TournamentOptions:
    return TournamentOptions(**({"name": "Friday", "format": "arena", "minutes": 30} | options))


def audit_ok() -> diamonds.Audit:
    report = diamonds.audit()
    assert report.problems == []
    return report


def refusal(call, *args) -> ActionRefused:
    with pytest.raises(ActionRefused) as refused:
        call(*args)
    return refused.value


@pytest.mark.parametrize(
    ("options", "status", "words"),
    [
        ({"starts_at": timezone.now() - timedelta(hours=1)}, 400, "in the past"),
        ({"minutes": 5}, 400, "An arena lasts 10 to 240 minutes."),
        ({"minutes": None}, 400, "An arena lasts"),
        ({"format": "swiss", "rounds": 0}, 400, "Choose 1 to 15 rounds."),
        ({"format": "duplicate", "rounds": 16}, 400, "Choose 1 to 15 rounds."),
        ({"turn_seconds": 45}, 400, "30, 60 or 120 seconds"),
        ({"entry_fee": -5}, 400, "whole number of diamonds"),
        ({"entry_fee": 2.5}, 400, "whole number of diamonds"),
        ({"entry_fee": True}, 400, "whole number of diamonds"),
        ({"group_id": "nope"}, 403, "only for a group you are in"),
        ({"name": "  "}, 400, "Give the tournament a name"),
        ({"format": "knockout"}, 400, "Choose arena, Swiss or duplicate."),
        ({"capacity": 1}, 400, "takes 2 to 200 players"),
        ({"computer": "grandmaster"}, 400, "strengths offered"),
        ({"format": "swiss", "rounds": 3, "best_of": 2}, 400, "best of one or of three"),
    ],
)
def test_making_a_tournament_refuses_bad_options_with_a_reason(options, status, words):
    profile("ana", "Ana")
    refused = refusal(services.create, "ana", arena(**options))
    assert refused.status == status
    assert words in str(refused)
    assert not Tournament.objects.exists()


def test_a_tournament_is_made_by_a_profile_and_starts_after_a_short_wait():
    profile("ana", "Ana")
    made = services.create("ana", arena(name="  Friday   night "))
    assert made.name == "Friday night" and made.status == Tournament.Status.UPCOMING
    assert timezone.now() < made.starts_at <= timezone.now() + services.JOIN_WINDOW
    assert refusal(services.create, "nobody", arena()).status == 403


def test_a_groups_tournament_takes_its_members_only():
    ana, bo = profile("ana", "Ana"), profile("bo", "Bo")
    profile("cy", "Cy")
    group = Group.objects.create(name="Club", owner=ana)
    Membership.objects.create(group=group, player=ana)
    Membership.objects.create(group=group, player=bo)
    made = services.create("ana", arena(group_id=group.pk))
    assert services.join(made.pk, "bo").status == Entry.Status.ACTIVE
    refused = refusal(services.join, made.pk, "cy")
    assert refused.status == 403 and "group's members only" in str(refused)


def test_joining_twice_a_full_or_finished_tournament_is_refused():
    for visitor, name in (("ana", "Ana"), ("bo", "Bo"), ("cy", "Cy")):
        profile(visitor, name)
    made = services.create("ana", arena(capacity=2))
    services.join(made.pk, "ana")
    assert "already" in str(refusal(services.join, made.pk, "ana"))
    services.join(made.pk, "bo")
    full = refusal(services.join, made.pk, "cy")
    assert full.status == 409 and str(full) == "This tournament is full."
    Tournament.objects.filter(pk=made.pk).update(status=Tournament.Status.FINISHED)
    Entry.objects.filter(player__visitor="bo").update(status=Entry.Status.LEFT)
    assert str(refusal(services.join, made.pk, "cy")) == "This tournament is over."
    Tournament.objects.filter(pk=made.pk).update(
        status=Tournament.Status.RUNNING, ends_at=timezone.now()
    )  # an arena's time is up, its last games being played out
    assert str(refusal(services.join, made.pk, "cy")) == "This tournament is over."
    assert refusal(services.join, "no-such", "cy").status == 404


def test_a_swiss_takes_nobody_new_once_half_its_rounds_have_started():
    profile("ana", "Ana"), profile("bo", "Bo")
    made = services.create("ana", arena(format="swiss", minutes=None, rounds=4))
    Tournament.objects.filter(pk=made.pk).update(status=Tournament.Status.RUNNING, round=2)
    assert services.join(made.pk, "ana")  # the second of four: still open
    Tournament.objects.filter(pk=made.pk).update(round=3)
    assert "Half the rounds" in str(refusal(services.join, made.pk, "bo"))


def test_the_entry_fee_goes_into_the_pot_and_back_when_leaving_before_the_start():
    profile("ana", "Ana"), profile("bo", "Bo")
    made = services.create("ana", arena(entry_fee=120))
    services.join(made.pk, "bo")
    assert Player.objects.get(visitor="bo").diamonds == 380
    assert diamonds.named_pot(services.pot_name(made)) == 120
    assert audit_ok().in_play == 120
    services.leave(made.pk, "bo")
    assert Player.objects.get(visitor="bo").diamonds == 500
    assert diamonds.named_pot(services.pot_name(made)) == 0
    assert "not in this tournament" in str(refusal(services.leave, made.pk, "bo"))
    services.join(made.pk, "bo")  # joining again pays again, and leaving gives it back again
    services.leave(made.pk, "bo")
    reasons = list(
        DiamondEntry.objects.filter(player__visitor="bo")
        .order_by("id")
        .values_list("reason", "amount")
    )
    assert reasons == [
        ("grant", 500),
        ("entry", -120),
        ("refund", 120),
        ("entry", -120),
        ("refund", 120),
    ]
    assert audit_ok().in_play == 0


def test_an_entry_fee_above_the_balance_is_refused_and_nothing_moves():
    profile("ana", "Ana"), profile("bo", "Bo")
    made = services.create("ana", arena(entry_fee=600))
    refused = refusal(services.join, made.pk, "bo")
    assert refused.status == 409
    assert str(refused) == "You have 500 diamonds: not enough for the entry fee of 600."
    assert not Entry.objects.exists() and Player.objects.get(visitor="bo").diamonds == 500


def test_standings_list_every_entry_with_the_computer_marked():
    profile("ana", "Ana"), profile("bo", "Bo")
    made = services.create("ana", arena())
    services.join(made.pk, "bo")
    services.join(made.pk, "ana")
    services.add_computer(made.pk, "ana", "beginner")
    assert refusal(services.add_computer, made.pk, "bo", "beginner").status == 403
    rows = standings(made)
    assert [(row.rank, row.name, row.points, row.computer) for row in rows] == [
        (1, "Bo", 0.0, False),
        (1, "Ana", 0.0, False),
        (1, "Computer (beginner)", 0.0, True),
    ]


def test_a_players_statement_names_the_fee_and_its_refund():
    from tests.clients import online

    bo = online("bo", "Bo")
    profile("ana", "Ana")
    made = services.create("ana", arena(entry_fee=30))
    services.join(made.pk, "bo")
    services.leave(made.pk, "bo")
    page = bo.get("/me/", follow=True).text
    assert "Tournament entry fee" in page and "Entry fee given back" in page
    spanish = bo.get("/me/", follow=True, headers={"Accept-Language": "es"}).text
    assert "Inscripción a un torneo" in spanish and "Inscripción devuelta" in spanish


def test_a_fee_in_a_pot_counts_as_the_players_for_the_daily_top_up():
    profile("ana", "Ana"), profile("bo", "Bo")
    made = services.create("ana", arena(entry_fee=450))
    services.join(made.pk, "bo")
    bo = Player.objects.get(visitor="bo")
    assert diamonds.balance(bo) == 50  # 450 in the pot: not short of the floor
    services.leave(made.pk, "bo")
    assert Player.objects.get(visitor="bo").diamonds == 500
    assert audit_ok().granted == 1000


def test_the_audit_finds_diamonds_left_in_the_pot_of_a_tournament_that_is_over():
    from django.db import transaction

    profile("ana", "Ana"), profile("bo", "Bo")
    made = services.create("ana", arena(entry_fee=40))
    services.join(made.pk, "bo")
    assert audit_ok().in_play == 40
    Tournament.objects.filter(pk=made.pk).update(status=Tournament.Status.FINISHED)
    assert diamonds.audit().problems == [f"tournament:{made.pk}: over with 40 left in its pot"]
    with transaction.atomic():  # what the end does: the pot goes out
        diamonds.move(Player.objects.get(visitor="bo"), 40, "prize", pot=services.pot_name(made))
    assert audit_ok().in_play == 0


def test_pausing_berserk_the_computer_and_starting_refuse_with_reasons():
    profile("ana", "Ana"), profile("bo", "Bo")
    swiss = services.create("ana", arena(format="swiss", minutes=None, rounds=3))
    services.join(swiss.pk, "bo")
    assert "Only an arena can be paused" in str(refusal(services.pause, swiss.pk, "bo"))
    made = services.create("ana", arena())
    assert "not in this tournament" in str(refusal(services.pause, made.pk, "bo"))
    services.join(made.pk, "bo")
    assert "not paused" in str(refusal(services.come_back, made.pk, "bo"))
    assert "has no berserk" in str(refusal(services.go_berserk, made.pk, "bo"))
    wild = services.create("ana", arena(berserk=True))
    services.join(wild.pk, "bo")
    assert "no game under way" in str(refusal(services.go_berserk, wild.pk, "bo"))
    assert "strengths offered" in str(refusal(services.add_computer, made.pk, "ana", "grand"))
    assert refusal(services.start_now, made.pk, "bo").status == 403
    assert refusal(services.go_berserk, "no-such", "bo").status == 404
    Tournament.objects.filter(pk=made.pk).update(status=Tournament.Status.RUNNING)
    assert "started already" in str(refusal(services.start_now, made.pk, "ana"))
    Tournament.objects.filter(pk=made.pk).update(status=Tournament.Status.FINISHED)
    for call, args in (
        (services.pause, ("bo",)),
        (services.come_back, ("bo",)),
        (services.add_computer, ("ana", "beginner")),
    ):
        assert str(refusal(call, made.pk, *args)) == "This tournament is over."


@pytest.mark.parametrize(
    ("places", "pot", "paid"),
    [
        ([(1, 10), (2, 11), (3, 12), (4, 13)], 100, {10: 50, 11: 30, 12: 20}),
        ([(1, 10), (2, 11)], 100, {10: 60, 11: 40}),
        ([(1, 10)], 77, {10: 77}),
        ([(1, 10), (1, 11), (3, 12)], 101, {10: 41, 11: 40, 12: 20}),  # 51+30 shared, 20
        ([(1, 10), (2, 11), (2, 12), (2, 13)], 100, {10: 50, 11: 17, 12: 17, 13: 16}),
        ([(1, 10), (2, 11), (3, 12), (3, 13)], 9, {10: 6, 11: 2, 12: 1}),  # 4+2 left, 2, 1 and 0
        ([], 100, {}),
    ],
)
def test_the_pot_goes_to_the_podium_ties_sharing_and_nothing_left(places, pot, paid):
    from tournaments.results import prizes

    assert prizes(places, pot) == paid
    assert sum(paid.values()) in (0, pot)


def test_a_groups_page_lists_its_tournaments_under_way_upcoming_and_past():
    from tests.clients import online

    ana = online("ana", "Ana")
    online("bo", "Bo")
    me, bo = Player.objects.get(visitor="ana"), Player.objects.get(visitor="bo")
    group = Group.objects.create(name="Club", owner=me)
    for member in (me, bo):
        Membership.objects.create(group=group, player=member)
    later = services.create("ana", arena(name="Next week", group_id=group.pk))
    now = services.create("ana", arena(name="Tonight", group_id=group.pk))
    for visitor in ("ana", "bo"):
        services.join(now.pk, visitor)
    services.start_now(now.pk, "ana")
    alone = services.create("ana", arena(name="Nobody came", group_id=group.pk))
    services.start_now(alone.pk, "ana")
    services.create("ana", arena(name="Not the group's"))
    page = ana.get(f"/groups/{group.pk}/").text
    under_way, upcoming, past = (
        page.split(f">{title}</h3>")[1].split("</ul>")[0]
        for title in ("Under way", "Upcoming", "Past")
    )
    assert f'href="/tournament/{now.pk}/">Tonight</a>' in under_way and "2 players" in under_way
    assert f'href="/tournament/{later.pk}/">Next week</a>' in upcoming and "0 players" in upcoming
    assert "Nobody came" in past and "Cancelled" in past
    assert "Not the group" not in page
    assert f'href="/tournaments/new/?group={group.pk}"' in page
    spanish = ana.get(f"/groups/{group.pk}/", headers={"Accept-Language": "es"}).text
    assert "Arena · Yahtzee · 2 jugadores" in spanish
