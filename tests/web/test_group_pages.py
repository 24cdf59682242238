"""The groups' pages through the test client: My groups, an invite, a group's page and its
owner's forms, a table sent to the group; each refusal a 4xx with its reason (or, for a plain
form post, a 303 to the page that says it once), in English and Spanish, nothing changed."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games import services as games
from groups import services
from groups.models import Group, GroupTable, Membership, Removal
from history.models import Summary
from lobby.models import Player, Table
from profiles import blocking
from tests.clients import (
    FORM_POST,
    HTMX,
    client_for,
    finish_daily,
    online,
    refusal_text,
    start_daily,
)
from tests.factories import play_out

pytestmark = pytest.mark.django_db

SPANISH = {"Accept-Language": "es"}


def pk(visitor: str) -> int:
    return Player.objects.get(visitor=visitor).pk


@pytest.fixture
def group() -> Group:
    """Ana's group "Friday dice" with Bo in it; Cy is online and not in it."""
    ana = online("ana", "Ana")
    online("bo", "Bo")
    online("cy", "Cy")
    made = ana.post("/groups/new/", {"name": "Friday dice", "description": "Fridays at 9"})
    assert made.status_code == 302
    group = Group.objects.get()
    assert made["Location"] == f"/groups/{group.pk}/"
    services.join_group("bo", group.invite_code)
    return group


def test_my_groups_without_a_profile_says_to_choose_a_name_in_both_languages():
    assert "Choose a name first" in Client().get("/groups/").text
    assert "Elige primero un nombre" in Client().get("/groups/", headers=SPANISH).text


def test_my_groups_lists_them_with_their_members(group):
    page = client_for("bo").get("/groups/").text
    assert f'href="/groups/{group.pk}/">Friday dice</a>' in page and "2 members" in page
    assert "you own it" not in page
    assert "you own it" in client_for("ana").get("/groups/").text
    spanish = client_for("bo").get("/groups/", headers=SPANISH).text
    assert "Mis grupos" in spanish and "2 miembros" in spanish


@pytest.mark.parametrize("headers", [{}, HTMX, FORM_POST], ids=["script", "htmx", "form"])
def test_a_bad_name_is_refused_on_my_groups_and_nothing_is_made(headers):
    ana = online("ana", "Ana")
    refused = ana.post("/groups/new/", {"name": "x" * 41, "description": ""}, headers=headers)
    page = refusal_text(ana, refused, 400)
    assert "Group names have 40 characters at most." in page
    assert not Group.objects.exists()


def test_a_refusal_is_said_in_spanish():
    ana = online("ana", "Ana")
    refused = ana.post("/groups/new/", {"name": ""}, headers=SPANISH)
    assert refused.status_code == 400 and "Escribe un nombre." in refused.text
    assert not Group.objects.exists()
    code = ana.post("/groups/join/", {"code": "NOPE2345"}, headers=SPANISH)
    assert code.status_code == 404 and "Esta invitación no lleva a ningún grupo" in code.text


def test_joining_with_a_typed_code_goes_to_the_group(group):
    cy = client_for("cy")
    joined = cy.post("/groups/join/", {"code": group.invite_code.lower()})
    assert joined.status_code == 302 and joined["Location"] == f"/groups/{group.pk}/"
    assert Membership.objects.filter(group=group, player__visitor="cy").exists()


def test_an_invite_without_a_profile_asks_a_name_then_joins_in_one_post(group):
    friend = Client()
    page = friend.get(f"/groups/join/{group.invite_code}/")
    assert page.status_code == 200
    assert "Join Friday dice" in page.text and 'name="name"' in page.text
    assert "2 members, made by Ana." in page.text
    joined = friend.post(f"/groups/join/{group.invite_code}/go/", {"name": "Dee"})
    assert joined.status_code == 302 and joined["Location"] == f"/groups/{group.pk}/"
    assert Membership.objects.filter(group=group, player__name="Dee").exists()
    page = friend.get(joined["Location"]).text
    assert "3 members" in page and "Dee" in page
    # Opening the invite again goes straight to the group.
    assert friend.get(f"/groups/join/{group.invite_code}/")["Location"] == f"/groups/{group.pk}/"


@pytest.mark.parametrize("headers", [{}, FORM_POST], ids=["script", "form"])
def test_an_invite_with_a_name_taken_changes_nothing(group, headers):
    friend = Client()
    friend.get(f"/groups/join/{group.invite_code}/")
    refused = friend.post(f"/groups/join/{group.invite_code}/go/", {"name": "ana"}, headers=headers)
    page = refusal_text(friend, refused, 400)
    assert "Someone is already called that" in page and 'name="name"' in page
    assert Player.objects.count() == 3 and group.memberships.count() == 2


