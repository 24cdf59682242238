"""Groups: making one, joining by invite, leaving, the owner's powers, blocks, group tables,
standings among the members, and races (two joins at once, a join as the owner removes)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import threading

import pytest
from django.db import connection

from core.refusals import ActionRefused
from games import services as games
from groups import services, standings
from groups.models import Group, GroupTable, Membership, Removal
from lobby import tables
from lobby.models import Player, TableSeat
from lobby.services import go_online
from profiles import blocking
from tests.factories import play_out

pytestmark = pytest.mark.django_db


def player(visitor: str, name: str | None = None) -> Player:
    return go_online(visitor, name or visitor.capitalize())


def members(group: Group) -> set[str]:
    return set(group.memberships.values_list("player__visitor", flat=True))


def refused(call, *args, **kwargs) -> ActionRefused:
    with pytest.raises(ActionRefused) as raised:
        call(*args, **kwargs)
    return raised.value


def snapshot() -> tuple:
    """Everything a refusal must leave as it was."""
    return (
        sorted(Group.objects.values_list("id", "name", "description", "owner_id", "invite_code")),
        sorted(Membership.objects.values_list("group_id", "player_id")),
        sorted(Removal.objects.values_list("group_id", "player_id")),
    )


@pytest.fixture
def friends() -> Group:
    """Ana's group, with Bo in it; Cy has a profile and is not in it."""
    for visitor in ("ana", "bo", "cy"):
        player(visitor)
    group = services.create_group("ana", "  Friday   dice ", "We play on Fridays.")
    services.join_group("bo", group.invite_code)
    return group


def test_a_group_is_made_with_its_maker_as_owner_and_member():
    ana = player("ana")
    group = services.create_group("ana", "  Friday   dice ", " Fridays. ")
    assert (group.name, group.description, group.owner) == ("Friday dice", "Fridays.", ana)
    assert members(group) == {"ana"}
    assert len(group.invite_code) == 8


@pytest.mark.parametrize(
    ("name", "description", "reason"),
    [
        ("", "", "Enter a name."),
        ("   ", "", "Enter a name."),
        ("x" * 41, "", "Group names have 40 characters at most."),
        ("a\x00b", "", "control characters"),
        ("\u3164", "", "invisible"),
        ("Ok", "x" * 281, "A description has 280 characters at most."),
        ("Ok", "a\x07b", "control characters"),
    ],
)
def test_bad_names_and_descriptions_are_refused_and_nothing_is_made(name, description, reason):
    player("ana")
    error = refused(services.create_group, "ana", name, description)
    assert reason in str(error) and error.status == 400
    assert not Group.objects.exists()


def test_a_name_of_40_characters_and_a_description_of_280_are_taken():
    player("ana")
    group = services.create_group("ana", "y" * 40, "d" * 280)
    assert (len(group.name), len(group.description)) == (40, 280)


def test_without_a_profile_nothing_can_be_done(friends):
    before = snapshot()
    assert refused(services.create_group, "nobody", "G").status == 403
    assert refused(services.join_group, "nobody", friends.invite_code).status == 403
    assert refused(services.leave_group, None, friends.pk).status == 403
    assert snapshot() == before


def test_joining_by_code_in_any_case_with_spaces_and_twice(friends):
    code = friends.invite_code
    typed = f" {code[:4].lower()} {code[4:]} "
    assert services.join_group("cy", typed) == friends
    assert members(friends) == {"ana", "bo", "cy"}
    services.join_group("cy", code)  # a member already: nothing changes
    assert Membership.objects.filter(group=friends, player__visitor="cy").count() == 1


def test_an_unknown_code_is_refused_404(friends):
    before = snapshot()
    error = refused(services.join_group, "cy", "ZZZZZZZZ")
    assert error.status == 404 and "does not lead to a group" in str(error)
    assert snapshot() == before


def test_a_new_invite_code_makes_the_old_one_stop_working(friends):
    old = friends.invite_code
    renewed = services.new_invite("ana", friends.pk)
    assert renewed.invite_code != old
    assert refused(services.join_group, "cy", old).status == 404
    assert services.join_group("cy", renewed.invite_code) == friends
    assert members(friends) == {"ana", "bo", "cy"}  # members stay members


def test_only_the_owner_renews_renames_removes_and_hands_over(friends):
    cy = Player.objects.get(visitor="cy")
    services.join_group("cy", friends.invite_code)
    before = snapshot()
    for call, args in [
        (services.new_invite, ()),
        (services.rename, ("New", "")),
        (services.remove_member, (cy.pk,)),
        (services.hand_over, (cy.pk,)),
        (services.let_back, (cy.pk,)),
    ]:
        error = refused(call, "bo", friends.pk, *args)
        assert error.status == 403 and "Only the group's owner" in str(error)
    assert snapshot() == before


