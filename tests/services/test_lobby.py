"""Going online, challenges, private tables, online turns, leaving out the absent, rematches."""

from __future__ import annotations

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import presence, services
from games.models import Game, Seat
from lobby.models import Challenge, Player, Table
from tests.clients import (
    FORM_POST,
    HTMX,
    client_for,
    finished_online_game,
    here,
    online,
    online_game,
    refusal_text,
)

pytestmark = pytest.mark.django_db


def test_going_online_and_names():
    ana = online("ana", "  Ana   Bel ")
    assert Player.objects.get(visitor="ana").name == "Ana Bel"
    assert "You are online as Ana Bel" in ana.get("/online/").text
    taken = client_for("other").post("/online/name/", {"name": "ana bel"})
    assert taken.status_code == 400
    assert "already called that" in taken.text
    for bad, reason in [("", "Enter a name"), ("x" * 25, "24 characters"), ("a\x00b", "control")]:
        refused = client_for("other").post("/online/name/", {"name": bad})
        assert refused.status_code == 400
        assert reason in refused.text
    # A profile lasts: Ana's name stays hers after she went offline.
    Player.objects.filter(visitor="ana").update(online_until=timezone.now())
    again = client_for("other").post("/online/name/", {"name": "Ana Bel"})
    assert again.status_code == 400 and "already called that" in again.text
    assert client_for("other").post("/online/name/", {"name": "Ana Belén"}).status_code == 302
    assert Player.objects.get(visitor="ana").name == "Ana Bel"


def test_names_are_text_in_the_lobby():
    online("evil", "<script>x</script>")
    page = online("ana", "Ana").get("/online/").text
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert "<script>x</script>" not in page


def test_challenge_accept_starts_a_game_for_both():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    bo_id = Player.objects.get(visitor="bo").pk
    assert "Bo" in ana.get("/online/").text
    assert ana.post("/online/challenge/", {"player": bo_id}).status_code == 302
    challenge = Challenge.objects.get()
    assert "Ana challenges you" in bo.get("/online/").text
    assert "Waiting for Bo to answer" in ana.get("/online/").text
    response = bo.post(f"/online/challenge/{challenge.pk}/accept/")
    assert response.status_code == 302
    game = Game.objects.get()
    assert response["Location"] == f"/game/{game.id}/"
    assert game.mode == Game.Mode.ONLINE and game.rules_key == "official"
    assert [(s.name, s.visitor) for s in game.ordered_seats()] == [("Ana", "ana"), ("Bo", "bo")]
    again = bo.post(f"/online/challenge/{challenge.pk}/accept/")
    assert again.status_code == 409
    assert "already been answered" in again.text
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    ("who", "verb", "change", "status", "message"),
    [
        ("bo", "accept", {"expires_at": timezone.now() - timedelta(seconds=1)}, 409, "expired"),
        ("bo", "accept", {"status": "cancelled"}, 409, "cancelled"),
        ("ana", "accept", {}, 403, "not yours"),
        ("bo", "cancel", {}, 403, "not yours"),
        ("stranger", "decline", {}, 403, "Choose a name"),
    ],
)
def test_bad_answers_change_nothing(who, verb, change, status, message):
    online("ana", "Ana")
    online("bo", "Bo")
    ana = Player.objects.get(visitor="ana")
    bo = Player.objects.get(visitor="bo")
    fields = {"expires_at": timezone.now() + timedelta(minutes=2)} | change
    challenge = Challenge.objects.create(challenger=ana, challenged=bo, **fields)
    before = Challenge.objects.values().get()
    response = client_for(who).post(f"/online/challenge/{challenge.pk}/{verb}/")
    assert response.status_code == status
    assert message in response.text
    assert Challenge.objects.values().get() == before
    assert not Game.objects.exists()


def test_decline_and_cancel():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    bo_id = Player.objects.get(visitor="bo").pk
    ana.post("/online/challenge/", {"player": bo_id})
    first = Challenge.objects.get()
    assert bo.post(f"/online/challenge/{first.pk}/decline/").status_code == 302
    ana.post("/online/challenge/", {"player": bo_id})
    second = Challenge.objects.exclude(pk=first.pk).get()
    assert ana.post(f"/online/challenge/{second.pk}/cancel/").status_code == 302
    statuses = sorted(Challenge.objects.values_list("status", flat=True))
    assert statuses == ["cancelled", "declined"]