def test_a_profile_joins_by_the_invite_with_one_tap(group):
    cy = client_for("cy")
    page = cy.get(f"/groups/join/{group.invite_code}/").text
    assert 'name="name"' not in page and "You will join as Cy." in page
    assert cy.post(f"/groups/join/{group.invite_code}/go/").status_code == 302
    assert group.memberships.count() == 3


def test_an_old_or_unknown_invite_is_a_404_page_in_both_languages(group):
    old = group.invite_code
    services.new_invite("ana", group.pk)
    for code in (old, "ZZZZ2345"):
        page = Client().get(f"/groups/join/{code}/")
        assert page.status_code == 404 and "Ask a member for the current link" in page.text
        posted = client_for("cy").post(f"/groups/join/{code}/go/")
        assert posted.status_code == 404
    spanish = Client().get(f"/groups/join/{old}/", headers=SPANISH)
    assert spanish.status_code == 404 and "Pide a un miembro el enlace actual" in spanish.text
    assert group.memberships.count() == 2


@pytest.mark.parametrize("headers", [{}, FORM_POST], ids=["script", "form"])
def test_an_invite_used_after_removal_is_refused_with_why(group, headers):
    services.remove_member("ana", group.pk, pk("bo"))
    bo = client_for("bo")
    assert bo.get(f"/groups/{group.pk}/").status_code == 403
    refused = bo.post(f"/groups/join/{group.invite_code}/go/", headers=headers)
    assert "The owner removed you from this group" in refusal_text(bo, refused, 403)
    assert group.memberships.count() == 1


def test_a_player_blocked_by_the_owner_is_refused_at_the_invite(group):
    blocking.block("ana", pk("cy"))
    refused = client_for("cy").post(f"/groups/join/{group.invite_code}/go/")
    assert refused.status_code == 403 and "You cannot join this group." in refused.text
    assert group.memberships.count() == 2


def test_the_group_page_is_its_members_only(group):
    assert client_for("cy").get(f"/groups/{group.pk}/").status_code == 403
    assert Client().get(f"/groups/{group.pk}/").status_code == 403
    missing = client_for("ana").get("/groups/nosuchgrp/")
    assert missing.status_code == 404 and "There is no such group." in missing.text


def test_the_group_page_shows_members_online_standings_daily_and_invite(group):
    ana, bo = Player.objects.get(visitor="ana"), Player.objects.get(visitor="bo")
    game = play_out(games.start_online_game([ana, bo]))
    attempt = finish_daily(start_daily("bo"), "bo")
    Player.objects.filter(visitor="ana").update(online_until=None)  # Ana went offline
    page = client_for("bo").get(f"/groups/{group.pk}/").text
    assert "2 members, 1 online now" in page
    assert re.search(r'class="dot online".*?>Bo</a>', page, re.S)
    assert re.search(r'class="dot".*?>Ana</a>', page, re.S)
    totals = dict(Summary.objects.filter(game=game).values_list("visitor", "total"))
    assert f'<td class="number">{totals["bo"]}.0</td>' in page  # Bo's average over 1 game
    daily_total = Summary.objects.get(game=attempt).total
    assert f'<td class="number">{daily_total}</td>' in page  # today's challenge
    assert f"/groups/join/{group.invite_code}/" in page and "<svg" in page
    assert "New invite code" not in page and "Remove" not in page  # Bo is no owner
    owner = client_for("ana").get(f"/groups/{group.pk}/").text
    assert "New invite code" in owner and 'aria-label="Remove Bo"' in owner
    spanish = client_for("bo").get(f"/groups/{group.pk}/", headers=SPANISH).text
    assert (
        "Clasificación entre los miembros" in spanish and "2 miembros, 1 en línea ahora" in spanish
    )


def test_no_challenge_offered_between_members_with_a_block(group):
    page = client_for("bo").get(f"/groups/{group.pk}/").text
    assert 'aria-label="Challenge Ana"' in page
    blocking.block("ana", pk("bo"))
    page = client_for("bo").get(f"/groups/{group.pk}/").text
    assert 'aria-label="Challenge Ana"' not in page


def test_the_owners_forms_work_without_javascript(group):
    ana = client_for("ana")
    url = f"/groups/{group.pk}/"
    assert ana.post(url + "rename/", {"name": "Dice club", "description": ""}).status_code == 302
    old = group.invite_code
    assert ana.post(url + "invite/").status_code == 302
    group.refresh_from_db()
    assert (group.name, group.invite_code != old) == ("Dice club", True)
    assert ana.post(url + "remove/", {"player": pk("bo")}).status_code == 302
    assert Removal.objects.filter(group=group).count() == 1
    page = ana.get(url).text
    assert 'aria-label="Let Bo back in"' in page
    assert ana.post(url + "back/", {"player": pk("bo")}).status_code == 302
    services.join_group("bo", group.invite_code)
    assert ana.post(url + "owner/", {"player": pk("bo")}).status_code == 302
    group.refresh_from_db()
    assert group.owner.visitor == "bo"
    assert ana.post(url + "leave/").status_code == 302
    assert list(group.memberships.values_list("player__visitor", flat=True)) == ["bo"]


