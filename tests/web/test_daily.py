"""The daily challenge: the same dice for everyone, one attempt a day, the boards and the streak."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from daily import services as daily
from daily.models import Attempt, Challenge
from engine import dice
from engine.rules import CATEGORIES
from games import services
from games.models import Action, Game
from history.models import Summary
from lobby.models import Player
from tests.clients import HTMX, client_for, daily_move, finish_daily, start_daily

pytestmark = pytest.mark.django_db


def profiles(*visitors: str) -> None:
    """Give these browsers profiles (the board by score counts only profiles)."""
    for visitor in visitors:
        Player.objects.create(visitor=visitor, name=visitor.title(), name_key=visitor)


def rolls(game: Game) -> list[list[int]]:
    return [a.payload["dice"] for a in Action.objects.filter(game=game, kind="roll")]


def test_the_same_holds_give_the_same_rolls_and_other_holds_other_dice_only_where_they_differ():
    ana, bo = start_daily("ana"), start_daily("bo")
    assert ana.seed == bo.seed and ana.reveal_after == daily.day_end(daily.today())
    daily_move(ana, "ana", "roll")
    daily_move(bo, "bo", "roll")
    assert rolls(ana) == rolls(bo)
    first = rolls(ana)[0]
    # Ana holds die 1; Bo holds dice 1 and 2.
    daily_move(ana, "ana", "hold", die=0, held=True)
    daily_move(bo, "bo", "hold", die=0, held=True)
    daily_move(bo, "bo", "hold", die=1, held=True)
    daily_move(ana, "ana", "roll", held=[True, False, False, False, False])
    daily_move(bo, "bo", "roll", held=[True, True, False, False, False])
    second_ana, second_bo = rolls(ana)[1], rolls(bo)[1]
    assert second_ana[2:] == second_bo[2:]  # both rerolled dice 3-5: the same faces
    assert second_bo[:2] == first[:2] and second_ana[0] == first[0]
    key = dice.key(ana.seed)
    assert second_ana[1] == dice.face(key, 0, 1, 2, 1)  # Ana's die 2 was rolled again
    # Scoring different boxes leaves the next turn's dice the same for both.
    daily_move(ana, "ana", "score", box="chance")
    daily_move(bo, "bo", "score", box="ones")
    daily_move(ana, "ana", "roll")
    daily_move(bo, "bo", "roll")
    assert rolls(ana)[2] == rolls(bo)[2] == dice.faces(key, 0, 2, 1, range(5))


def test_a_second_attempt_is_refused_and_the_first_can_be_resumed():
    game = start_daily("ana")
    daily_move(game, "ana", "roll")
    client = client_for("ana")
    again = client.post("/daily/start/")
    assert again.status_code == 409
    assert "one attempt a day" in again.content.decode()
    assert Attempt.objects.count() == 1 and Game.objects.count() == 1
    page = client.get("/daily/").content.decode()
    assert "Continue your attempt" in page and f"/game/{game.id}/" in page
    assert client.get(f"/game/{game.id}/").status_code == 200


def test_the_coach_and_the_odds_are_off_during_an_attempt_and_the_seed_stays_hidden():
    game = start_daily("ana")
    daily_move(game, "ana", "roll")
    client = client_for("ana")
    page = client.get(f"/game/{game.id}/").content.decode()
    hint = client.get(f"/game/{game.id}/?hint=1", headers=HTMX).content.decode()
    assert "Daily challenge" in page
    assert 'class="odds"' not in page and "Hint" not in page and 'class="hint' not in hint
    assert game.seed not in page and "Mix in your own text" not in page
    solo = services.start_solo_game("ana")
    daily_move(solo, "ana", "roll")
    assert (
        'class="odds"' in client.get(f"/game/{solo.id}/").content.decode()
    )  # a plain game has them
    refused = client.post(f"/game/{game.id}/seed/", {"text": "mine"}, headers=HTMX)
    assert refused.status_code == 400 and "the same for everyone" in refused.content.decode()


def test_a_finished_attempt_keeps_its_seed_until_the_day_is_over():
    game = finish_daily(start_daily("ana"), "ana")
    client = client_for("ana")
    waiting = client.get(f"/game/{game.id}/verify/")
    assert waiting.status_code == 409 and "when the day is over" in waiting.content.decode()
    assert game.seed not in client.get(f"/game/{game.id}/").content.decode()
    assert not game.open_to("bo")  # its dice are everyone's today
    Game.objects.filter(pk=game.pk).update(reveal_after=timezone.now() - dt.timedelta(seconds=1))
    game.refresh_from_db()
    assert game.open_to("bo")
    shown = client.get(f"/game/{game.id}/verify/")
    assert shown.status_code == 200 and game.seed in shown.content.decode()


def test_the_boards_rank_by_score_and_by_points_lost_with_your_own_line():
    Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    Player.objects.create(visitor="bo", name="Bo", name_key="bo")
    ana = finish_daily(start_daily("ana"), "ana")
    finish_daily(start_daily("bo"), "bo", boxes=list(reversed(CATEGORIES)))
    start_daily("cy")  # not finished: on no board
    scores = {s.visitor: s for s in Summary.objects.all()}
    assert set(scores) == {"ana", "bo"}
    assert scores["ana"].total == ana.seats.get().card().total
    challenge = Challenge.objects.get()
    by_score, own = daily.board(challenge, "score", "ana")
    scores = {s.visitor: s for s in Summary.objects.all()}  # valued by the board (history)
    assert None not in [s.loss for s in scores.values()]
    expected = sorted(scores.values(), key=lambda s: (-s.total, s.loss))
    assert [line.name for line in by_score] == [
        {"ana": "Ana", "bo": "Bo"}[s.visitor] for s in expected
    ]
    assert own is None  # Ana is on the board already
    by_loss, _ = daily.board(challenge, "loss", None)
    assert [line.loss for line in by_loss] == sorted(s.loss for s in scores.values())
    page = client_for("cy").get("/daily/").content.decode()
    assert "Ana" in page and "Bo" in page and "2 finished attempts." in page
    assert dice.commitment(challenge.seed) in page and challenge.seed not in page
    assert "Continue your attempt" in page


def test_your_place_is_shown_below_a_full_board_ties_sharing_a_place(monkeypatch):
    monkeypatch.setattr(daily, "BOARD_SIZE", 1)
    profiles("ana", "bo", "cy")
    finish_daily(start_daily("ana"), "ana")
    finish_daily(start_daily("bo"), "bo", boxes=list(reversed(CATEGORIES)))
    finish_daily(start_daily("cy"), "cy")  # Ana's moves on the same dice: Ana's score
    totals = {s.visitor: s.total for s in Summary.objects.all()}
    assert totals["ana"] == totals["cy"]
    challenge = Challenge.objects.get()
    for visitor in ("ana", "bo", "cy"):
        top, own = daily.board(challenge, "score", visitor)
        if top[0].yours:
            assert own is None
            continue
        better = sum(total > totals[visitor] for total in totals.values())
        assert own.yours and own.place == better + 1 and own.total == totals[visitor]
    html = client_for("bo").get("/daily/").content.decode()
    assert 'class="gap"' in html or "(you)" in html


def test_the_streak_counts_days_in_a_row_up_to_today_or_yesterday():
    today = daily.today()
    for days_ago in (1, 2, 3, 5):
        challenge = Challenge.objects.create(day=today - dt.timedelta(days=days_ago), seed="a" * 64)
        game = services.start_solo_game("ana")
        Attempt.objects.create(challenge=challenge, visitor="ana", game=game)
    assert daily.streak("ana") == 3  # yesterday, and the two days before; today not played yet
    start_daily("ana")
    assert daily.streak("ana") == 4
    assert daily.streak("bo") == 0


def test_friends_are_the_people_you_played_online():
    from tests.clients import online_game

    online_game()  # Ana and Bo have played
    finish_daily(start_daily("bo"), "bo")
    finish_daily(start_daily("cy"), "cy")
    friends = daily.friends_results(Challenge.objects.get(), "ana")
    assert [line.name for line in friends] == ["Bo"]


def test_a_past_day_opens_its_attempts_and_bad_days_are_refused():
    yesterday = daily.today() - dt.timedelta(days=1)
    challenge = Challenge.objects.create(day=yesterday, seed=dice.new_seed())
    game = services.start_game(
        "ana",
        [""],
        mode=Game.Mode.SOLO,
        seed=challenge.seed,
        reveal_after=daily.day_end(daily.today()),
    )
    Attempt.objects.create(challenge=challenge, visitor="ana", game=game)
    finish_daily(game, "ana")  # played yesterday (its moves could not be, after the day)
    Game.objects.filter(pk=game.pk).update(reveal_after=daily.day_end(yesterday))
    page = client_for("bo").get(f"/daily/{yesterday.isoformat()}/")
    assert page.status_code == 200 and f"/game/{game.id}/analysis/" in page.content.decode()
    assert challenge.seed in page.content.decode()
    assert client_for("bo").get(f"/game/{game.id}/verify/").status_code == 200
    client = client_for("bo")
    assert client.get("/daily/2026-02-30/").status_code == 404
    assert client.get("/daily/yesterday/").status_code == 404
    assert client.get("/daily/2026-W01-1/").status_code == 404  # a week date: not ours
    assert client.get("/daily/1999-01-01/").status_code == 404
    assert client.get(f"/daily/{daily.today().isoformat()}/").status_code == 302


def test_equal_results_share_a_place_on_the_board():
    profiles("ana", "bo", "cy")
    finish_daily(start_daily("ana"), "ana")
    finish_daily(
        start_daily("cy"), "cy"
    )  # the same moves on the same dice: the same score and loss
    finish_daily(start_daily("bo"), "bo", boxes=list(reversed(CATEGORIES)))
    challenge = Challenge.objects.get()
    lines, _ = daily.board(challenge, "score", None)
    totals = [line.total for line in lines]
    expected = [1 + sum(other > total for other in totals) for total in totals]
    assert [line.place for line in lines] == expected and expected.count(expected[0]) >= 1
    tied = [line.place for line in lines if line.total == Summary.objects.get(visitor="ana").total]
    assert len(tied) >= 2 and len(set(tied)) == 1


def test_an_attempt_cannot_be_shared_replayed_or_analysed_by_anyone_before_its_day_is_over():
    """A scout's finished attempt would show the perfect player's moves on the day's dice."""
    game = finish_daily(start_daily("ana"), "ana")
    response = client_for("ana").post(f"/game/{game.id}/replay/share/", {"share": "1"})
    assert response.status_code == 409 and "when the day is over" in response.content.decode()
    game.refresh_from_db()
    assert not game.shared
    for address in ("replay/", "analysis/"):
        own = client_for("ana").get(f"/game/{game.id}/{address}")
        assert own.status_code == 409 and "you too, when the day is over" in own.content.decode()
        assert client_for("bo").get(f"/game/{game.id}/{address}").status_code == 403
    for page in (f"/game/{game.id}/", "/daily/", "/me/games/"):
        shown = client_for("ana").get(page).content.decode()
        assert f"/game/{game.id}/analysis/" not in shown and f"/game/{game.id}/replay/" not in shown
    practice = client_for("ana").get("/me/practice/").content.decode()
    assert game.id not in practice  # its costliest decisions are today's positions
    Game.objects.filter(pk=game.pk).update(reveal_after=timezone.now() - dt.timedelta(seconds=1))
    for visitor in ("ana", "bo"):
        for address in ("replay/", "analysis/"):
            assert client_for(visitor).get(f"/game/{game.id}/{address}").status_code == 200
    assert f"/game/{game.id}/analysis/" in client_for("ana").get(f"/game/{game.id}/").text