def test_the_challenger_is_told_of_a_decline_for_a_minute():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    ana.post("/online/challenge/", {"player": Player.objects.get(visitor="bo").pk})
    challenge = Challenge.objects.get()
    waiting = ana.get("/online/").text
    assert "Waiting for Bo to answer" in waiting
    countdown = r'expires in <span class="countdown" data-deadline="[^"]+">[12]:\d\d</span>'
    assert re.search(countdown, waiting)
    bo.post(f"/online/challenge/{challenge.pk}/decline/")
    page = ana.get("/online/").text
    assert "Bo declined your challenge." in page
    assert "Waiting for Bo" not in page
    assert "Bo declined" not in bo.get("/online/").text  # only the challenger is told
    Challenge.objects.update(answered_at=timezone.now() - timedelta(seconds=61))
    assert "Bo declined" not in ana.get("/online/").text


def test_a_refused_name_stays_in_the_field_to_correct():
    online("ana", "Ana")
    refused = client_for("other").post("/online/name/", {"name": "ANA"})
    assert refused.status_code == 400
    assert 'value="ANA"' in refused.text
    assert '<p class="error" role="alert">' in refused.text


def test_a_browsers_refused_form_post_is_told_on_the_lobbys_own_address():
    """Without JavaScript the browser posts the form as a page load: the refusal sends it on to the
    lobby (303), which says why once and keeps the typed name, so a reload posts nothing again."""
    online("ana", "Ana")
    other = client_for("other")
    refused = other.post("/online/name/", {"name": "ANA"}, headers=FORM_POST)
    assert refused.status_code == 303
    assert refused["Location"] == "/online/?name=ANA"
    page = refusal_text(other, refused, 400)
    assert 'value="ANA"' in page and "already called that" in page
    again = other.get(refused["Location"]).text  # a reload: the page as it is, the name not kept
    assert 'role="alert"' not in again and 'value="ANA"' not in again
    assert other.get("/").status_code == 200 and not Player.objects.filter(visitor="other").exists()


def test_a_browsers_refused_table_post_is_told_on_the_tables_address():
    host = online("host", "Host")
    host.post("/table/new/")
    table = Table.objects.get()
    refused = host.post(f"/t/{table.code}/start/", headers=FORM_POST)  # alone at the table
    assert refused["Location"] == f"/t/{table.code}/"
    assert "Wait for at least one more player." in refusal_text(host, refused, 400)
    assert table.game_id is None


def test_challenge_refusals():
    ana = online("ana", "Ana")
    me = Player.objects.get(visitor="ana").pk
    assert ana.post("/online/challenge/", {"player": me}).status_code == 400
    online("bo", "Bo")
    bo = Player.objects.get(visitor="bo")
    Player.objects.filter(pk=bo.pk).update(online_until=timezone.now())
    assert ana.post("/online/challenge/", {"player": bo.pk}).status_code == 404
    assert ana.post("/online/challenge/", {"player": "x"}).status_code == 400
    assert client_for("nobody").post("/online/challenge/", {"player": me}).status_code == 403
    assert not Challenge.objects.exists()


def test_challenges_are_rate_limited(monkeypatch):
    from lobby import access

    monkeypatch.setattr(access, "rate_window", lambda: 1)  # one minute, even across its end
    ana = online("ana", "Ana")
    online("bo", "Bo")
    bo_id = Player.objects.get(visitor="bo").pk
    statuses = []
    for _ in range(12):
        statuses.append(ana.post("/online/challenge/", {"player": bo_id}).status_code)
        Challenge.objects.update(status="cancelled")
    assert statuses[:10] == [302] * 10
    assert statuses[10:] == [429, 429]
    assert "Too many requests" in ana.post("/online/challenge/", {"player": bo_id}).text