@pytest.mark.parametrize(
    ("who", "path", "data", "status", "reason"),
    [
        ("bo", "remove/", {"player": "1"}, 403, "Only the group's owner can do that."),
        ("ana", "remove/", {"player": "abc"}, 404, "That player is not a member of this group."),
        ("ana", "owner/", {"player": "999999"}, 404, "That player is not a member"),
        ("ana", "leave/", {}, 409, "Hand the group over to another member"),
        ("ana", "rename/", {"name": " "}, 400, "Enter a name."),
        ("cy", "table/", {}, 403, "You are not a member of this group."),
        ("ana", "back/", {"player": "2"}, 404, "That player was not removed"),
    ],
)
@pytest.mark.parametrize("headers", [{}, FORM_POST], ids=["script", "form"])
def test_bad_posts_are_4xx_with_why_and_change_nothing(
    group, who, path, data, status, reason, headers
):
    before = (
        list(Group.objects.values_list("name", "owner_id", "invite_code")),
        list(Membership.objects.values_list("player_id", flat=True).order_by("player_id")),
    )
    client = client_for(who)
    refused = client.post(f"/groups/{group.pk}/{path}", data, headers=headers)
    if who == "cy" and headers:  # not a member: no group page to send a plain post on to
        assert refused.status_code == 303
        page = client.get(refused["Location"])
        assert page.status_code == 403 and reason in page.text
    else:
        assert reason in html.unescape(refusal_text(client, refused, status))
    after = (
        list(Group.objects.values_list("name", "owner_id", "invite_code")),
        list(Membership.objects.values_list("player_id", flat=True).order_by("player_id")),
    )
    assert after == before


def test_posts_need_post_and_a_csrf_token(group):
    assert client_for("ana").get(f"/groups/{group.pk}/leave/").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/groups/new/", {"name": "G"}).status_code == 403
    assert Group.objects.count() == 1


def test_a_table_for_the_group_from_its_page(group):
    opened = client_for("bo").post(f"/groups/{group.pk}/table/")
    table = Table.objects.get()
    assert opened.status_code == 302 and opened["Location"] == f"/t/{table.code}/"
    assert GroupTable.objects.get().group == group
    page = client_for("bo").get(opened["Location"]).text
    assert "A table for the group" in page and "Friday dice" in page
    listed = client_for("ana").get(f"/groups/{group.pk}/").text
    assert "Bo's table (1 of 6)" in listed and 'aria-label="Join Bo\'s table"' in listed
    outsider = client_for("cy").get(f"/t/{table.code}/").text
    assert "Only the members of Friday dice can take a seat" in outsider
    assert "Join this table" not in outsider
    refused = client_for("cy").post(f"/t/{table.code}/join/")
    assert refused.status_code == 403 and "Only the members of the group" in refused.text
    assert client_for("ana").post(f"/t/{table.code}/join/").status_code == 302
    assert table.seats.count() == 2
    assert "Bo's table (2 of 6)" in client_for("ana").get(f"/groups/{group.pk}/").text


def test_the_members_lobbies_list_a_table_for_the_group(group):
    client_for("bo").post(f"/groups/{group.pk}/table/")
    table = Table.objects.get()
    lobby = client_for("ana").get("/online/").text
    assert "Bo opened a table for Friday dice (1 of 6)" in lobby
    assert f'href="/t/{table.code}/"' in lobby
    assert "No challenges right now." not in lobby
    assert "opened a table" not in client_for("bo").get("/online/").text  # his own, seated
    assert "opened a table" not in client_for("cy").get("/online/").text  # not a member
    spanish = client_for("ana").get("/online/", headers=SPANISH).text
    assert "Bo abrió una mesa para Friday dice (1 de 6)" in spanish
    client_for("ana").post(f"/t/{table.code}/join/")
    assert "opened a table" not in client_for("ana").get("/online/").text  # seated now


def test_groups_are_linked_from_the_navigation_and_ones_own_profile(group):
    bo = client_for("bo")
    assert '<a href="/groups/">Groups</a>' in bo.get("/").text
    own = bo.get(f"/p/{pk('bo')}/").text
    assert 'href="/groups/">My groups</a>' in own
    assert 'href="/groups/">My groups</a>' not in bo.get(f"/p/{pk('ana')}/").text