def test_the_fair_board_comes_first_and_the_board_by_score_counts_only_profiles():
    """A throwaway browser that rerolled everything knows the day's dice: its attempt is on the
    points-lost board (knowing the dice cannot lower that) but not on the board by score."""
    profiles("ana")
    scout = start_daily("scout")
    daily_move(scout, "scout", "roll")
    finish_daily(scout, "scout")
    finish_daily(start_daily("ana"), "ana")
    challenge = Challenge.objects.get()
    by_score, _ = daily.board(challenge, "score", None)
    by_loss, _ = daily.board(challenge, "loss", None)
    assert [line.name for line in by_score] == ["Ana"]
    assert sorted(line.name for line in by_loss) == ["", "Ana"]
    assert daily.board(challenge, "score", "scout") == (by_score, None)  # not even below it
    page = client_for("cy").get("/daily/").content.decode()
    fair = page.index("Fewest points lost")
    assert fair < page.index("Best scores")
    assert "the fair board" in page[fair : fair + 200]
    assert "knowing them cannot help here" in page
    assert "Profiles only, one attempt each. Knowing the dice could help here" in page
    spanish = client_for("cy").get("/daily/", headers={"Accept-Language": "es"}).text
    assert "el tablero justo" in spanish


def test_an_attempt_left_unfinished_cannot_be_played_once_its_day_and_seed_are_out():
    game = start_daily("ana")
    daily_move(game, "ana", "roll")
    Game.objects.filter(pk=game.pk).update(reveal_after=timezone.now() - dt.timedelta(seconds=1))
    game.refresh_from_db()
    response = client_for("ana").post(
        f"/game/{game.id}/score/", {"step": game.step, "box": "chance"}, headers=HTMX
    )
    assert response.status_code == 400 and "day is over" in response.content.decode()
    assert Action.objects.filter(game=game).count() == 1


