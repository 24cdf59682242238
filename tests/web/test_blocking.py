"""Blocks and favourites: every way a blocked player could reach you, refused both ways; bad
input refused with nothing changed; favourites first in the lobby."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from core.refusals import ActionRefused, NotFound
from daily import services as daily
from daily.models import Challenge as DailyChallenge
from games.models import Game
from games.services import start_game
from lobby import presenters, ranked
from lobby import services as lobby
from lobby.models import Challenge, Player, QueueEntry, Table
from lobby.services import Forbidden
from profiles import blocking
from profiles.models import Block, Favourite
from tests.clients import (
    FORM_POST,
    client_for,
    finish_daily,
    finished_online_game,
    online,
    online_game,
    start_daily,
)
from tests.factories import act

pytestmark = pytest.mark.django_db

# (who blocks, who is blocked) as seen from Ana, who tries to reach Bo: each way must refuse.
BOTH_WAYS = pytest.mark.parametrize("blocker, blocked", [("ana", "bo"), ("bo", "ana")])


def pk(visitor: str) -> int:
    return Player.objects.get(visitor=visitor).pk


def two_online() -> tuple[Client, Client]:
    return online("ana", "Ana"), online("bo", "Bo")


def test_blocking_oneself_nobody_and_without_a_profile_are_refused_with_nothing_changed():
    online("ana", "Ana")
    with pytest.raises(ActionRefused, match="cannot block yourself") as refused:
        blocking.block("ana", pk("ana"))
    assert refused.value.status == 400
    for missing in (999_999, 0, -1, 2**63, 10**30):
        with pytest.raises(NotFound, match="no such player"):
            blocking.block("ana", missing)
    with pytest.raises(Forbidden, match="Choose a name first"):
        blocking.block("nobody", pk("ana"))
    with pytest.raises(Forbidden):
        blocking.block(None, pk("ana"))
    with pytest.raises(ActionRefused, match="yourself a favourite"):
        blocking.favourite("ana", pk("ana"))
    assert not Block.objects.exists() and not Favourite.objects.exists()


def test_a_second_block_changes_nothing_and_says_so_and_unblock_undoes_only_ones_own():
    two_online()
    assert blocking.block("ana", pk("bo")).changed
    assert not blocking.block("ana", pk("bo")).changed
    assert Block.objects.count() == 1
    assert not blocking.unblock("bo", pk("ana")).changed  # Bo blocked nobody: Ana's block stays
    assert blocking.blocked_between("bo", "ana")
    assert blocking.unblock("ana", pk("bo")).changed
    assert not blocking.unblock("ana", pk("bo")).changed
    assert not blocking.blocked_between("ana", "bo")


@BOTH_WAYS
def test_blocked_between_is_either_way(blocker, blocked):
    two_online()
    online("cy", "Cy")
    blocking.block(blocker, pk(blocked))
    assert blocking.blocked_between("ana", "bo") and blocking.blocked_between("bo", "ana")
    assert not blocking.blocked_between("ana", "cy") and not blocking.blocked_between("ana", "")


@BOTH_WAYS
def test_no_challenge_either_way(blocker, blocked):
    ana, _bo = two_online()
    blocking.block(blocker, pk(blocked))
    with pytest.raises(Forbidden, match="You cannot challenge this player"):
        lobby.challenge("ana", pk("bo"))
    response = ana.post("/online/challenge/", {"player": pk("bo")})
    assert response.status_code == 403
    assert "You cannot challenge this player." in response.text
    assert "blocked" not in response.text.lower()  # it does not say who blocked whom
    assert not Challenge.objects.exists()


def test_pending_challenges_both_ways_are_cancelled_at_block_time():
    two_online()
    lobby.challenge("ana", pk("bo"))
    lobby.challenge("bo", pk("ana"))
    online("cy", "Cy")
    lobby.challenge("cy", pk("bo"))
    blocking.block("bo", pk("ana"))
    statuses = dict(Challenge.objects.values_list("challenger__visitor", "status"))
    assert statuses == {"ana": "cancelled", "bo": "cancelled", "cy": "pending"}
    made = Challenge.objects.get(challenger__visitor="ana")
    with pytest.raises(ActionRefused, match="was cancelled"):
        lobby.answer("bo", made.pk, "accept")
    assert not Game.objects.exists()


@BOTH_WAYS
def test_neither_sees_the_other_in_the_lobby(blocker, blocked):
    ana, bo = two_online()
    online("cy", "Cy")
    blocking.block(blocker, pk(blocked))
    for visitor in ("ana", "bo"):
        names = [e["player"].name for e in presenters.lobby_context(visitor)["online"]]
        assert names == ["Cy"], (visitor, names)
    assert ">Bo</a>" not in ana.get("/online/").text
    assert ">Ana</a>" not in bo.get("/online/").text
    assert ">Ana</a>" in client_for("cy").get("/online/").text  # others still see both


@pytest.mark.parametrize(
    "blocker, blocked",
    [("host", "ana"), ("ana", "host"), ("ana", "bo"), ("bo", "ana")],
    ids=["host-blocked-you", "you-blocked-the-host", "you-blocked-a-guest", "a-guest-blocked-you"],
)
def test_no_joining_a_table_with_a_block_with_its_host_or_anyone_seated(blocker, blocked):
    online("host", "Host")
    ana, _bo = two_online()
    table = lobby.create_table("host")
    lobby.join_table("bo", table.code)
    blocking.block(blocker, pk(blocked))
    with pytest.raises(Forbidden, match="You cannot join this table"):
        lobby.join_table("ana", table.code)
    response = ana.post(f"/t/{table.code}/join/")
    assert response.status_code == 403 and "You cannot join this table." in response.text
    assert list(table.seats.values_list("player__visitor", flat=True)) == ["host", "bo"]


def test_a_block_between_two_already_seated_leaves_the_table_as_it_is():
    online("host", "Host")
    two_online()
    table = lobby.create_table("host")
    lobby.join_table("ana", table.code)
    lobby.join_table("bo", table.code)
    blocking.block("ana", pk("bo"))
    assert table.seats.count() == 3
    assert lobby.join_table("bo", table.code) == table  # already seated: nothing to refuse


def test_the_ranked_queue_never_pairs_them():
    two_online()
    blocking.block("bo", pk("ana"))
    for visitor in ("ana", "bo"):  # the same rating, waiting a minute: any other two pair
        QueueEntry.objects.create(
            player=Player.objects.get(visitor=visitor),
            joined_at=timezone.now() - timedelta(minutes=1),
        )
    assert ranked.pair_waiting() == []
    assert QueueEntry.objects.count() == 2
    online("cy", "Cy")
    QueueEntry.objects.create(player=Player.objects.get(visitor="cy"))
    (game,) = ranked.pair_waiting()
    assert {seat.visitor for seat in game.seats.all()} in ({"ana", "cy"}, {"bo", "cy"})


@BOTH_WAYS
def test_no_rematch_with_a_blocked_player_offered_or_accepted(settings, blocker, blocked):
    game, ana, _bo = finished_online_game(settings)
    game.refresh_from_db()
    lobby.rematch("bo", game)  # offered before the block
    blocking.block(blocker, pk(blocked))
    with pytest.raises(Forbidden, match="You cannot play a rematch with these players"):
        lobby.rematch("ana", game)
    response = ana.post(f"/game/{game.id}/rematch/")
    assert response.status_code == 403
    assert "You cannot play a rematch with these players." in response.text
    with pytest.raises(Forbidden):
        lobby.rematch("bo", game)
    table = Table.objects.get(rematch_of=game)
    assert table.game is None and list(table.seats.values_list("player__visitor", flat=True)) == [
        "bo"
    ]


@BOTH_WAYS
def test_hidden_from_each_others_people_you_have_played(blocker, blocked):
    online_game()  # Ana and Bo have played
    finish_daily(start_daily("ana"), "ana")
    finish_daily(start_daily("bo"), "bo")
    challenge = DailyChallenge.objects.get()
    assert [line.name for line in daily.friends_results(challenge, "ana")] == ["Bo"]
    blocking.block(blocker, pk(blocked))
    assert daily.friends_results(challenge, "ana") == []
    assert daily.friends_results(challenge, "bo") == []


def test_a_game_under_way_goes_on_after_a_block():
    game, _ana, _bo = online_game()
    first = game.ordered_seats()[0].visitor
    blocking.block("ana", pk("bo"))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.forfeited == []
    act(game, "roll", first, (1, 2, 3, 4, 5))
    act(game, "score", first, box="large_straight")
    game.refresh_from_db()
    assert game.step > 0 and game.status == Game.Status.PLAYING
    assert blocking.blocked_between("ana", "bo")  # what the chat asks: it stops


def test_after_an_unblock_they_meet_again():
    two_online()
    blocking.block("ana", pk("bo"))
    blocking.unblock("ana", pk("bo"))
    assert lobby.challenge("ana", pk("bo")).status == Challenge.Status.PENDING
    assert "Bo" in [e["player"].name for e in presenters.lobby_context("ana")["online"]]


def test_favourites_come_first_marked_and_listed_with_online_now_or_last_seen():
    for visitor, name in (("ana", "Ana"), ("bo", "Bo"), ("cy", "Cy"), ("zed", "Zed")):
        online(visitor, name)
    online("dee", "Dee")
    Player.objects.filter(visitor="dee").update(online_until=timezone.now() - timedelta(hours=3))
    for favourite in ("zed", "dee", "cy"):
        assert blocking.favourite("ana", pk(favourite)).changed
    assert not blocking.favourite("ana", pk("zed")).changed
    context = presenters.lobby_context("ana")
    assert [(e["player"].name, e["favourite"]) for e in context["online"]] == [
        ("Cy", True),
        ("Zed", True),
        ("Bo", False),
    ]
    assert [(e["player"].name, e["online"]) for e in context["favourites"]] == [
        ("Cy", True),
        ("Dee", False),
        ("Zed", True),
    ]
    page = client_for("ana").get("/online/").text
    assert page.count('aria-label="Favourite"') == 2
    assert page.index(">Zed</a>") < page.index(">Bo</a>")
    assert "last seen 3\xa0hours ago" in page and page.count("online now") == 2
    Player.objects.filter(visitor="dee").update(online_until=timezone.now() - timedelta(seconds=20))
    page = client_for("ana").get("/online/").text
    assert "last seen just now" in page and "0\xa0minutes" not in page
    # Bo favoured nobody: his list is by name, with no Favourites block.
    bo = presenters.lobby_context("bo")
    assert [e["player"].name for e in bo["online"]] == ["Ana", "Cy", "Zed"]
    assert bo["favourites"] == [] and "Favourites</h3>" not in client_for("bo").get("/online/").text
    assert blocking.unfavourite("ana", pk("zed")).changed
    assert not blocking.unfavourite("ana", pk("zed")).changed


@BOTH_WAYS
def test_a_block_undoes_favourites_both_ways_and_refuses_new_ones(blocker, blocked):
    two_online()
    blocking.favourite("ana", pk("bo"))
    blocking.favourite("bo", pk("ana"))
    blocking.block(blocker, pk(blocked))
    assert not Favourite.objects.exists()
    for visitor, other in (("ana", "bo"), ("bo", "ana")):
        with pytest.raises(Forbidden, match="cannot make this player a favourite"):
            blocking.favourite(visitor, pk(other))
    assert not Favourite.objects.exists()
    assert presenters.lobby_context("ana")["favourites"] == []


# Views: POST only, CSRF, 4xx pages, never a 500.


@pytest.mark.parametrize("verb", ["block", "unblock", "favourite", "unfavourite"])
def test_the_buttons_answer_only_posts_with_a_csrf_token(verb):
    two_online()
    address = f"/p/{pk('bo')}/{verb}/"
    assert client_for("ana").get(address).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client_for("ana").cookies
    assert strict.post(address).status_code == 403
    assert not Block.objects.exists() and not Favourite.objects.exists()


def test_blocking_from_a_profile_page_and_unblocking_from_ones_own():
    ana, _bo = two_online()
    profile = ana.get(f"/p/{pk('bo')}/").text
    assert "Block Bo" in profile and "Add to favourites" in profile
    response = ana.post(f"/p/{pk('bo')}/block/", headers=FORM_POST)
    assert response.status_code == 302 and response["Location"] == f"/p/{pk('bo')}/"
    page = ana.get(response["Location"]).text
    assert "You blocked Bo" in page and "Unblock Bo" in page and "Add to favourites" not in page
    again = ana.get(ana.post(f"/p/{pk('bo')}/block/")["Location"]).text
    assert "You had already blocked Bo." in again
    mine = ana.get(f"/p/{pk('ana')}/").text
    assert "Players you blocked" in mine and f'action="/p/{pk("bo")}/unblock/"' in mine
    response = ana.post(f"/p/{pk('bo')}/unblock/", {"back": "me"})
    assert response["Location"] == "/me/"
    assert "You unblocked Bo." in ana.get("/me/", follow=True).text
    assert not Block.objects.exists()
    # Someone's own profile has no Block button, nor a page seen by a browser without a profile.
    assert "Block Ana" not in mine
    assert "Block Bo" not in client_for("stranger").get(f"/p/{pk('bo')}/").text


@pytest.mark.parametrize(
    "address, status, text",
    [
        ("/p/999999/block/", 404, "There is no such player."),
        ("/p/99999999999999999999999/favourite/", 404, "There is no such player."),
        ("/p/abc/block/", 404, ""),
        ("/p/-1/block/", 404, ""),
        ("SELF/block/", 400, "You cannot block yourself."),
        ("SELF/favourite/", 400, "You cannot make yourself a favourite."),
    ],
)
def test_bad_ids_and_oneself_are_4xx_pages(address, status, text):
    ana, _bo = two_online()
    address = address.replace("SELF", f"/p/{pk('ana')}")
    response = ana.post(address)
    assert response.status_code == status
    assert text in response.text
    assert not Block.objects.exists() and not Favourite.objects.exists()


def test_without_a_profile_a_block_is_refused_on_a_page_that_says_how_to_get_one():
    two_online()
    response = client_for("stranger").post(f"/p/{pk('bo')}/block/")
    assert response.status_code == 403 and "Choose a name first" in response.text
    assert not Block.objects.exists()


def test_a_refused_plain_form_post_comes_back_to_the_profile_saying_why():
    ana, _bo = two_online()
    response = ana.post(f"/p/{pk('ana')}/block/", headers=FORM_POST)
    assert response.status_code == 303
    page = ana.get(response["Location"])
    assert page.status_code == 200 and "You cannot block yourself." in page.text


def test_names_in_a_game_under_way_lead_to_their_profiles():
    """Blocking someone mid-game starts from their name in the players line."""
    game, ana, _bo = online_game()
    page = ana.get(f"/game/{game.id}/").text
    line = page[
        page.index('class="presence-line"') : page.index("</ul>", page.index("presence-line"))
    ]
    for seat in game.ordered_seats():
        address = f"/game/{game.id}/player/?seat={seat.position}"
        assert f'<a href="{address}">{seat.name}</a>' in line
        assert ana.get(address)["Location"] == f"/p/{pk(seat.visitor)}/"


def test_a_seat_of_a_pass_the_phone_game_leads_nobody_to_its_owner():
    online("ana", "Ana")
    game = start_game("ana", ["Grandma", "Uncle Tom"], mode=Game.Mode.LOCAL)
    for seat in (0, 1):
        assert client_for("stranger").get(f"/game/{game.id}/player/?seat={seat}").status_code == 404


def test_the_game_pages_names_lead_to_their_profiles(settings):
    game, ana, _bo = finished_online_game(settings)
    page = ana.get(f"/game/{game.id}/").text  # its final ranking names both players
    for seat in game.ordered_seats():
        address = f"/game/{game.id}/player/?seat={seat.position}"
        assert f'href="{address}"' in page
        assert ana.get(address)["Location"] == f"/p/{pk(seat.visitor)}/"
    for bad in ("?seat=7", "?seat=x", "?seat=", "?seat=%C2%B2", ""):
        assert ana.get(f"/game/{game.id}/player/{bad}").status_code == 404
    assert ana.get("/game/nothing/player/?seat=0").status_code == 404


def test_the_table_pages_names_lead_to_their_profiles():
    ana, _bo = two_online()
    table = lobby.create_table("ana")
    lobby.join_table("bo", table.code)
    page = ana.get(f"/t/{table.code}/").text
    assert f'href="/p/{pk("bo")}/">Bo</a>' in page and f'href="/p/{pk("ana")}/">Ana</a>' in page