def test_private_table_join_and_start():
    host = online("host", "Host")
    response = host.post("/table/new/")
    table = Table.objects.get()
    assert response["Location"] == f"/t/{table.code}/"
    page = host.get(f"/t/{table.code}/").text
    assert table.code in page and "<svg" in page  # the code and its QR code
    assert "Waiting for at least one more player" in page
    assert host.post(f"/t/{table.code}/start/").status_code == 400
    guest = client_for("guest")  # no name yet: chooses one while joining
    assert guest.post(f"/t/{table.code}/join/", {"name": "Guest"}).status_code == 302
    assert guest.post(f"/t/{table.code}/start/").status_code == 403
    by_code = guest.post("/table/join/", {"code": table.code.lower()})
    assert by_code["Location"] == f"/t/{table.code}/"
    wrong = guest.post("/table/join/", {"code": "NOPE99"})
    assert wrong.status_code == 404
    assert "There is no table with that code." in wrong.text
    assert host.post(f"/t/{table.code}/start/").status_code == 302
    game = Game.objects.get()
    assert [s.name for s in game.ordered_seats()] == ["Host", "Guest"]
    assert guest.get(f"/t/{table.code}/")["Location"] == f"/game/{game.id}/"
    late = online("late", "Late")
    refused = late.post(f"/t/{table.code}/join/")
    assert refused.status_code == 409
    assert "already started" in refused.text


def test_joining_from_the_lobby_takes_a_seat_at_once():
    online("host", "Host").post("/table/new/")
    code = Table.objects.get().code
    assert (
        online("guest", "Guest").post("/table/join/", {"code": f" {code.lower()} "}).status_code
        == 302
    )
    assert [s.player.name for s in Table.objects.get().seats.all()] == ["Host", "Guest"]


def test_a_table_holds_six():
    online("host", "Host").post("/table/new/")
    code = Table.objects.get().code
    for n in range(5):
        assert online(f"p{n}", f"P{n}").post(f"/t/{code}/join/").status_code == 302
    refused = online("seventh", "Seventh").post(f"/t/{code}/join/")
    assert refused.status_code == 409
    assert "full" in refused.text
    assert Table.objects.get().seats.count() == 6
    assert client_for("x").get("/t/NOPE99/").status_code == 404


def test_online_turns_are_enforced():
    game, ana, bo = online_game()
    out_of_turn = bo.post(f"/game/{game.id}/roll/", {"step": 0, "held": "00000"}, headers=HTMX)
    assert "It is not your turn." in refusal_text(bo, out_of_turn, 400)
    plain = bo.post(f"/game/{game.id}/roll/", {"step": 0, "held": "00000"})
    assert "It is not your turn." in refusal_text(bo, plain, 400)
    stranger = client_for("stranger")
    refused = stranger.post(f"/game/{game.id}/roll/", {"step": 0}, headers=HTMX)
    assert "not yours" in refusal_text(stranger, refused, 403)
    assert ana.post(f"/game/{game.id}/roll/", {"step": 0, "held": "00000"}).status_code == 302
    game.refresh_from_db()
    assert game.actions.count() == 1
    page = bo.get(f"/game/{game.id}/").text
    assert "Ana is playing" in page
    assert 'ws-connect="/ws/game/' in page
    assert "?hint=1" not in ana.get(f"/game/{game.id}/").text  # no coach against people


