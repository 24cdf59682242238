"""Ranked matches: the queue and its pairing, the rating at a ranked game's end (exactly once),
the lobby's panel and the game page's change, and every bad input refused with nothing changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from engine import rating as ratings
from engine.rules import CATEGORIES, IllegalMove
from games import services
from games.models import Game, Seat
from lobby import access, ranked
from lobby.models import Challenge, Player, QueueEntry, RatingChange
from tests.clients import FORM_POST, HTMX, client_for, online, refusal_text
from tests.factories import fill_all_but, scripted_roller

pytestmark = pytest.mark.django_db

PLAIN = (1, 2, 3, 5, 6)  # 17 in chance, 0 in most boxes


def player(visitor: str, name: str, value: float = 1500.0, *, online_for=timedelta(hours=1)):
    """A profile online for ``online_for`` from now (negative: offline since then)."""
    return Player.objects.create(
        visitor=visitor,
        name=name,
        name_key=name.casefold(),
        rating_value=value,
        online_until=timezone.now() + online_for,
    )


def queue(who: Player, waited: float = 0.0) -> QueueEntry:
    """Put ``who`` in the queue, as joined ``waited`` seconds ago."""
    return QueueEntry.objects.create(
        player=who, joined_at=timezone.now() - timedelta(seconds=waited)
    )


def play_out(game: Game, chance: dict[str, tuple[int, ...]] | None = None) -> None:
    """Play a two-seat online game to its last score: every box with PLAIN dice but chance,
    rolled with ``chance[visitor]`` (default PLAIN)."""
    chance = chance or {}
    seats = game.ordered_seats()
    for box in CATEGORIES:
        for seat in seats:
            game.refresh_from_db()
            dice = chance.get(seat.visitor, PLAIN) if box == "chance" else PLAIN
            services.perform(
                game.id, seat.visitor, "roll", {}, game.step, roll=scripted_roller([dice])
            )
            game.refresh_from_db()
            services.perform(game.id, seat.visitor, "score", {"box": box}, game.step)
    game.refresh_from_db()


def ranked_game(a: Player, b: Player) -> Game:
    return services.start_online_game([a, b], ranked=True)


# The queue and its pairing.


def test_the_window_widens_with_the_wait():
    now = timezone.now()
    assert ranked.window(now, now) == 100
    assert ranked.window(now - timedelta(seconds=9.9), now) == 100
    assert ranked.window(now - timedelta(seconds=10), now) == 150
    assert ranked.window(now - timedelta(seconds=60), now) == 400


def test_close_ratings_pair_at_once_far_ones_once_a_window_is_wide_enough():
    ana, bo = player("ana", "Ana", 1500), player("bo", "Bo", 1720)
    queue(ana, waited=0)
    queue(bo, waited=0)
    now = timezone.now()
    assert ranked.pair_waiting(now) == []  # 220 apart, windows of 100
    assert ranked.pair_waiting(now + timedelta(seconds=20)) == []  # 200
    (game,) = ranked.pair_waiting(now + timedelta(seconds=30))  # 250: nobody clicked
    assert game.ranked and game.mode == Game.Mode.ONLINE
    assert sorted(s.visitor for s in game.ordered_seats()) == ["ana", "bo"]
    assert not QueueEntry.objects.exists()


def test_the_longer_wait_widens_the_window_for_a_newcomer_too():
    ana, bo, cy = player("ana", "Ana", 1500), player("bo", "Bo", 1800), player("cy", "Cy", 1950)
    queue(ana, waited=45)  # a window of 300
    queue(cy, waited=45)
    queue(bo, waited=0)  # just joined: its own window is 100
    (game,) = ranked.pair_waiting()
    # Ana, first in, fits both Bo (300) and Cy (450 > 300 no): she gets Bo; Cy waits on.
    assert sorted(s.visitor for s in game.ordered_seats()) == ["ana", "bo"]
    assert list(QueueEntry.objects.values_list("player__visitor", flat=True)) == ["cy"]


def test_the_closest_rating_is_chosen_for_the_longest_waiting():
    ana, bo, cy = player("ana", "Ana", 1500), player("bo", "Bo", 1580), player("cy", "Cy", 1530)
    queue(ana, waited=5)
    queue(bo, waited=3)
    queue(cy, waited=1)
    (game,) = ranked.pair_waiting()
    assert sorted(s.visitor for s in game.ordered_seats()) == ["ana", "cy"]


def test_joining_pairs_and_both_pages_are_sent_to_the_game():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    assert ana.post("/online/ranked/join/").status_code == 302
    assert "Looking for an opponent…" in ana.get("/online/").text
    response = bo.post("/online/ranked/join/", headers=HTMX)
    game = Game.objects.get()
    assert response.status_code == 204 and response["HX-Redirect"] == f"/game/{game.id}/"
    assert game.ranked
    assert not QueueEntry.objects.exists()
    # Ana's lobby now leads to her game, and the game page says it is ranked.
    assert f'href="/game/{game.id}/"' in ana.get("/online/").text
    assert "Ranked" in ana.get(f"/game/{game.id}/").text


def test_a_pairing_sends_every_open_page_of_both_players_to_the_game(
    django_capture_on_commit_callbacks,
):
    from games import events

    sent = []
    events.group_message.connect(
        lambda group, message, **kwargs: sent.append((group, message)),
        weak=False,
        dispatch_uid="test-ranked",
    )
    try:
        queue(player("ana", "Ana"))
        queue(player("bo", "Bo"))
        with django_capture_on_commit_callbacks(execute=True):
            (game,) = ranked.pair_waiting()
    finally:
        events.group_message.disconnect(dispatch_uid="test-ranked")
    navigated = {group for group, message in sent if message.get("type") == "navigate"}
    assert navigated == {"player-ana", "player-bo"}
    assert {message["url"] for _, message in sent if "url" in message} == {f"/game/{game.id}/"}


def test_two_tabs_of_one_player_are_one_entry():
    ana = online("ana", "Ana")
    other_tab = client_for("ana")  # the same browser's session
    assert ana.post("/online/ranked/join/", headers=HTMX).status_code == 200
    again = other_tab.post("/online/ranked/join/", headers=HTMX)
    assert again.status_code == 409
    assert "already looking for an opponent" in again.text
    assert QueueEntry.objects.count() == 1
    assert "Looking for an opponent…" in other_tab.get("/online/").text


def test_leaving_the_queue():
    ana = online("ana", "Ana")
    ana.post("/online/ranked/join/")
    response = ana.post("/online/ranked/leave/", headers=HTMX)
    assert response.status_code == 200
    assert "Play ranked" in response.text and "Looking for an opponent" not in response.text
    assert not QueueEntry.objects.exists()


def test_a_player_offline_waits_and_after_the_online_window_leaves_the_queue():
    ana, bo = player("ana", "Ana"), player("bo", "Bo", online_for=timedelta(seconds=-10))
    queue(ana)
    queue(bo)
    assert ranked.pair_waiting() == []  # Bo's page is reloading, or just closed: not paired
    assert QueueEntry.objects.count() == 2
    Player.objects.filter(pk=bo.pk).update(online_until=timezone.now() - timedelta(seconds=61))
    assert ranked.pair_waiting() == []
    assert list(QueueEntry.objects.values_list("player__visitor", flat=True)) == ["ana"]


def test_a_player_who_started_another_game_leaves_the_queue():
    ana, bo, cy = player("ana", "Ana"), player("bo", "Bo"), player("cy", "Cy")
    queue(ana)
    services.start_online_game([bo, cy])  # Bo accepted a challenge meanwhile
    queue(bo)
    assert ranked.pair_waiting() == []
    assert list(QueueEntry.objects.values_list("player__visitor", flat=True)) == ["ana"]


def rated_pair(a: Player, b: Player, hours_ago: float) -> None:
    """A rated game between the two, as its rows would be."""
    game = Game.objects.create(mode=Game.Mode.ONLINE, ranked=True)
    when = timezone.now() - timedelta(hours=hours_ago)
    for who in (a, b):
        RatingChange.objects.create(
            player=who, game=game, value_before=1500, value_after=1500, deviation_after=300,
            score=0.5, created_at=when,
        )  # fmt: skip


def test_two_players_rated_three_times_in_a_day_are_not_paired():
    ana, bo = player("ana", "Ana"), player("bo", "Bo")
    for hours in (1, 5, 23):
        rated_pair(ana, bo, hours)
    queue(ana, waited=600)
    queue(bo, waited=600)
    assert ranked.pair_waiting() == []
    RatingChange.objects.filter(created_at__lt=timezone.now() - timedelta(hours=20)).update(
        created_at=timezone.now() - timedelta(hours=25)
    )
    assert len(ranked.pair_waiting()) == 1  # one of the three is a day old now


def test_the_queue_page_says_why_two_players_who_met_three_times_today_wait():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    for hours in (1, 5, 23):
        rated_pair(Player.objects.get(visitor="ana"), Player.objects.get(visitor="bo"), hours)
    assert ana.post("/online/ranked/join/").status_code == 302
    assert "You have played" not in ana.get("/online/").text  # nobody waits with her yet
    joined = bo.post("/online/ranked/join/", headers=HTMX)
    assert joined.status_code == 200 and QueueEntry.objects.count() == 2  # not paired
    said = (
        "You have played %s 3 times in the last 24 hours: ranked pairs you with someone else. "
        "Wait here for another player, or challenge %s directly (not rated)."
    )
    assert said % ("Ana", "Ana") in joined.text
    assert said % ("Bo", "Bo") in ana.get("/online/").text
    spanish = ana.get("/online/", headers={"Accept-Language": "es"}).text
    assert "Has jugado con Bo 3 veces en las últimas 24 horas" in spanish
    # Both keep waiting, and someone else who comes is paired with one of them.
    cy = online("cy", "Cy")
    assert cy.post("/online/ranked/join/").status_code == 302
    assert Seat.objects.filter(visitor="cy").count() == 1 and QueueEntry.objects.count() == 1
    assert "You have played" not in ana.get("/online/").text + bo.get("/online/").text


# The rating at the game's end, exactly once.


def test_the_end_of_a_ranked_game_rates_both_players_once():
    ana, bo = player("ana", "Ana"), player("bo", "Bo")
    game = ranked_game(ana, bo)
    play_out(game, chance={"ana": (6, 6, 6, 6, 5)})
    assert game.status == Game.Status.FINISHED
    rows = {r.player.visitor: r for r in RatingChange.objects.select_related("player")}
    assert (rows["ana"].score, rows["bo"].score) == (1, 0)
    ana.refresh_from_db()
    bo.refresh_from_db()
    assert ratings.shown(ana.rating) == "1520?" and ratings.shown(bo.rating) == "1480?"
    assert ana.rated_at is not None and rows["ana"].value_after == ana.rating_value
    assert ana.established_until is None  # provisional still: not on the leaderboard yet
    # The same last score sent again (a double submit, a retry) is refused and rates nothing.
    for step in (game.step - 1, game.step):
        with pytest.raises(IllegalMove, match="The game is over"):
            services.perform(game.id, "bo", "score", {"box": "chance"}, step)
    # A replay of the log rates nothing either.
    assert game.replayed_state().finished
    assert RatingChange.objects.count() == 2
    bo.refresh_from_db()
    assert ratings.shown(bo.rating) == "1480?"


def test_a_tie_is_a_draw():
    game = ranked_game(player("ana", "Ana"), player("bo", "Bo"))
    play_out(game)
    assert sorted(RatingChange.objects.values_list("score", flat=True)) == [0.5, 0.5]
    assert {round(p.rating_value) for p in Player.objects.all()} == {1500}


def test_a_seat_left_out_loses_even_when_ahead(settings):
    settings.AWAY_GRACE_SECONDS = 0
    ana, bo = player("ana", "Ana", 1600), player("bo", "Bo", 1600)
    game = ranked_game(ana, bo)
    roll = scripted_roller([(6, 6, 6, 6, 6)])
    services.perform(game.id, "ana", "roll", {}, 0, roll=roll)
    services.perform(game.id, "ana", "score", {"box": "chance"}, 1)
    roll = scripted_roller([(6, 6, 6, 6, 6)])
    services.perform(game.id, "bo", "roll", {}, 2, roll=roll)
    services.perform(game.id, "bo", "score", {"box": "yahtzee"}, 3)  # Bo is 50 to 30 ahead
    Seat.objects.filter(game=game, visitor="ana").update(
        present_until=timezone.now() + timedelta(seconds=30)
    )
    # Bo's move kept him here a while (games.presence.moved); that has run out since.
    Seat.objects.filter(game=game, visitor="bo").update(present_until=timezone.now())
    services.leave_out(game.id, "ana", 1, end=True)  # Bo's time to come back ran out
    rows = dict(RatingChange.objects.values_list("player__visitor", "score"))
    assert rows == {"ana": 1.0, "bo": 0.0}
    assert Player.objects.get(visitor="ana").rating_value > 1600


@pytest.mark.parametrize("scored_first", [False, True], ids=["0-0", "one-box"])
def test_a_ranked_game_ended_before_each_player_scored_a_box_is_not_rated(settings, scored_first):
    """Issue 29: a forfeit at 0-0 in round 1 moved both ratings by 241. Nothing was played."""
    settings.AWAY_GRACE_SECONDS = 0
    ana, bo = player("ana", "Ana"), player("bo", "Bo")
    game = ranked_game(ana, bo)
    first, second = (seat.visitor for seat in game.ordered_seats())
    if scored_first:  # the first player scored a Yahtzee; the second left before scoring
        services.perform(game.id, first, "roll", {}, 0, roll=scripted_roller([(6,) * 5]))
        services.perform(game.id, first, "score", {"box": "yahtzee"}, 1)
    Seat.objects.filter(game=game, visitor=first).update(
        present_until=timezone.now() + timedelta(seconds=30)
    )
    services.leave_out(game.id, first, 1, end=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists()
    assert {(p.rating_value, p.rated_at) for p in Player.objects.all()} == {(1500, None)}
    page = client_for(first).get(f"/game/{game.id}/").text
    assert "Not rated: the game ended before each player had scored a box." in page
    assert "rating-change" not in page
    spanish = client_for(second).get(f"/game/{game.id}/", headers={"Accept-Language": "es"})
    assert "Sin puntuar: la partida terminó antes de que cada jugador anotara una casilla." in (
        spanish.text
    )


def test_a_ranked_game_left_after_each_player_scored_is_rated_within_the_bound(settings):
    settings.AWAY_GRACE_SECONDS = 0
    ana, bo = player("ana", "Ana"), player("bo", "Bo")
    game = ranked_game(ana, bo)
    for step, seat in enumerate(game.ordered_seats()):
        roll = scripted_roller([PLAIN])
        services.perform(game.id, seat.visitor, "roll", {}, 2 * step, roll=roll)
        services.perform(game.id, seat.visitor, "score", {"box": "chance"}, 2 * step + 1)
    first = game.ordered_seats()[0].visitor
    Seat.objects.filter(game=game, visitor=first).update(
        present_until=timezone.now() + timedelta(seconds=30)
    )
    # The second's move kept them here a while (games.presence.moved); that has run out since.
    Seat.objects.filter(game=game).exclude(visitor=first).update(present_until=timezone.now())
    services.leave_out(game.id, first, 1, end=True)
    changes = dict(RatingChange.objects.values_list("player__visitor", "value_after"))
    assert changes == {first: 1520, ({"ana", "bo"} - {first}).pop(): 1480}
    page = client_for(first).get(f"/game/{game.id}/").text
    assert '<span class="rating-change up">+20</span>' in page and "Not rated" not in page


def test_unranked_games_are_never_rated():
    ana, bo = player("ana", "Ana"), player("bo", "Bo")
    challenge_game = services.start_online_game([ana, bo])
    play_out(challenge_game)
    # A pass-the-phone game marked ranked by mistake is still not rated: only online games are.
    local = services.start_game("ana", ["Ana", "Bo"], mode=Game.Mode.LOCAL)
    Game.objects.filter(pk=local.pk).update(ranked=True)
    local.refresh_from_db()
    for box in CATEGORIES:
        for _seat in (0, 1):
            local.refresh_from_db()
            services.perform(local.id, "ana", "roll", {}, local.step, roll=scripted_roller([PLAIN]))
            local.refresh_from_db()
            services.perform(local.id, "ana", "score", {"box": box}, local.step)
    solo = fill_all_but(["chance"], visitor="ana")
    services.perform(solo.id, "ana", "roll", {}, solo.step, roll=scripted_roller([PLAIN]))
    solo.refresh_from_db()
    services.perform(solo.id, "ana", "score", {"box": "chance"}, solo.step)
    for game in (challenge_game, local, solo):
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists()
    assert Player.objects.filter(rated_at__isnull=False).count() == 0


def test_a_game_with_rating_rows_is_not_rated_again():
    ana, bo = player("ana", "Ana"), player("bo", "Bo")
    game = ranked_game(ana, bo)
    play_out(game, chance={"bo": (6, 6, 6, 6, 5)})
    game.refresh_from_db()
    ranked.rate_game(Game, game=game, state=game.state())  # the signal sent a second time
    assert RatingChange.objects.count() == 2
    assert round(Player.objects.get(visitor="bo").rating_value) == 1520


def test_the_end_of_a_ranked_game_shows_each_change():
    ana, bo = player("ana", "Ana"), player("bo", "Bo")
    game = ranked_game(ana, bo)
    play_out(game, chance={"ana": (6, 6, 6, 6, 5)})
    page = client_for("bo").get(f"/game/{game.id}/").text
    assert "Ranked" in page
    assert '<span class="rating-change up">+20</span> <span class="note">(rating 1520?)' in page
    assert '<span class="rating-change down">-20</span> <span class="note">(rating 1480?)' in page
    spanish = client_for("bo").get(f"/game/{game.id}/", headers={"Accept-Language": "es"}).text
    assert "Clasificatoria" in spanish and "+20" in spanish


def test_an_unranked_game_says_nothing_of_ratings():
    game = services.start_online_game([player("ana", "Ana"), player("bo", "Bo")])
    play_out(game)
    page = client_for("ana").get(f"/game/{game.id}/").text
    assert "Ranked" not in page and "rating-change" not in page


# The lobby's panel and bad input.


def test_the_panel_shows_the_rating_and_the_wait():
    ana = online("ana", "Ana")
    page = ana.get("/online/").text
    assert "Your rating: 1500? (Unranked)" in page and "Play ranked" in page
    ana.post("/online/ranked/join/")
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=72))
    page = ana.get("/online/").text
    assert 'class="countup" data-since="' in page and ">1:12</span>" in page
    assert "Leave the queue" in page
    spanish = ana.get("/online/", headers={"Accept-Language": "es"}).text
    assert "Buscando rival…" in spanish and "Salir de la cola" in spanish


@pytest.mark.parametrize("path", [FORM_POST, HTMX])
@pytest.mark.parametrize(
    ("who", "url", "setup", "status", "message"),
    [
        ("stranger", "join", None, 403, "Choose a name first."),
        ("stranger", "leave", None, 403, "Choose a name first."),
        ("ana", "leave", None, 409, "You are not in the queue."),
        ("ana", "join", "queued", 409, "You are already looking for an opponent."),
        ("ana", "join", "in_a_game", 403, "You are in a game: finish it first."),
        ("ana", "join", "in_a_ranked_game", 403, "You are in a game: finish it first."),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(who, url, setup, status, message, path):
    client = online("ana", "Ana") if who == "ana" else client_for(who)
    cy = player("cy", "Cy")
    if setup == "queued":
        queue(Player.objects.get(visitor="ana"))
    elif setup:
        game = services.start_online_game(
            [Player.objects.get(visitor="ana"), cy], ranked=setup == "in_a_ranked_game"
        )
        if setup == "in_a_ranked_game":  # a ranked game an hour old still counts
            Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    before = (list(QueueEntry.objects.values()), Game.objects.count())
    response = client.post(f"/online/ranked/{url}/", headers=path)
    assert message in refusal_text(client, response, status)
    assert (list(QueueEntry.objects.values()), Game.objects.count()) == before


def test_an_old_unranked_game_left_behind_does_not_keep_a_player_out():
    ana = online("ana", "Ana")
    game = services.start_online_game([Player.objects.get(visitor="ana"), player("cy", "Cy")])
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=11))
    assert ana.post("/online/ranked/join/").status_code == 302
    assert QueueEntry.objects.count() == 1


def test_a_game_at_your_own_pace_just_moved_does_not_keep_a_player_out_of_ranked():
    ana = online("ana", "Ana")
    cy = player("cy", "Cy")
    game = services.start_online_game([Player.objects.get(visitor="ana"), cy], pace="own")
    services.perform(game.id, "ana", "roll", {}, game.step)  # a move a moment ago
    assert ana.post("/online/ranked/join/").status_code == 302
    assert list(QueueEntry.objects.values_list("player__visitor", flat=True)) == ["ana"]
    queue(player("bo", "Bo"))
    assert len(ranked.pair_waiting()) == 1  # the pairing does not drop her either


def test_the_queue_is_only_posted_to():
    ana = online("ana", "Ana")
    assert ana.get("/online/ranked/join/").status_code == 405
    assert not QueueEntry.objects.exists()


def test_joining_and_leaving_are_rate_limited(monkeypatch):
    monkeypatch.setattr(access, "rate_window", lambda: 1)  # one minute, even across its end
    ana = online("ana", "Ana")
    for _ in range(10):
        ana.post("/online/ranked/join/")
        ana.post("/online/ranked/leave/")
    refused = ana.post("/online/ranked/join/", headers=HTMX)
    assert refused.status_code == 429 and "Too many requests" in refused.text
    assert not QueueEntry.objects.exists()


def test_a_challenge_accepted_takes_both_players_out_of_the_queue():
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    Player.objects.filter(visitor="bo").update(rating_value=2500)  # out of Ana's window
    ana.post("/online/ranked/join/")
    bo.post("/online/ranked/join/")
    assert QueueEntry.objects.count() == 2
    ana.post("/online/challenge/", {"player": Player.objects.get(visitor="bo").pk})
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    assert not QueueEntry.objects.exists()
    assert not Game.objects.get().ranked
    assert "Play ranked" in ana.get("/online/").text


def test_one_waiting_page_in_a_few_seconds_pairs_for_all(monkeypatch):
    calls = []
    monkeypatch.setattr(ranked, "pair_waiting", lambda: calls.append(1) or [])
    queue(player("ana", "Ana"))
    queue(player("bo", "Bo", 1900))
    assert ranked.pair_if_waiting("cy") == [] and calls == []  # not waiting: asks nothing
    for visitor in ("ana", "bo", "ana"):
        ranked.pair_if_waiting(visitor)
    assert calls == [1]  # within PAIR_SECONDS, once
    from django.core.cache import cache

    cache.delete(ranked.PAIRED_KEY)  # as when the seconds have passed
    ranked.pair_if_waiting("bo")
    assert calls == [1, 1]


def test_an_established_rating_rated_again_stays_on_the_leaderboard():
    played = timezone.now() - timedelta(days=1)
    ana, bo = player("ana", "Ana", 1700), player("bo", "Bo", 1650)
    for who in (ana, bo):
        who.rating = ratings.Rating(who.rating_value, 60, 0.06, played)
        who.save()
    game = ranked_game(ana, bo)
    play_out(game, chance={"bo": (6, 6, 6, 6, 5)})
    bo.refresh_from_db()
    # Saved with the new rating (the rated_at of this game), not left as it was before it.
    assert bo.established_until == ratings.established_until(bo.rating) > timezone.now()
    assert bo.rated_at > played and bo.rating_value > 1650
    assert sorted(p.visitor for p in Player.objects.established()) == ["ana", "bo"]


def test_a_fourth_ranked_game_in_a_day_between_the_same_two_is_not_rated():
    ana, bo = player("ana", "Ana"), player("bo", "Bo")
    for hours in (1, 2, 3):
        rated_pair(ana, bo, hours)
    game = ranked_game(ana, bo)  # started before the third was rated, say
    play_out(game, chance={"ana": (6, 6, 6, 6, 5)})
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=game).exists()
    assert Player.objects.get(visitor="ana").rating_value == 1500