def test_a_non_member_cannot_act_on_a_group_and_an_unknown_group_is_404(friends):
    before = snapshot()
    error = refused(services.leave_group, "cy", friends.pk)
    assert error.status == 403 and "not a member" in str(error)
    assert refused(services.open_table, "cy", friends.pk).status == 403
    assert refused(services.leave_group, "ana", "nosuchgroup").status == 404
    assert snapshot() == before


def test_a_member_leaves_and_may_come_back_with_the_current_invite(friends):
    assert services.leave_group("bo", friends.pk) is False
    assert members(friends) == {"ana"}
    assert refused(services.leave_group, "bo", friends.pk).status == 403  # left already
    services.join_group("bo", friends.invite_code)
    assert members(friends) == {"ana", "bo"}


def test_an_invite_used_after_leaving_a_renewed_group_is_refused(friends):
    services.leave_group("bo", friends.pk)
    old = friends.invite_code
    services.new_invite("ana", friends.pk)
    error = refused(services.join_group, "bo", old)
    assert error.status == 404 and "Ask a member for the current link" in str(error)
    assert members(friends) == {"ana"}


def test_the_owner_hands_over_before_leaving(friends):
    before = snapshot()
    error = refused(services.leave_group, "ana", friends.pk)
    assert error.status == 409 and "Hand the group over" in str(error)
    assert snapshot() == before
    bo = services.hand_over("ana", friends.pk, Player.objects.get(visitor="bo").pk)
    friends.refresh_from_db()
    assert friends.owner == bo
    assert services.leave_group("ana", friends.pk) is False
    assert members(friends) == {"bo"}


def test_the_group_ends_when_its_last_member_leaves(friends):
    services.leave_group("bo", friends.pk)
    assert services.leave_group("ana", friends.pk) is True
    assert not Group.objects.exists()
    assert refused(services.join_group, "bo", friends.invite_code).status == 404


def test_hand_over_and_remove_need_a_member_other_than_oneself(friends):
    ana, cy = Player.objects.get(visitor="ana"), Player.objects.get(visitor="cy")
    before = snapshot()
    assert refused(services.hand_over, "ana", friends.pk, cy.pk).status == 404
    assert refused(services.hand_over, "ana", friends.pk, "x").status == 404
    assert refused(services.hand_over, "ana", friends.pk, ana.pk).status == 400
    assert refused(services.remove_member, "ana", friends.pk, ana.pk).status == 400
    assert refused(services.remove_member, "ana", friends.pk, cy.pk).status == 404
    assert refused(services.let_back, "ana", friends.pk, cy.pk).status == 404
    assert snapshot() == before


def test_a_removed_member_cannot_join_again_until_the_owner_lets_them_back(friends):
    bo = Player.objects.get(visitor="bo")
    services.remove_member("ana", friends.pk, bo.pk)
    assert members(friends) == {"ana"}
    for renew in (False, True):  # the invite Bo had, and a new one
        code = services.new_invite("ana", friends.pk).invite_code if renew else friends.invite_code
        error = refused(services.join_group, "bo", code)
        assert error.status == 403 and "removed you" in str(error)
    assert members(friends) == {"ana"}
    services.let_back("ana", friends.pk, bo.pk)
    friends.refresh_from_db()
    services.join_group("bo", friends.invite_code)
    assert members(friends) == {"ana", "bo"}


def test_the_owner_renames_the_group(friends):
    services.rename("ana", friends.pk, " Dice  club ", "")
    friends.refresh_from_db()
    assert (friends.name, friends.description) == ("Dice club", "")
    assert refused(services.rename, "ana", friends.pk, "", "").status == 400
    friends.refresh_from_db()
    assert friends.name == "Dice club"


@pytest.mark.parametrize(("blocker", "blocked"), [("ana", "cy"), ("cy", "ana")])
def test_a_block_either_way_with_the_owner_keeps_a_player_out(friends, blocker, blocked):
    blocking.block(blocker, Player.objects.get(visitor=blocked).pk)
    before = snapshot()
    error = refused(services.join_group, "cy", friends.invite_code)
    assert error.status == 403 and str(error) == "You cannot join this group."
    assert snapshot() == before


def test_a_block_with_another_member_does_not_keep_a_player_out(friends):
    blocking.block("bo", Player.objects.get(visitor="cy").pk)
    services.join_group("cy", friends.invite_code)
    assert "cy" in members(friends)


def test_a_full_group_refuses_one_more(friends, monkeypatch):
    monkeypatch.setattr(services, "MAX_MEMBERS", 2)
    before = snapshot()
    error = refused(services.join_group, "cy", friends.invite_code)
    assert error.status == 409 and "full" in str(error)
    assert snapshot() == before