def test_nobody_else_follows_an_attempt_while_its_day_is_on():
    game = start_daily("ana")
    daily_move(game, "ana", "roll")
    stranger = client_for("bo")
    page = stranger.get(f"/game/{game.id}/")
    assert page.status_code == 403 and "daily challenge" in page.content.decode()
    assert stranger.get(f"/game/{game.id}/?at=1", headers=HTMX).status_code == 403
    assert client_for("ana").get(f"/game/{game.id}/").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_strangers_socket_on_an_attempt_is_refused():
    from channels.db import database_sync_to_async

    from tests.sockets import game_socket_opens

    game = await database_sync_to_async(start_daily)("ana")
    assert await game_socket_opens(game.id, "ana")
    assert not await game_socket_opens(game.id, "bo")


def test_the_home_page_names_the_days_game_beside_its_link():
    """The link sat under the solo form's choice of game and started Yatzy while the choice
    showed another (a first-time player's walk): it says the day's game."""
    client = client_for()
    expected = daily.game_of_the_day(daily.today()).name  # not made yet: as it will be
    assert f"Today's game: {expected}." in client.get("/").text
    Challenge.objects.create(day=daily.today(), seed=dice.new_seed(), rules_key="yatzy-in-order")
    assert "Today's game: Yatzy, in order." in client.get("/").text
    spanish = client.get("/", headers={"Accept-Language": "es"}).text
    assert "Juego de hoy: Yatzy, en orden." in spanish and "Reto diario</a>" in spanish
