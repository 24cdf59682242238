"""The tournament pages (issue 31): the list, the "new tournament" form, a tournament's page and
its buttons, each refusal a 4xx with its reason in the page's language, everything working as
plain forms without JavaScript; the tournament above a tournament game, and the tournaments a
profile played on its page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Seat
from groups.models import Group, Membership
from lobby.models import Player
from tests.clients import FORM_POST, HTMX, client_for, online, refusal_text
from tests.factories import act
from tournaments import clock, presenters, services
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.services import TournamentOptions

pytestmark = pytest.mark.django_db

ES = {"HTTP_ACCEPT_LANGUAGE": "es"}


def make(visitor: str = "ana", **options) -> Tournament:
    fields = {"name": "Friday", "format": "arena", "minutes": 30} | options
    return services.create(visitor, TournamentOptions(**fields))


def page_of(tournament: Tournament) -> str:
    return f"/tournament/{tournament.pk}/"


def form(**fields) -> dict:
    """What the "new tournament" form posts, as a browser fills it by default."""
    return {
        "name": "Friday night",
        "format": "arena",
        "group": "",
        "start": "now",
        "starts_at": "",
        "minutes": "30",
        "rounds": "5",
        "best_of": "1",
        "turn_seconds": "60",
        "entry_fee": "0",
        "capacity": "32",
        "computer": "",
    } | fields


def test_the_form_makes_a_tournament_and_shows_its_page():
    ana = online("ana", "Ana")
    assert ana.get("/tournaments/new/").status_code == 200
    answer = ana.post("/tournaments/new/", form(listed="on", berserk="on", rated="on"))
    made = Tournament.objects.get()
    assert answer.status_code == 302 and answer["Location"] == page_of(made)
    assert (made.name, made.format, made.minutes, made.turn_seconds) == (
        "Friday night",
        "arena",
        30,
        60,
    )
    assert made.listed and made.berserk and made.rated and made.maker.visitor == "ana"
    page = ana.get(page_of(made)).text
    assert "Friday night" in page and "Starts in" in page and 'data-deadline="' in page
    # The link to share is on the page without JavaScript, as a link.
    assert re.search(rf'<a href="http://testserver{page_of(made)}">', page)


def test_options_of_another_format_are_left_out_and_a_time_is_read_in_the_browsers_zone():
    ana = online("ana", "Ana")
    when = timezone.now() + timedelta(hours=3)
    local = (when - timedelta(minutes=-120)).strftime("%Y-%m-%dT%H:%M")  # UTC+2's clock
    fields = form(format="swiss", berserk="on", best_of="3", rounds="4", start="at")
    ana.post("/tournaments/new/", fields | {"starts_at": local, "offset": "-120"})
    made = Tournament.objects.get()
    assert (made.format, made.rounds, made.best_of, made.berserk, made.minutes) == (
        "swiss", 4, 3, False, None,
    )  # fmt: skip
    assert abs(made.starts_at - when) < timedelta(minutes=1)


@pytest.mark.parametrize(
    ("fields", "english", "spanish"),
    [
        ({"name": "   "}, "Give the tournament a name.", "Ponle un nombre al torneo."),
        ({"format": "knockout"}, "Select a valid choice.", "Escoja una opción válida."),
        ({"rounds": "99", "format": "swiss"}, "less than or equal to 15", "menor o igual a 15"),
        ({"entry_fee": "-1"}, "greater than or equal to 0", "mayor o igual a 0"),
        ({"entry_fee": "2.5"}, "Enter a whole number.", "Introduzca un número entero."),
        ({"turn_seconds": "45"}, "Select a valid choice.", "Escoja una opción válida."),
        ({"start": "at"}, "Choose when it starts.", "Elige cuándo empieza."),
        (
            {"start": "at", "starts_at": "2020-01-01T10:00"},
            "That time has passed: choose a later one.",
            "Esa hora ya ha pasado: elige una posterior.",
        ),
        ({"capacity": "1"}, "greater than or equal to 2", "mayor o igual a 2"),
    ],
)
def test_a_bad_form_is_refused_with_its_reason_in_the_pages_language(fields, english, spanish):
    ana = online("ana", "Ana")
    answer = ana.post("/tournaments/new/", form(**fields))
    assert answer.status_code == 400 and english in answer.text
    assert "Check the form" in answer.text
    answer = ana.post("/tournaments/new/", form(**fields), **ES)
    assert answer.status_code == 400 and spanish in answer.text
    assert not Tournament.objects.exists()


def test_what_only_the_domain_knows_is_refused_over_the_form_kept_as_typed():
    ana = online("ana", "Ana")
    bo = online("bo", "Bo")
    theirs = Group.objects.create(name="Cousins", owner=Player.objects.get(visitor="bo"))
    answer = ana.post("/tournaments/new/", form(name="Mine", group=theirs.pk))
    assert answer.status_code == 400 and "Select a valid choice." in answer.text  # not offered
    assert bo.get("/tournaments/new/").status_code == 200
    nobody = client_for("nobody")
    answer = nobody.post("/tournaments/new/", form())
    assert answer.status_code == 403 and "Choose a name first." in answer.text
    assert 'value="Friday night"' in answer.text  # the form as it was filled
    answer = nobody.post("/tournaments/new/", form(), **ES)
    assert answer.status_code == 403 and "Primero elige un nombre." in answer.text
    assert not Tournament.objects.exists()


def ana_player() -> Player:
    return Player.objects.get(visitor="ana")


def test_a_groups_members_are_offered_their_groups():
    ana = online("ana", "Ana")
    group = Group.objects.create(name="Cousins", owner=ana_player())
    Membership.objects.create(group=group, player=ana_player())
    assert "Cousins" in ana.get("/tournaments/new/").text
    ana.post("/tournaments/new/", form(group=group.pk))
    assert Tournament.objects.get().group == group
    assert "for the group Cousins" in ana.get(page_of(Tournament.objects.get())).text


def test_the_list_shows_listed_tournaments_yours_and_your_groups():
    online("ana", "Ana")
    bo = online("bo", "Bo")
    listed = make(name="Open night", listed=True)
    hidden = make(name="Just us")
    services.join(hidden.pk, "bo")
    page = bo.get("/tournaments/").text
    assert "Open night" in page and "Just us" in page  # listed; and Bo's own
    stranger = online("cy", "Cy").get("/tournaments/").text
    assert "Open night" in stranger and "Just us" not in stranger
    assert "Torneos" in client_for("x").get("/tournaments/", **ES).text
    assert listed.pk in page


def test_joining_then_joining_again_is_refused_on_each_path_in_both_languages():
    online("ana", "Ana")
    bo = online("bo", "Bo")
    tournament = make()
    answer = bo.post(f"{page_of(tournament)}join/", headers=FORM_POST)
    assert answer.status_code == 302 and answer["Location"] == page_of(tournament)
    assert Entry.objects.filter(tournament=tournament, player__visitor="bo").exists()
    page = bo.get(page_of(tournament)).text
    assert "You are in." in page and ">Leave<" in page and ">Join<" not in page
    # Its socket is told what its own parts were drawn for (redrawn on connecting if changed).
    assert f'ws-connect="/ws/tournament/{tournament.pk}/?status=upcoming&amp;state=%7Cin"' in page
    # Joining again: a plain form post is sent on to the page, which says why once (303).
    again = bo.post(f"{page_of(tournament)}join/", headers=FORM_POST)
    assert "You are in this tournament already." in refusal_text(bo, again, 409)
    again = bo.post(f"{page_of(tournament)}join/", headers=HTMX)
    assert again.status_code == 409 and "You are in this tournament already." in again.text
    assert "hx-swap-oob" in again.text
    again = bo.post(f"{page_of(tournament)}join/", headers=HTMX, **ES)
    assert again.status_code == 409 and "Ya estás en este torneo." in again.text
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_someone_without_a_profile_joins_by_choosing_a_name():
    tournament = make_with_maker()
    stranger = client_for("cy")
    assert 'name="name"' in stranger.get(page_of(tournament)).text
    stranger.post(f"{page_of(tournament)}join/", {"name": "Cy"})
    assert Entry.objects.get(tournament=tournament).player.name == "Cy"
    refused = client_for("dee").post(f"{page_of(tournament)}join/", headers=HTMX)
    assert refused.status_code == 403 and "Choose a name first." in refused.text


def make_with_maker() -> Tournament:
    online("ana", "Ana")
    return make()


def test_a_full_or_finished_tournament_refuses_a_join():
    online("ana", "Ana")
    bo, cy = online("bo", "Bo"), online("cy", "Cy")
    tournament = make(capacity=2)
    services.join(tournament.pk, "ana")
    bo.post(f"{page_of(tournament)}join/")
    full = cy.post(f"{page_of(tournament)}join/", headers=HTMX)
    assert full.status_code == 409 and "This tournament is full." in full.text
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    over = cy.post(f"{page_of(tournament)}join/", headers=HTMX, **ES)
    assert over.status_code == 409 and "Este torneo ha terminado." in over.text


def test_leaving_before_the_start_and_pausing_an_arena():
    online("ana", "Ana")
    bo = online("bo", "Bo")
    tournament = make()
    services.join(tournament.pk, "bo")
    bo.post(f"{page_of(tournament)}pause/")
    assert Entry.objects.get(player__visitor="bo").status == Entry.Status.PAUSED
    assert ">Come back<" in bo.get(page_of(tournament)).text
    again = bo.post(f"{page_of(tournament)}pause/", headers=HTMX)
    assert again.status_code == 409 and "You have paused already." in again.text
    bo.post(f"{page_of(tournament)}come-back/")
    bo.post(f"{page_of(tournament)}leave/")
    assert Entry.objects.get(player__visitor="bo").status == Entry.Status.LEFT
    gone = bo.post(f"{page_of(tournament)}leave/", headers=HTMX)
    assert gone.status_code == 409 and "You are not in this tournament." in gone.text


def test_only_the_maker_starts_it_or_adds_the_computer():
    ana = online("ana", "Ana")
    bo = online("bo", "Bo")
    tournament = make()
    page = bo.get(page_of(tournament)).text
    assert "Start now" not in page and "Add the computer" not in page
    refused = bo.post(f"{page_of(tournament)}computer/", {"strength": "club"}, headers=HTMX)
    assert refused.status_code == 403 and "Only the tournament" in refused.text
    assert "Start now" in ana.get(page_of(tournament)).text
    bad = ana.post(f"{page_of(tournament)}computer/", {"strength": "god"}, headers=HTMX)
    assert bad.status_code == 400 and "strengths offered" in bad.text
    ana.post(f"{page_of(tournament)}computer/", {"strength": "club"})
    page = ana.get(page_of(tournament)).text
    assert "Computer (club player)" in page


def test_an_unknown_tournament_is_a_404_and_a_get_of_a_button_a_405():
    client = client_for("x")
    assert client.get("/tournament/nope/").status_code == 404
    assert client.post("/tournament/nope/join/", headers=HTMX).status_code == 404
    assert client.get("/tournament/nope/join/").status_code == 405


def started_arena() -> tuple[Tournament, TournamentGame]:
    """Ana made an arena with berserk that Bo and Cy joined; it has started, and paired them."""
    for visitor, name in (("ana", "Ana"), ("bo", "Bo"), ("cy", "Cy")):
        online(visitor, name)
    tournament = make(berserk=True)
    services.join(tournament.pk, "bo")
    services.join(tournament.pk, "cy")
    services.start_now(tournament.pk, "ana")
    return tournament, TournamentGame.objects.select_related("game").first()


def test_standings_games_under_way_and_the_game_pages_panel_with_berserk():
    tournament, row = started_arena()
    bo = client_for("bo")
    page = bo.get(page_of(tournament)).text
    assert "Under way" in page and "Ends in" in page
    assert f'href="/game/{row.game_id}/">Watch<' in page  # one tap to watch
    assert "Games under way" in page
    assert "Bo – Cy" in page or "Cy – Bo" in page
    assert "Your game is on: open it" in page
    game_page = bo.get(f"/game/{row.game_id}/").text
    assert "Back to the tournament Friday" in game_page and ">Berserk<" in game_page
    watcher = client_for("x").get(f"/game/{row.game_id}/").text
    assert "Back to the tournament Friday" in watcher and ">Berserk<" not in watcher
    answer = bo.post(f"{page_of(tournament)}berserk/", {"back": "game"})
    assert answer.status_code == 302 and answer["Location"] == f"/game/{row.game_id}/"
    assert Seat.objects.get(game_id=row.game_id, visitor="bo").berserk
    game_page = bo.get(f"/game/{row.game_id}/").text
    assert (
        ">Berserk<" not in game_page.split("</form>")[0] or "<strong>Berserk</strong>" in game_page
    )
    again = bo.post(f"{page_of(tournament)}berserk/", headers=HTMX)
    assert again.status_code == 409 and "You have gone berserk already." in again.text


def test_a_game_not_of_a_tournament_has_no_tournament_panel():
    from tests.clients import online_game

    game, ana, _ = online_game()
    assert "Back to the tournament" not in ana.get(f"/game/{game.id}/").text


def test_the_profile_lists_the_tournaments_played():
    tournament, row = started_arena()
    bo = Player.objects.get(visitor="bo")
    page = client_for("x").get(f"/p/{bo.pk}/").text
    assert "Tournaments" in page and f'href="{page_of(tournament)}">Friday<' in page
    ana = Player.objects.get(visitor="ana")  # made it, did not play
    assert "No tournaments played yet." in client_for("x").get(f"/p/{ana.pk}/").text
    spanish = client_for("x").get(f"/p/{bo.pk}/", **ES).text
    assert "Torneos" in spanish


def test_the_end_shows_a_podium_and_each_players_games():
    tournament, row = started_arena()
    seat = Seat.objects.get(game_id=row.game_id, visitor="bo")
    from games import services as games

    games.resign(row.game_id, "bo", seat.position)
    Tournament.objects.filter(pk=tournament.pk).update(
        ends_at=timezone.now() - timedelta(seconds=1)
    )
    clock.advance(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    page = client_for("x").get(page_of(tournament)).text
    assert 'class="podium"' in page and "Each player’s games" in page
    assert "Cy" in page.split('class="podium"')[1].split("</ol>")[0]
    assert "won" in page and "see the game" in page
    assert Game.objects.get(pk=row.game_id).status == Game.Status.FINISHED


def test_a_groups_page_lists_its_tournaments_and_makes_one_for_it():
    ana = online("ana", "Ana")
    group = Group.objects.create(name="Cousins", owner=ana_player())
    Membership.objects.create(group=group, player=ana_player())
    page = ana.get(f"/groups/{group.pk}/").text
    assert "The group has no tournaments yet." in page
    new = re.search(r'href="(/tournaments/new/\?group=[^"]+)"', page)[1]
    assert f'<option value="{group.pk}" selected>Cousins</option>' in ana.get(new).text
    make(name="Cousins cup", group_id=group.pk)
    make(name="Not theirs")
    page = ana.get(f"/groups/{group.pk}/").text
    assert "Cousins cup" in page and "Arena · Yahtzee · 0 players" in page
    assert "Not theirs" not in page


def test_berserk_after_the_first_roll_is_refused_with_its_reason():
    tournament, row = started_arena()
    game = row.game
    game.refresh_from_db()
    mover = next(s.visitor for s in game.ordered_seats() if s.position == game.current_seat)
    act(game, "roll", mover, dice=[1, 2, 3, 4, 5])
    page = client_for(mover).get(f"/game/{game.id}/").text
    assert "Back to the tournament" in page and ">Berserk<" not in page  # no longer offered
    refused = client_for(mover).post(f"{page_of(tournament)}berserk/", headers=HTMX)
    assert (
        refused.status_code == 400 and "Berserk is chosen before your first roll." in refused.text
    )
    assert not Seat.objects.get(game=game, visitor=mover).berserk


def test_the_form_is_worded_in_the_pages_language():
    page = online("ana", "Ana").get("/tournaments/new/", **ES).text
    assert ">30 minutos<" in page and ">60 segundos<" in page and ">Arena<" in page
    assert ">30 minutes<" not in page


def test_a_big_arena_lists_its_leaders_games_and_counts_the_rest(monkeypatch):
    tournament, row = started_arena()
    monkeypatch.setattr(presenters, "GAMES_SHOWN", 0)
    page = client_for("x").get(page_of(tournament)).text
    assert "And 1 more game: each player's is in the standings." in page.replace("&#x27;", "'")
    assert f'href="/game/{row.game_id}/">Watch<' in page  # still one tap away, in the standings


def test_watching_a_game_is_said_as_watching_in_spanish():
    tournament, row = started_arena()
    page = client_for("x").get(page_of(tournament), **ES).text
    assert f'href="/game/{row.game_id}/">Mirar<' in page


def test_adding_the_computer_leaves_the_makers_buttons_as_they_are():
    ana = online("ana", "Ana")
    tournament = make()
    added = ana.post(f"{page_of(tournament)}computer/", {"strength": "beginner"}, headers=HTMX)
    assert added.status_code == 200 and "Computer (beginner)" in added.text
    assert 'id="t-controls"' not in added.text  # the strength being chosen next stays


def test_a_tournaments_status_reads_as_one_tournaments_in_spanish():
    tournament = make_with_maker()
    page = client_for("x").get(page_of(tournament), **ES).text
    assert '<h2 id="t-status-title">Próximo</h2>' in page


def test_the_podium_is_of_people_placed_among_people_as_the_prizes_are():
    """Computers that finish ahead (the maker's, entered to fill seats) never win a prize: the
    podium shows the people, the best of them first, as the pot is paid (results.pay_prizes)."""

    def row(rank: int, name: str, computer: bool = False, left: bool = False) -> dict:
        return {"rank": rank, "name": name, "computer": computer, "left": left, "games": 3}

    table = [
        row(1, "Computer (beginner)", computer=True),
        row(2, "Computer (club player)", computer=True),
        row(3, "Bo"),
        row(3, "Cy"),
        row(5, "Di", left=True),
        row(6, "Ed"),
        row(7, "Flo"),
    ]
    placed = [(entry["place"], entry["name"]) for entry in presenters.podium_of(table)]
    assert placed == [(1, "Bo"), (1, "Cy"), (3, "Ed")]
