"""Lasting player profiles: one name each, a session that lasts, other devices, the profile page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.sessions.backends.cached_db import SessionStore as CachedSession
from django.core.cache import caches
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.rating import Rating
from lobby import access
from lobby.models import Player, RatingChange
from profiles import services
from profiles.models import Browser, DeviceCode
from tests.clients import client_for, finished_online_game, online


@pytest.mark.django_db(transaction=True)
def test_profiles_that_shared_a_name_get_one_each():
    """Before profiles, names were unique only among players online: the newest keeps it."""
    executor = MigrationExecutor(connection)
    executor.migrate([("lobby", "0004_name_key_look_alike")])
    old = executor.loader.project_state([("lobby", "0004_name_key_look_alike")]).apps
    Player = old.get_model("lobby", "Player")
    now = timezone.now()
    for visitor, name, key, seen in [
        ("a", "Ana", "ana", now - timedelta(days=3)),
        ("b", "ANA", "ana", now),  # online last: keeps the name
        ("c", "Ana", "ana", None),  # never online since the field came
        ("d", "Ana 2", "ana 2", now - timedelta(days=9)),  # the number a duplicate would get
        ("e", "x" * 24, "x" * 24, now),
        ("f", "X" * 24, "x" * 24, now - timedelta(days=1)),
    ]:
        Player.objects.create(visitor=visitor, name=name, name_key=key, online_until=seen)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    names = dict(Player.objects.values_list("visitor", "name"))
    assert names == {
        "b": "ANA", "d": "Ana 2", "a": "Ana 3", "c": "Ana 4", "e": "x" * 24, "f": "X" * 22 + " 2",
    }  # fmt: skip


# --- The profile page -------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


def code_from(page: str) -> str:
    """The one-time code a profile page shows, as the player reads it ("ABCDE-FGHJK")."""
    found = re.search(r'<p class="code"><strong>([A-Z0-9]{5}-[A-Z0-9]{5})</strong>', page)
    assert found, page[-3000:]
    return found[1]


def profile_url(visitor: str) -> str:
    return reverse("profiles:profile", args=[Player.objects.get(visitor=visitor).pk])


@pytestmark_db
def test_going_online_makes_a_profile_that_everyone_can_see():
    ana = online("ana", "Ana")
    mine = ana.get("/me/")
    assert mine.status_code == 302 and mine["Location"] == profile_url("ana")
    page = ana.get(mine["Location"]).text
    assert "<h1>Ana</h1>" in page
    for shown in ("Unranked", "1500?", "± 500", "Member since", "No ranked games yet."):
        assert shown in page, shown
    assert "Use on another device" in page and "this browser" in page
    public = client_for("bo").get(profile_url("ana")).text
    assert "<h1>Ana</h1>" in public and "1500?" in public
    assert "Use on another device" not in public and "Browsers signed in" not in public
    spanish = ana.get(profile_url("ana"), headers={"Accept-Language": "es"}).text
    for shown in ("Sin clasificar", "Miembro desde", "Usar en otro dispositivo"):
        assert shown in spanish, shown


@pytestmark_db
def test_without_a_profile_the_page_says_how_to_get_one():
    page = Client().get("/me/")
    assert page.status_code == 200
    assert "Choose a name" in page.text and "Already have a profile on another device?" in page.text


@pytestmark_db
@pytest.mark.parametrize("typed", ["bel", "BEL", " ana ", "Bél", "AIi", "ᎪNA"])  # Cherokee Ꭺ
def test_players_are_found_by_part_of_a_name(typed):
    """The search needed the exact full name (issue 29): any part will do, in any capitals, or
    a look-alike of it; an accent is not a look-alike ("Bél" finds only the "Bél" of "Abél")."""
    online("ana", "Ana Bel")
    online("ali", "Ali Baba")
    online("abel", "Abél")
    online("bo", "Bo")
    found = Client().get("/players/", {"name": typed})
    assert found.status_code == 200
    names = re.findall(r'<li><a href="/p/\d+/">([^<]+)</a></li>', found.text)
    expected = {
        "bel": ["Ana Bel"], "BEL": ["Ana Bel"], "ana": ["Ana Bel"], "Bél": ["Abél"],
        "AIi": ["Ali Baba"], "ᎪNA": ["Ana Bel"],
    }  # fmt: skip
    assert names == expected[typed.strip()]
    assert f"Names with “{typed}”" in found.text


@pytestmark_db
def test_a_player_is_found_by_name_and_unknown_ones_are_told():
    online("ana", "Ana Bel")
    found = Client().get("/players/", {"name": "  ANA bel "})
    assert found.status_code == 302 and found["Location"] == profile_url("ana")
    online("ivo", "Ivo")  # the whole name, in other capitals: the profile at once
    assert Client().get("/players/", {"name": "iVO"})["Location"] == profile_url("ivo")
    missing = Client().get("/players/", {"name": "Nobody"})
    assert missing.status_code == 404 and "Nobody is called that." in missing.text
    assert Client().get("/players/", {"name": " "}).status_code == 400
    no_such = Client().get("/p/99999/")
    assert no_such.status_code == 404 and "There is no such player." in no_such.text


@pytestmark_db
def test_a_profile_lists_its_last_games_online(settings):
    game, ana, _bo = finished_online_game(settings)
    page = ana.get(profile_url("ana")).text
    games = page[page.index("Last games online") :]
    assert "Bo" in games and reverse("games:play", args=[game.id]) in games
    assert "Won" in games  # Bo was left out and the game ended: Ana wins
    assert "Left" in client_for("bo").get(profile_url("bo")).text


@pytestmark_db
def test_the_rating_chart_draws_each_rated_game():
    from games.models import Game

    online("ana", "Ana")
    ana = Player.objects.get(visitor="ana")
    for before, after in [(1500, 1741), (1741, 1690), (1690, 1712)]:
        game = Game.objects.create(mode=Game.Mode.ONLINE, ranked=True)
        RatingChange.objects.create(
            player=ana, game=game, value_before=before, value_after=after, deviation_after=300,
            score=1.0 if after > before else 0.0,
        )  # fmt: skip
    page = Client().get(profile_url("ana")).text
    points = re.search(r'<polyline points="([^"]+)"', page)[1].split()
    assert len(points) == 4  # the start and one point after each game
    ys = [float(point.split(",")[1]) for point in points]
    assert ys[1] < ys[3] < ys[2] < ys[0]  # higher rating, higher on the chart (smaller y)
    assert "The last 3 ranked games: from 1500 to 1712 (best 1741)." in page


# --- Another device ---------------------------------------------------------------------------


@pytestmark_db
def test_a_one_time_code_signs_in_another_browser():
    laptop = online("ana", "Ana")
    made = laptop.post("/me/code/")
    assert made.status_code == 200 and "no-store" in made["Cache-Control"]
    code = code_from(made.text)
    assert f"/sign-in/{code.replace('-', '')}/" in made.text and "<svg" in made.text
    assert not DeviceCode.objects.filter(digest__contains=code.replace("-", "")).exists()

    phone = Client()
    asked = phone.get(f"/sign-in/{code.replace('-', '')}/")
    assert asked.status_code == 200 and "Use this browser as <strong>Ana</strong>?" in asked.text
    signed = phone.post("/sign-in/", {"code": code.lower().replace("-", " ")})
    assert signed.status_code == 302 and signed["Location"] == profile_url("ana")
    page = phone.get(signed["Location"]).text
    assert "This browser is now signed in as Ana." in page and "Use on another device" in page
    assert "You are online as Ana" in phone.get("/online/").text
    assert page.count("<li>") >= 2  # both browsers are listed
    assert phone.cookies["sessionid"].value != laptop.cookies["sessionid"].value

    again = Client().post("/sign-in/", {"code": code})
    assert again.status_code == 400 and "does not work" in again.text


@pytestmark_db
def test_old_expired_and_wrong_codes_do_nothing():
    laptop = online("ana", "Ana")
    first = code_from(laptop.post("/me/code/").text)
    second = code_from(laptop.post("/me/code/").text)
    assert "does not work" in Client().post("/sign-in/", {"code": first}).text  # replaced
    DeviceCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    stranger = Client()
    expired = stranger.post("/sign-in/", {"code": second})
    assert expired.status_code == 400 and "does not work" in expired.text
    assert stranger.get("/me/").status_code == 200  # still nobody: the page of how to get one
    for bad in ("", "x", "<b>", "A" * 500):
        refused = Client().post("/sign-in/", {"code": bad})
        assert refused.status_code == 400, bad
    assert Client().get("/sign-in/NOTACODE12/").status_code == 400
    same = code_from(laptop.post("/me/code/").text)
    told = laptop.post("/sign-in/", {"code": same})
    assert told.status_code == 400 and "already signed in" in told.text


@pytestmark_db
def test_guessing_codes_meets_the_rate_limit(monkeypatch):
    monkeypatch.setattr(access, "rate_window", lambda: 1)  # one minute, even across its end
    guesser = client_for("guesser")
    answers = [guesser.post("/sign-in/", {"code": f"AAAAA{n:05}"}).status_code for n in range(11)]
    assert answers[:10] == [400] * 10 and answers[10] == 429


@pytestmark_db
@pytest.mark.parametrize("by_link", [False, True])
def test_a_browser_with_no_identity_yet_meets_the_limit_on_guesses_too(monkeypatch, by_link):
    """It was counted only by its address, and not at all behind a proxy left out of
    TRUSTED_PROXIES (its address is then the proxy's, on this machine: not counted): unlimited."""
    monkeypatch.setattr(access, "rate_window", lambda: 1)
    guesser = Client()  # keeps its cookies, as a browser does
    answers = [
        (
            guesser.get(f"/sign-in/AAAAA{n:05}/")
            if by_link
            else guesser.post("/sign-in/", {"code": f"AAAAA{n:05}"})
        ).status_code
        for n in range(11)
    ]
    assert answers[:10] == [400] * 10 and answers[10] == 429
    assert "Too many requests" in guesser.post("/sign-in/", {"code": "AAAAA99999"}).text


@pytestmark_db
def test_codes_and_signing_out_need_a_profile():
    for path in ("/me/code/", "/me/sign-out-others/"):
        refused = client_for("nobody").post(path)
        assert refused.status_code == 403 and "Choose a name first" in refused.text, path
    assert not DeviceCode.objects.exists()


@pytestmark_db
def test_signing_out_the_other_browsers():
    laptop = online("ana", "Ana")
    phone = Client()
    phone.post("/sign-in/", {"code": code_from(laptop.post("/me/code/").text)})
    assert Browser.objects.filter(player__visitor="ana").count() == 2
    done = laptop.post("/me/sign-out-others/")
    assert done.status_code == 302
    assert "Signed out of 1 other browser." in laptop.get(done["Location"], follow=True).text
    assert phone.get("/me/").status_code == 200  # the phone is nobody now
    assert "Choose a name to go online" in phone.get("/online/").text
    assert "You are online as Ana" in laptop.get("/online/").text
    assert Browser.objects.filter(player__visitor="ana").count() == 1


@pytestmark_db
def test_a_session_cached_again_while_the_others_are_signed_out_is_gone_after_it(
    django_capture_on_commit_callbacks, monkeypatch, settings
):
    """Review of issue 29: the phone's request, in the sign-out's transaction, reads its session
    row (not yet deleted for it) and caches it again for a year; the phone stayed signed in."""
    laptop = online("ana", "Ana")
    phone = Client()
    phone.post("/sign-in/", {"code": code_from(laptop.post("/me/code/").text)})
    key = phone.cookies["sessionid"].value
    row = CachedSession(key).load()
    signed_out = services.notify.signed_out

    def racing(*args):  # the phone's request, inside the sign-out's window
        caches[settings.SESSION_CACHE_ALIAS].set(CachedSession(key).cache_key, row, 3600)
        signed_out(*args)

    monkeypatch.setattr(services.notify, "signed_out", racing)
    with django_capture_on_commit_callbacks(execute=True):
        laptop.post("/me/sign-out-others/")
    assert not CachedSession().exists(key)
    assert "Choose a name to go online" in phone.get("/online/").text


@pytestmark_db
def test_a_session_from_before_browsers_were_listed_is_signed_out_too():
    laptop = online("ana", "Ana")
    old = client_for("ana")  # a session of Ana's made before sessions were recorded
    Browser.objects.filter(player__visitor="ana").exclude(
        session_key=laptop.cookies["sessionid"].value
    ).delete()
    laptop.post("/me/sign-out-others/")
    assert "Choose a name to go online" in old.get("/online/").text
    # Before any signing out, such a session is kept and recorded on its first request.
    Player.objects.filter(visitor="ana").update(others_signed_out_at=None)
    kept = client_for("ana")
    assert "You are online as Ana" in kept.get("/online/").text
    assert Browser.objects.filter(session_key=kept.session.session_key).exists()


@pytestmark_db
def test_the_session_is_renewed_once_a_day(monkeypatch):
    ana = online("ana", "Ana")  # its post renewed the session today
    assert "sessionid" not in ana.get("/").cookies  # the same day: no write
    tomorrow = timezone.now() + timedelta(days=1)
    monkeypatch.setattr(timezone, "now", lambda: tomorrow)
    renewed = ana.get("/")
    assert "sessionid" in renewed.cookies, "the first page of a day renews the year"
    assert int(renewed.cookies["sessionid"]["max-age"]) > 364 * 24 * 3600
    assert "sessionid" not in ana.get("/").cookies
    assert "sessionid" not in Client().get("/").cookies  # nobody's session is not kept


# --- The leaderboard --------------------------------------------------------------------------


def rated(visitor: str, value: float, deviation: float = 60.0) -> Player:
    player = Player.objects.create(visitor=visitor, name=visitor, name_key=visitor)
    player.rating = Rating(value, deviation, 0.06, timezone.now())
    player.save()
    return player


@pytestmark_db
def test_the_leaderboard_lists_established_ratings_best_first():
    rated("gold", 1450)
    rated("master", 2010)
    rated("newcomer", 1900, deviation=200)  # provisional: listed under the board, not placed
    page = Client().get("/leaderboard/").text
    assert page.index("master") < page.index("gold") < page.index("Provisional ratings")
    assert "Master" in page and "Gold" in page


def board_rows(page: str, kind: str) -> list[list[str]]:
    """The rows of a leaderboard's table (``board``, or ``board provisional``), cell by cell."""
    table = re.search(rf'<table class="{kind}"[^>]*>(.*?)</table>', page, re.S)
    assert table, page[-3000:]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table[1], re.S)[1:]  # under the heading
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]
    return [[" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in row] for row in cells]


@pytestmark_db
def test_provisional_players_are_listed_under_the_board_marked_in_both_languages():
    """The board was empty until ratings settled: a new site showed nobody (issue 29)."""
    rated("newcomer", 1620, deviation=200)
    rated("starter", 1480, deviation=250)
    Player.objects.create(visitor="never", name="never", name_key="never")  # no ranked game
    page = client_for("starter").get("/leaderboard/").text
    assert "Nobody has an established rating yet" in page
    assert board_rows(page, "board provisional") == [
        ["newcomer", "Provisional", "1620?"],
        ["starter (you)", "Provisional", "1480?"],
    ]
    assert "never" not in page and "You are not on the board yet" not in page
    spanish = Client().get("/leaderboard/", headers={"Accept-Language": "es"}).text
    assert "Puntuaciones provisionales" in spanish
    assert board_rows(spanish, "board provisional")[0] == ["newcomer", "Provisional", "1620?"]


@pytestmark_db
def test_the_leaderboard_shows_my_place_when_far_down():
    for n in range(55):
        rated(f"p{n}", 1600 + n)
    me = rated("me", 1500)
    page = client_for("me").get("/leaderboard/").text
    assert "You are number 56, at 1500." in page
    Player.objects.filter(pk=me.pk).update(established_until=None)
    page = client_for("me").get("/leaderboard/").text
    assert ["me (you)", "Gold", "1500"] in board_rows(page, "board provisional")
    Player.objects.filter(pk=me.pk).update(rated_at=None)  # never played ranked
    assert (
        "You are not on the board yet (your rating, 1500, is provisional)"
        in client_for("me").get("/leaderboard/").text
    )


@pytestmark_db
def test_the_chart_draws_the_last_hundred_rated_games():
    from games.models import Game

    online("ana", "Ana")
    ana = Player.objects.get(visitor="ana")
    start = timezone.now() - timedelta(days=1)
    RatingChange.objects.bulk_create(
        RatingChange(
            player=ana, game=Game.objects.create(mode=Game.Mode.ONLINE, ranked=True),
            value_before=1500 + n, value_after=1501 + n, deviation_after=80, score=1.0,
            created_at=start + timedelta(minutes=n),
        )
        for n in range(120)
    )  # fmt: skip
    page = Client().get(profile_url("ana")).text
    assert len(re.search(r'<polyline points="([^"]+)"', page)[1].split()) == 101
    assert "The last 100 ranked games: from 1520 to 1620 (best 1620)." in page


@pytestmark_db
def test_an_own_code_or_none_is_told_plainly():
    laptop = online("ana", "Ana")
    code = code_from(laptop.post("/me/code/").text).replace("-", "")
    own = laptop.get(f"/sign-in/{code}/")
    assert own.status_code == 400 and "already signed in to that profile" in own.text
    assert "Use this browser as" not in own.text
    empty = Client().post("/sign-in/", {"code": " - "})
    assert empty.status_code == 400 and "Type the code shown on your other device." in empty.text
    assert Client().get("/players/", {"name": ""}).status_code == 400
    assert DeviceCode.objects.usable().count() == 1  # nothing used


@pytestmark_db
def test_a_browser_with_a_profile_can_still_sign_in_with_a_code():
    page = online("bo", "Bo").get(profile_url("bo")).text
    assert 'href="/sign-in/"' in page
    assert 'href="/sign-in/"' in Client().get("/online/").text  # and one without a profile


@pytestmark_db
def test_a_name_in_other_capitals_finds_its_own_profile_not_a_look_alike():
    """Review of issue 29: "Allce" and "Alice" may both be taken (their keys differ); "ALICE"
    folds to the one and looks like the other, and went to whichever the database gave first."""
    online("allce", "Allce")
    online("alice", "Alice")
    for typed in ("ALICE", "alice", "Alice"):
        assert Client().get("/players/", {"name": typed})["Location"] == profile_url("alice")
    assert Client().get("/players/", {"name": "Allce"})["Location"] == profile_url("allce")