def test_away_player_can_be_left_out_after_the_grace_period(settings):
    game, ana, bo = online_game()
    Seat.objects.filter(game=game, visitor="ana").update(
        present_until=timezone.now() + timedelta(seconds=30)
    )
    Seat.objects.filter(game=game, visitor="bo").update(present_until=timezone.now())
    early = ana.post(f"/game/{game.id}/leave-out/", {"seat": 1})
    assert "may come back" in refusal_text(ana, early, 409)
    page = ana.get(f"/game/{game.id}/").text
    assert "Bo is away." in page and "Continue without Bo" in page and "hidden" in page
    assert re.search(r'<span data-until="[^"]+">Time left to come back:', page)
    assert re.search(r'<span data-after-deadline="[^"]+" hidden>The time to come back is up', page)
    settings.AWAY_GRACE_SECONDS = 0
    # A page opened once the time is up (or without JavaScript) says so, without a countdown.
    over = ana.get(f"/game/{game.id}/").text
    assert re.search(r'<span data-until="[^"]+" hidden>Time left to come back:', over)
    assert re.search(
        r'<span data-after-deadline="[^"]+">The time to come back is up\.</span>', over
    )
    assert bo.post(f"/game/{game.id}/leave-out/", {"seat": 0}).status_code == 409  # Ana is here
    assert ana.post(f"/game/{game.id}/leave-out/", {"seat": 1}).status_code == 302
    game.refresh_from_db()
    assert game.forfeited == [1]
    assert game.replayed_state() == game.state()
    # Ana plays on alone: Bo's turns are skipped.
    for box in ["chance", "ones"]:
        game.refresh_from_db()
        ana.post(f"/game/{game.id}/roll/", {"step": game.step, "held": "00000"})
        ana.post(f"/game/{game.id}/score/", {"step": game.step + 1, "box": box})
    game.refresh_from_db()
    assert game.current_seat == 0
    assert game.state().cards[0].turns_played == 2