def test_a_table_for_the_group_seats_its_members_only(friends):
    table = services.open_table("ana", friends.pk)
    assert GroupTable.objects.get(table=table).group == friends
    tables.join_table("bo", table.code)
    error = refused(tables.join_table, "cy", table.code)
    assert error.status == 403 and "Only the members of the group" in str(error)
    assert set(TableSeat.objects.filter(table=table).values_list("player__visitor", flat=True)) == {
        "ana",
        "bo",
    }


def test_a_plain_table_still_seats_anyone_with_its_code(friends):
    table = tables.create_table("ana")
    tables.join_table("cy", table.code)
    assert table.seats.count() == 2


def test_a_group_table_keeps_apart_two_members_with_a_block(friends):
    services.join_group("cy", friends.invite_code)
    blocking.block("bo", Player.objects.get(visitor="cy").pk)
    table = services.open_table("bo", friends.pk)
    assert refused(tables.join_table, "cy", table.code).status == 403


def test_standings_count_the_games_between_members(friends):
    ana, bo, cy = (Player.objects.get(visitor=v) for v in ("ana", "bo", "cy"))
    game = play_out(games.start_online_game([ana, bo]))
    play_out(games.start_online_game([ana, cy]))  # Cy is no member: not counted
    results = dict(game.summaries.values_list("visitor", "result"))
    lines = {line.player.visitor: line for line in standings.standings([ana, bo])}
    for visitor in ("ana", "bo"):
        line = lines[visitor]
        assert line.games == 1
        assert (line.wins, line.draws, line.losses) == {
            1.0: (1, 0, 0),
            0.5: (0, 1, 0),
            0.0: (0, 0, 1),
        }[results[visitor]]
        assert line.average == game.summaries.get(visitor=visitor).total
    assert [line.place for line in standings.standings([ana, bo])] == [1, 2]
    first = standings.standings([ana, bo])[0]
    assert results[first.player.visitor] >= 0.5


def test_standings_of_members_who_never_played_each_other(friends):
    ana, cy = Player.objects.get(visitor="ana"), Player.objects.get(visitor="cy")
    play_out(games.start_online_game([ana, cy]))
    lines = standings.standings([ana, Player.objects.get(visitor="bo")])
    assert [(line.games, line.average, line.accuracy) for line in lines] == [(0, None, None)] * 2


# --- Races: each thread commits on its own connection, as two requests do --------------------


def race(monkeypatch, *calls):
    """Run the calls at once on their own connections; what each returned or raised.

    Each call waits for the others just after it took the group's row (``services._locked``):
    with the row lock the others are held before it, so the wait times out and the calls take
    turns; without the lock all would meet there and go on together, which the races below
    would catch."""
    barrier = threading.Barrier(len(calls))
    locked = services._locked

    def lock_and_meet(group_id):
        group = locked(group_id)
        # Broken when the others are held by the lock: as it should be.
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=0.5)
        return group

    def run(call):
        try:
            return call()
        except ActionRefused as refusal:
            return refusal
        finally:
            connection.close()

    with monkeypatch.context() as patched:
        patched.setattr(services, "_locked", lock_and_meet)
        with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
            return list(pool.map(run, calls))


@pytest.mark.django_db(transaction=True)
def test_two_joins_at_once_for_the_last_place(monkeypatch):
    for visitor in ("ana", "bo", "cy"):
        player(visitor)
    group = services.create_group("ana", "Last place")
    monkeypatch.setattr(services, "MAX_MEMBERS", 2)
    answers = race(
        monkeypatch,
        lambda: services.join_group("bo", group.invite_code),
        lambda: services.join_group("cy", group.invite_code),
    )
    joined = [a for a in answers if isinstance(a, Group)]
    refusals = [a for a in answers if isinstance(a, ActionRefused)]
    assert len(joined) == 1 and len(refusals) == 1
    assert refusals[0].status == 409 and "full" in str(refusals[0])
    assert group.memberships.count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_join_racing_the_owners_removal_leaves_the_player_out(monkeypatch):
    for visitor in ("ana", "bo"):
        player(visitor)
    group = services.create_group("ana", "Race")
    services.join_group("bo", group.invite_code)
    bo = Player.objects.get(visitor="bo")
    for _round in range(2):
        answers = race(
            monkeypatch,
            lambda: services.remove_member("ana", group.pk, bo.pk),
            lambda: services.join_group("bo", group.invite_code),
        )
        assert answers[0] == bo  # the removal went through, before or after the join
        # The join found Bo still a member (nothing to do) or already removed (refused).
        assert answers[1] == group or (answers[1].status == 403 and "removed" in str(answers[1]))
        assert members(group) == {"ana"}
        assert Removal.objects.filter(group=group, player=bo).count() == 1
        services.let_back("ana", group.pk, bo.pk)
        services.join_group("bo", group.invite_code)