def test_ending_a_game_records_a_forfeit(settings):
    settings.AWAY_GRACE_SECONDS = 0
    game, ana, bo = online_game()
    Seat.objects.filter(game=game, visitor="ana").update(
        present_until=timezone.now() + timedelta(seconds=30)
    )
    assert ana.post(f"/game/{game.id}/leave-out/", {"seat": 1, "end": "1"}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    page = ana.get(f"/game/{game.id}/").text
    assert "Game over" in page and "(forfeit)" in page
    assert "You win!" in page  # Ana's own page
    assert "Winner: Ana" in bo.get(f"/game/{game.id}/").text


def test_rematch_starts_once_both_accept(settings):
    settings.AWAY_GRACE_SECONDS = 0
    game, ana, bo = online_game()
    Seat.objects.filter(game=game, visitor="ana").update(
        present_until=timezone.now() + timedelta(seconds=30)
    )
    ana.post(f"/game/{game.id}/leave-out/", {"seat": 1, "end": "1"})
    here(game, "bo")  # Bo comes back to the game's page
    assert ana.post(f"/game/{game.id}/rematch/").status_code == 302
    assert "waiting for the others" in ana.get(f"/game/{game.id}/").text
    assert "Accept the rematch (Ana asked)" in bo.get(f"/game/{game.id}/").text
    stranger = client_for("stranger")
    refused = stranger.post(f"/game/{game.id}/rematch/")
    assert "Choose a name first." in refusal_text(stranger, refused, 403)
    response = bo.post(f"/game/{game.id}/rematch/")
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == f"/game/{rematch.id}/"
    assert [s.visitor for s in rematch.ordered_seats()] == ["ana", "bo"]


def test_only_the_players_join_a_rematch(settings):
    game, ana, bo = finished_online_game(settings)
    ana.post(f"/game/{game.id}/rematch/")
    table = Table.objects.get(rematch_of=game)
    eve = online("eve", "Eve")
    refused = eve.post(f"/t/{table.code}/join/")
    assert refused.status_code == 403
    assert "Only the players of the last game" in refused.text
    assert ana.post(f"/t/{table.code}/start/").status_code == 404  # rematches start themselves
    bo.post(f"/game/{game.id}/rematch/")
    assert Game.objects.count() == 2


def test_a_rematch_offered_can_be_declined_and_its_offerer_sees_so(settings):
    game, ana, bo = finished_online_game(settings)
    ana.post(f"/game/{game.id}/rematch/")
    offered = bo.get(f"/game/{game.id}/").text
    assert "Accept the rematch (Ana asked)" in offered
    assert f'action="/game/{game.id}/rematch/decline/"' in offered
    assert ">Decline</button>" in offered
    assert ">Decline</button>" not in ana.get(f"/game/{game.id}/").text  # nothing to decline
    declined = bo.post(f"/game/{game.id}/rematch/decline/", headers=FORM_POST)
    assert declined.status_code == 302 and declined["Location"] == f"/game/{game.id}/"
    page = ana.get(f"/game/{game.id}/").text
    assert "Bo declined the rematch." in page and "waiting for the others" not in page
    assert f'action="/game/{game.id}/rematch/"' not in page
    assert "You declined the rematch." in bo.get(f"/game/{game.id}/").text
    spanish = ana.get(f"/game/{game.id}/", headers={"Accept-Language": "es"}).text
    assert "Bo ha rechazado la revancha." in spanish
    # Declined is over: neither a new offer nor a late accept starts a game.
    for who in (ana, bo):
        refused = who.post(f"/game/{game.id}/rematch/", headers=HTMX)
        assert refused.status_code == 409 and "Bo declined the rematch." in refused.text
    again = bo.post(f"/game/{game.id}/rematch/decline/", headers=HTMX)
    assert again.status_code == 409 and "Bo declined the rematch." in again.text
    assert Game.objects.count() == 1


def test_declining_a_rematch_is_refused_with_a_reason_when_there_is_none_to_decline(settings):
    game, ana, bo = finished_online_game(settings)
    decline = f"/game/{game.id}/rematch/decline/"
    refused = bo.post(decline, headers=HTMX)
    assert refused.status_code == 409 and "There is no rematch offer to decline." in refused.text
    ana.post(f"/game/{game.id}/rematch/")
    mine = ana.post(decline, headers=HTMX)
    assert mine.status_code == 409
    assert "You have accepted this rematch: there is nothing to decline." in mine.text
    stranger = online("eve", "Eve").post(decline, headers=HTMX)
    assert stranger.status_code == 403
    assert bo.get(decline).status_code == 405
    assert client_for("nobody").post("/game/nope/rematch/decline/").status_code == 404
    assert Table.objects.get(rematch_of=game).declined_by is None
    bo.post(f"/game/{game.id}/rematch/")
    started = Game.objects.exclude(pk=game.pk).get()
    late = bo.post(decline, headers=HTMX)
    assert late.status_code == 409 and "The rematch has already started." in late.text
    assert Table.objects.get(rematch_of=game).game == started


def test_no_rematch_is_offered_against_a_player_who_is_gone(settings):
    game, ana, bo = finished_online_game(settings)
    Seat.objects.filter(game=game, visitor="bo").update(present_until=timezone.now())
    page = ana.get(f"/game/{game.id}/").text
    assert "No rematch: Bo left the game." in page
    assert f'action="/game/{game.id}/rematch/"' not in page
    refused = ana.post(f"/game/{game.id}/rematch/", headers=HTMX)
    assert refused.status_code == 409 and "No rematch: Bo left the game." in refused.text
    assert not Table.objects.exists()
    spanish = ana.get(f"/game/{game.id}/", headers={"Accept-Language": "es"}).text
    assert "Sin revancha: Bo se ha ido de la partida." in spanish
    here(game, "bo")  # Bo opens the game's page again
    assert f'action="/game/{game.id}/rematch/"' in ana.get(f"/game/{game.id}/").text
    assert ana.post(f"/game/{game.id}/rematch/").status_code == 302


def test_a_player_without_a_page_open_who_asks_for_a_rematch_counts_as_here(settings):
    """Without JavaScript no socket says Bo's page is open; asking says he is here, until a
    page of his closes after that."""
    game, ana, bo = finished_online_game(settings)
    Seat.objects.filter(game=game, visitor="bo").update(present_until=None)
    assert "No rematch: Bo left the game." in ana.get(f"/game/{game.id}/").text
    assert bo.post(f"/game/{game.id}/rematch/", headers=FORM_POST).status_code == 302
    page = ana.get(f"/game/{game.id}/").text
    assert "Accept the rematch (Bo asked)" in page and ">Decline</button>" in page
    Seat.objects.filter(game=game, visitor="bo").update(present_until=timezone.now())
    assert "No rematch: Bo left the game." in ana.get(f"/game/{game.id}/").text


def test_a_player_without_javascript_who_asks_for_a_rematch_right_after_the_game_stays_here(
    settings,
):
    """Review of issue 29: a move keeps a seat here for a minute (games.presence.moved); that
    minute, running out after Bo asked, read as a page of his closing: the offer lapsed."""
    game, ana, bo = finished_online_game(settings)
    Seat.objects.filter(game=game, visitor="bo").update(present_until=None)
    presence.moved(game, Seat.objects.get(game=game, visitor="bo"))  # his last, posted score
    assert bo.post(f"/game/{game.id}/rematch/", headers=FORM_POST).status_code == 302
    later = timezone.now() + presence.PRESENCE_WINDOW + timedelta(seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        page = ana.get(f"/game/{game.id}/").text
        assert "Accept the rematch (Bo asked)" in page and "No rematch" not in page
        assert ana.post(f"/game/{game.id}/rematch/").status_code == 302
    assert Game.objects.exclude(pk=game.pk).count() == 1  # the rematch started


def test_crossed_challenges_start_one_game():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    ana.post("/online/challenge/", {"player": Player.objects.get(visitor="bo").pk})
    bo.post("/online/challenge/", {"player": Player.objects.get(visitor="ana").pk})
    from_ana = Challenge.objects.get(challenger__visitor="ana")
    from_bo = Challenge.objects.get(challenger__visitor="bo")
    assert bo.post(f"/online/challenge/{from_ana.pk}/accept/").status_code == 302
    late = ana.post(f"/online/challenge/{from_bo.pk}/accept/")
    assert late.status_code == 409
    assert "cancelled" in late.text
    assert Game.objects.count() == 1


def test_the_host_may_type_the_code_in_lower_case():
    host = online("host", "Host")
    host.post("/table/new/")
    table = Table.objects.get()
    online("guest", "Guest").post(f"/t/{table.code}/join/")
    assert host.post(f"/t/{table.code.lower()}/start/").status_code == 302
    assert Game.objects.count() == 1


def continue_buttons(page: str) -> dict[str, tuple[str, str]]:
    """A page's Continue buttons by game id: their kind (primary, secondary) and their words."""
    found = re.findall(
        r'class="button continue (\w+)" href="/game/([\w-]+)/">(.*?)</a>', page, re.S
    )
    return {
        game: (kind, " ".join(re.sub(r"<[^>]+>", " ", words).split()))
        for kind, game, words in found
    }


def test_each_continue_button_says_who_whose_turn_and_the_pace():
    """Two identical "Continue: Ana, Bo · round 1" buttons, one live and one at your own pace,
    each with the player's own name, all in the same red (issue 29)."""
    live, ana, bo = online_game()
    bo_id = Player.objects.get(visitor="bo").pk
    ana.post("/online/challenge/", {"player": bo_id, "pace": "own"})
    bo.post(f"/online/challenge/{Challenge.objects.get(status='pending').pk}/accept/")
    own = Game.objects.exclude(pk=live.pk).get()
    for game in (live, own):  # a turn played where it would be Bo's turn in the live game
        first = game.ordered_seats()[game.current_seat].visitor
        if (game == live) == (first == "bo"):
            game = services.perform(game.id, first, "roll", {}, game.step)
            box = next(iter(game.state().options()))
            services.perform(game.id, first, "score", {"box": box}, game.step)
    for game in (live, own):
        game.refresh_from_db()
    assert live.ordered_seats()[live.current_seat].visitor == "ana"
    assert own.ordered_seats()[own.current_seat].visitor == "bo"
    home = continue_buttons(ana.get("/").text)
    assert home[live.id][0] == "primary" and home[own.id][0] == "secondary"
    assert re.fullmatch(r"Continue: Bo · round \d Your turn · live", home[live.id][1])
    assert re.fullmatch(r"Continue: Bo · round \d Their turn · at your own pace", home[own.id][1])
    # The lobby lists the games waiting for the player: Bo's at their own pace, secondary.
    lobby = continue_buttons(bo.get("/online/").text)
    assert list(lobby) == [own.id]
    assert lobby[own.id][0] == "secondary"
    assert re.fullmatch(r"Continue: Ana · round \d Your turn · at your own pace", lobby[own.id][1])
    spanish = continue_buttons(bo.get("/online/", headers={"Accept-Language": "es"}).text)
    assert re.fullmatch(r"Seguir: Ana · ronda \d Tu turno · a tu ritmo", spanish[own.id][1])
