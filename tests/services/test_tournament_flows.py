"""Tournaments played end to end through the real services: arena, Swiss and duplicate, their
games played out by the players' moves (and the computer's own), the clock moving them on, the
standings, the prizes paid once and the ledger balanced."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from core.refusals import StaleAction
from engine import dice
from engine.rules import IllegalMove
from games import services as games
from games.models import Game
from games.names import look_alike_key
from lobby import diamonds
from lobby.models import DiamondEntry, Player
from tests.factories import play_out
from tournaments import clock, results, services
from tournaments.formats import arena as arena_format
from tournaments.models import Entry, Round, Tournament, TournamentGame
from tournaments.services import TournamentOptions
from tournaments.standings import standings

pytestmark = pytest.mark.django_db

NAMES = {"ana": "Ana", "bo": "Bo", "cy": "Cy", "di": "Di", "ed": "Ed"}


def profiles(*visitors: str) -> list[Player]:
    made = []
    for visitor in visitors:
        player = Player.objects.create(
            visitor=visitor, name=NAMES[visitor], name_key=look_alike_key(NAMES[visitor])
        )
        diamonds.welcome(player)
        made.append(player)
    return made


def make(visitors, **options) -> Tournament:
    """A tournament made by the first visitor, joined by all of them, started now."""
    profiles(*visitors)
    made = services.create(visitors[0], TournamentOptions(**({"name": "Friday"} | options)))
    for visitor in visitors:
        services.join(made.pk, visitor)
    return made


def under_way(tournament: Tournament) -> list[Game]:
    ids = (
        TournamentGame.objects.filter(tournament=tournament, finished_at__isnull=True)
        .values_list("game_id", flat=True)
        .distinct()
    )
    return list(Game.objects.filter(pk__in=list(ids)))


def play_round(tournament: Tournament) -> int:
    """Play every game under way to its end, then let the clock move on (as its sweep does)."""
    played = under_way(tournament)
    for game in played:
        play_out(game)
    clock.advance(tournament.pk)
    tournament.refresh_from_db()
    return len(played)


def audit_ok() -> diamonds.Audit:
    report = diamonds.audit()
    assert report.problems == []
    return report


def test_a_tournament_of_one_is_cancelled_at_its_start_and_its_fee_given_back():
    made = make(["ana"], format="arena", minutes=30, entry_fee=50)
    assert Player.objects.get(visitor="ana").diamonds == 450
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    assert made.status == Tournament.Status.CANCELLED
    assert Player.objects.get(visitor="ana").diamonds == 500
    assert audit_ok().in_play == 0
    assert not clock.advance(made.pk)  # over: nothing more to do


def test_an_arena_pairs_at_once_counts_streaks_and_pays_its_podium_once():
    made = make(["ana", "bo", "cy"], format="arena", minutes=30, entry_fee=100)
    services.add_computer(made.pk, "ana", "beginner")
    assert not clock.advance(made.pk)  # not its time yet
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    assert made.status == Tournament.Status.RUNNING and made.ends_at > timezone.now()
    # Four players: two games at once, everyone in one.
    first = under_way(made)
    assert len(first) == 2
    playing = Counter(TournamentGame.objects.filter(finished_at__isnull=True).values_list("entry"))
    assert sorted(playing.values()) == [1, 1, 1, 1]
    assert not any(g.seat_of("") for g in first)  # the computer's seat has no browser
    rows = {row.name: row for row in standings(made)}
    assert all(row.game_id for row in rows.values())
    for _ in range(3):
        assert play_round(made) == 2
    # Never the same opponent twice in a row.
    for entry in Entry.objects.filter(tournament=made):
        opponents = list(entry.games.order_by("id").values_list("opponent", flat=True))
        assert all(a != b for a, b in zip(opponents, opponents[1:], strict=False)), opponents
        history = [
            arena_format.ArenaGame(g.result, g.berserk)
            for g in entry.games.filter(finished_at__isnull=False).order_by("finished_at", "id")
        ]
        assert entry.points == sum(arena_format.game_points(history))
    # The end: the games under way finish and count, then it is over and the pot is paid.
    Tournament.objects.filter(pk=made.pk).update(ends_at=timezone.now())
    clock.advance(made.pk)
    made.refresh_from_db()
    assert made.status == Tournament.Status.RUNNING and len(under_way(made)) == 2
    assert not Entry.objects.filter(tournament=made, waiting_since__isnull=False).exists()
    play_round(made)
    assert made.status == Tournament.Status.FINISHED and not under_way(made)
    prizes = DiamondEntry.objects.filter(pot=services.pot_name(made), reason="prize")
    assert sum(prizes.values_list("amount", flat=True)) == 300
    by_entry = results.prizes_paid(made)
    assert sum(by_entry.values()) == 300 and len(by_entry) == prizes.count()
    assert diamonds.named_pot(services.pot_name(made)) == 0
    table = standings(made)
    podium = [row for row in table if not row.computer][:3]
    paid = dict(prizes.values_list("player__name", "amount"))
    assert set(paid) <= {row.name for row in podium}
    assert not any(row.computer and row.name in paid for row in table)
    clock.advance(made.pk)  # a second end pays nothing
    assert prizes.count() == len(paid)
    assert audit_ok().in_play == 0


def test_a_person_waiting_alone_plays_the_makers_computer(settings):
    made = make(["ana", "bo", "cy"], format="arena", minutes=30, computer="beginner")
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    alone = Entry.objects.get(tournament=made, waiting_since__isnull=False)
    assert len(under_way(made)) == 1
    assert not clock.advance(made.pk)  # not alone long enough yet
    Entry.objects.filter(pk=alone.pk).update(waiting_since=timezone.now() - clock.FILL_AFTER)
    assert clock.advance(made.pk)
    game = TournamentGame.objects.get(entry=alone)
    assert game.against_computer and game.opponent is None
    assert [seat.bot for seat in game.game.ordered_seats()] == ["", "beginner"]
    assert not game.game.ranked


def test_a_player_who_leaves_mid_game_loses_it_and_the_arena_goes_on():
    made = make(["ana", "bo", "cy"], format="arena", minutes=30)
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    ana = Entry.objects.get(player__visitor="ana")
    row = services.current_game(ana) or services.current_game(
        Entry.objects.get(player__visitor="bo")
    )
    leaver = row.entry
    services.leave(made.pk, leaver.player.visitor)
    row.refresh_from_db()
    assert row.result == 0.0 and row.finished_at is not None
    other = TournamentGame.objects.get(game=row.game, entry=row.opponent)
    assert other.result == 1.0 and other.points == 2
    clock.advance(made.pk)
    made.refresh_from_db()
    assert made.status == Tournament.Status.RUNNING
    assert services.current_game(Entry.objects.get(pk=leaver.pk)) is None
    left = next(r for r in standings(made) if r.entry_id == leaver.pk)
    assert left.left and left.losses == 1


def test_paused_players_are_not_paired_and_come_back_to_wait():
    made = make(["ana", "bo"], format="arena", minutes=30)
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    play_round(made)  # Ana and Bo played: they may not meet twice in a row, both wait
    services.pause(made.pk, "ana")
    assert Entry.objects.get(player__visitor="ana").waiting_since is None
    with pytest.raises(StaleAction, match="paused already"):
        services.pause(made.pk, "ana")
    services.come_back(made.pk, "ana")
    assert Entry.objects.get(player__visitor="ana").waiting_since is not None


def test_berserk_halves_the_seats_timer_and_adds_a_point_for_a_win():
    made = make(["ana", "bo"], format="arena", minutes=30, berserk=True)
    services.start_now(made.pk, "ana")
    game = under_way(made)[0]
    first, second = (seat.visitor for seat in game.ordered_seats())
    full = game.turn_deadline - game.turn_started_at
    games.perform(game.id, first, "roll", {"held": [False] * 5}, game.step)
    with pytest.raises(IllegalMove, match="before your first roll"):
        services.go_berserk(made.pk, first)
    services.go_berserk(made.pk, second)
    with pytest.raises(StaleAction, match="berserk already"):
        services.go_berserk(made.pk, second)
    game.refresh_from_db()
    assert [seat.berserk for seat in game.ordered_seats()] == [False, True]
    assert game.turn_deadline - game.turn_started_at == full  # the first seat's turn: all of it
    box = game.state().cards[0].open_boxes[0]
    games.perform(game.id, first, "score", {"box": box}, game.step)
    game.refresh_from_db()
    assert game.turn_deadline - game.turn_started_at == full / 2  # the berserk seat's: half
    play_out(game)
    row = TournamentGame.objects.get(game=game, entry__player__visitor=second)
    assert row.berserk and row.points == {1.0: 3, 0.5: 1, 0.0: 0}[row.result]
    unberserk = TournamentGame.objects.get(game=game, entry__player__visitor=first)
    assert not unberserk.berserk and unberserk.points == {1.0: 2, 0.5: 1, 0.0: 0}[unberserk.result]


def test_a_swiss_pairs_equal_points_never_twice_and_gives_the_odd_one_the_computer():
    made = make(["ana", "bo", "cy"], format="swiss", rounds=3)
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    for number in (1, 2, 3):
        assert made.round == number
        rows = TournamentGame.objects.filter(tournament=made, round=number)
        assert sorted(Counter(rows.values_list("entry", flat=True)).values()) == [1, 1, 1]
        assert rows.filter(against_computer=True, opponent=None).count() == 1
        play_round(made)
    assert made.status == Tournament.Status.FINISHED
    # Each player met each other once and the computer once.
    for entry in Entry.objects.filter(tournament=made):
        opponents = list(entry.games.values_list("opponent", flat=True))
        assert sorted(opponents, key=str) == sorted(
            [None, *Entry.objects.exclude(pk=entry.pk).values_list("pk", flat=True)], key=str
        )
    table = standings(made)
    assert [row.rank for row in table] == sorted(row.rank for row in table)
    assert sum(row.points for row in table) == sum(
        g.result for g in TournamentGame.objects.filter(tournament=made)
    )
    assert all(row.buchholz is not None for row in table)


def test_a_best_of_three_match_plays_until_it_is_decided():
    made = make(["ana", "bo"], format="swiss", rounds=1, best_of=3)
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    played = 0
    while made.status == Tournament.Status.RUNNING:
        played += play_round(made)
    results = list(
        TournamentGame.objects.filter(entry__player__visitor="ana").values_list("result", flat=True)
    )
    assert played == len(results) and 2 <= played <= 3
    assert results.count(1.0) == 2 or results.count(0.0) == 2 or played == 3


def test_duplicate_rounds_deal_everyone_the_same_dice_shown_when_the_round_is_over():
    made = make(["ana", "bo"], format="duplicate", rounds=2)
    services.add_computer(made.pk, "ana", "beginner")
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    first = Round.objects.get(tournament=made, number=1)
    round_games = Game.objects.filter(tournament_games__round=1)
    assert {g.seed for g in round_games} == {first.seed} and round_games.count() == 3
    assert all(g.turn_seconds == made.turn_seconds or g.ordered_seats()[0].bot for g in round_games)
    people = [g for g in round_games if not g.ordered_seats()[0].bot]
    assert all(not g.seed_revealed and not g.open_to("someone else") for g in people)
    computer = TournamentGame.objects.get(tournament=made, round=1, entry__bot="beginner")
    assert computer.finished_at is not None  # the computer played as the round began
    play_round(made)
    assert made.round == 2
    for game in Game.objects.filter(tournament_games__round=1):
        assert game.seed_revealed and game.open_to("someone else")
    assert Round.objects.get(pk=first.pk).finished_at is not None
    play_round(made)
    assert made.status == Tournament.Status.FINISHED
    table = standings(made)
    assert all(row.points_lost is not None and row.total_score > 0 for row in table)
    assert [row.points for row in table] == sorted(row.points for row in table)


def test_two_players_on_the_same_seed_see_the_same_faces_for_the_same_holds():
    seed = dice.new_seed()
    later = timezone.now() + timedelta(hours=1)
    first, second = (
        games.start_game(
            v, [v], mode=Game.Mode.SOLO, seed=seed, reveal_after=later, turn_seconds=60
        )
        for v in ("ana", "bo")
    )
    faces = {}
    for game, visitor in ((first, "ana"), (second, "bo")):
        seen = []
        for turn in range(3):
            game.refresh_from_db()
            games.perform(game.id, visitor, "roll", {"held": [False] * 5}, game.step)
            game.refresh_from_db()
            seen.append(list(game.dice))
            for die in (0, 2):
                games.perform(game.id, visitor, "hold", {"die": die, "held": True}, game.step)
                game.refresh_from_db()
            games.perform(game.id, visitor, "roll", {"held": list(game.held)}, game.step)
            game.refresh_from_db()
            seen.append(list(game.dice))
            box = game.state().cards[0].open_boxes[turn]
            games.perform(game.id, visitor, "score", {"box": box}, game.step)
        faces[visitor] = seen
    assert faces["ana"] == faces["bo"]
    third = games.start_game("cy", ["cy"], mode=Game.Mode.SOLO, turn_seconds=60)
    games.perform(third.id, "cy", "roll", {"held": [False] * 5}, 0)
    third.refresh_from_db()
    assert third.seed != seed


def test_a_duplicate_rounds_game_is_not_summed_up_as_a_daily_challenge():
    from history.models import Summary

    made = make(["ana", "bo"], format="duplicate", rounds=1)
    services.start_now(made.pk, "ana")
    play_round(Tournament.objects.get(pk=made.pk))
    assert Summary.objects.count() == 2 and not Summary.objects.filter(daily=True).exists()


def test_leaving_a_duplicate_round_leaves_its_game_to_the_timer():
    made = make(["ana", "bo"], format="duplicate", rounds=2)
    services.start_now(made.pk, "ana")
    services.leave(made.pk, "bo")
    bo = Entry.objects.get(player__visitor="bo")
    assert bo.status == Entry.Status.LEFT
    assert services.current_game(bo).game.status == Game.Status.PLAYING  # the timer ends it
    play_round(Tournament.objects.get(pk=made.pk))
    made.refresh_from_db()
    assert made.round == 2
    assert TournamentGame.objects.filter(round=2).get().entry.player.visitor == "ana"


def test_an_arena_pairs_again_as_soon_as_a_game_ends(django_capture_on_commit_callbacks):
    made = make(["ana", "bo", "cy", "di"], format="arena", minutes=30)
    services.start_now(made.pk, "ana")
    first, second = under_way(made)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        play_out(first)
    # Its two players wait for the other game's; once that ends, all four are paired again at
    # once, with nobody else calling the clock, and never against the one they just played.
    with django_capture_on_commit_callbacks(execute=True):
        play_out(second)
    again = under_way(Tournament.objects.get(pk=made.pk))
    assert len(again) == 2
    for game in again:
        seated = TournamentGame.objects.filter(game=game)
        before = {row.entry_id: row.opponent_id for row in seated}
        for row in seated:
            last = TournamentGame.objects.filter(
                entry=row.entry_id, finished_at__isnull=False
            ).get()
            assert last.opponent_id != before[row.entry_id]
    assert sent  # the result was announced after its commit


def test_a_rated_arena_rates_games_between_people_and_never_the_computers(
    django_capture_on_commit_callbacks,
):
    from lobby.models import RatingChange

    made = make(["ana", "bo", "cy"], format="arena", minutes=30, rated=True, computer="beginner")
    services.start_now(made.pk, "ana")
    people = under_way(made)[0]
    assert people.ranked and people.turn_seconds == made.turn_seconds
    Entry.objects.filter(waiting_since__isnull=False).update(
        waiting_since=timezone.now() - clock.FILL_AFTER
    )
    clock.advance(made.pk)
    computer = next(g for g in under_way(made) if g.pk != people.pk)
    assert not computer.ranked
    play_out(people), play_out(computer)
    assert RatingChange.objects.filter(game=people).count() == 2
    assert not RatingChange.objects.filter(game=computer).exists()


def test_a_swiss_of_two_people_and_two_computers_plays_every_pairing_out():
    made = make(["ana", "bo"], format="swiss", rounds=3)
    services.add_computer(made.pk, "ana", "beginner")
    services.add_computer(made.pk, "ana", "beginner")
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    while made.status == Tournament.Status.RUNNING:
        play_round(made)
    rows = TournamentGame.objects.filter(tournament=made)
    assert rows.count() == 12 and not rows.filter(finished_at__isnull=True).exists()
    assert not rows.filter(against_computer=True, opponent=None).exists()  # nobody odd
    table = standings(made)
    assert sum(row.points for row in table) == 6  # three rounds of two matches: 1 point each


def test_manage_py_tournaments_starts_what_is_due():
    from django.core.management import call_command

    from games import timeouts

    made = make(["ana", "bo"], format="arena", minutes=30)
    Tournament.objects.filter(pk=made.pk).update(starts_at=timezone.now())
    call_command("tournaments")
    made.refresh_from_db()
    assert made.status == Tournament.Status.RUNNING and len(under_way(made)) == 1
    assert clock.sweep in timeouts.SWEPT_WITH  # every socket server's sweep runs it too


def test_the_coach_is_off_in_a_duplicate_round_and_for_a_berserk_seat():
    from games.models import Seat
    from tests.clients import client_for

    made = make(["ana", "bo"], format="duplicate", rounds=1)
    services.start_now(made.pk, "ana")
    game = Game.objects.get(tournament_games__entry__player__visitor="ana")
    games.perform(game.id, "ana", "roll", {"held": [False] * 5}, 0)
    page = client_for("ana").get(f"/game/{game.id}/").text
    assert "hint-button" not in page and 'class="odds"' not in page
    practice = games.start_solo_game("ana")
    games.perform(practice.id, "ana", "roll", {"held": [False] * 5}, 0)
    page = client_for("ana").get(f"/game/{practice.id}/").text
    assert "hint-button" in page and 'class="odds"' in page
    Seat.objects.filter(game=practice).update(berserk=True)
    page = client_for("ana").get(f"/game/{practice.id}/").text
    assert "hint-button" not in page and 'class="odds"' not in page


def test_a_swiss_player_who_leaves_mid_match_loses_it_and_is_not_paired_again():
    made = make(["ana", "bo", "cy", "di"], format="swiss", rounds=3, best_of=3)
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    di = Entry.objects.get(player__visitor="di")
    opponent = services.current_game(di).opponent
    services.leave(made.pk, "di")
    for _ in range(6):  # the other match of round 1 is played out; Di's is over
        if made.round > 1:
            break
        play_round(made)
    assert made.round == 2
    assert list(TournamentGame.objects.filter(entry=di, round=1).values_list("result")) == [(0.0,)]
    assert not TournamentGame.objects.filter(entry=di, round=2).exists()
    won = next(row for row in standings(made) if row.entry_id == opponent.pk)
    assert won.points == 1.0
    left = next(row for row in standings(made) if row.entry_id == di.pk)
    assert left.left and left.points == 0.0


def test_the_game_page_marks_a_berserk_seat_and_the_computer_is_never_away(settings):
    from tests.clients import client_for

    settings.AWAY_GRACE_SECONDS = 0
    made = make(["ana", "bo", "cy"], format="arena", minutes=30, berserk=True, computer="club")
    services.start_now(made.pk, "ana")
    people = under_way(made)[0]
    second = people.ordered_seats()[1]
    services.go_berserk(made.pk, second.visitor)
    page = client_for(second.visitor).get(f"/game/{people.id}/").text
    line = page.split(f"?seat={second.position}")[1].split("</li>")[0]
    assert line.endswith(" · berserk: half the time, no hints"), line
    first = page.split("?seat=0")[1].split("</li>")[0]
    assert "berserk" not in first
    Entry.objects.filter(waiting_since__isnull=False).update(
        waiting_since=timezone.now() - clock.FILL_AFTER
    )
    clock.advance(made.pk)
    computer = next(g for g in under_way(made) if g.pk != people.pk)
    visitor = computer.ordered_seats()[0].visitor
    page = client_for(visitor).get(f"/game/{computer.id}/").text
    line = page.split("?seat=1")[1].split("</li>")[0]
    assert line.endswith(": here"), line
    assert "Continue without" not in page


def test_paired_players_pages_go_to_their_new_game(django_capture_on_commit_callbacks):
    from core.socket_messages import Navigate
    from games.events import group_message

    sent = []

    def heard(sender, group, message, **kwargs):
        if message.get("type") == Navigate.type:
            sent.append((group, Navigate.read(message)))

    group_message.connect(heard)
    try:
        made = make(["ana", "bo", "cy", "di"], format="arena", minutes=30)
        with django_capture_on_commit_callbacks(execute=True):
            services.start_now(made.pk, "ana")
        first = {game.id for game in under_way(made)}
        assert {group for group, _ in sent} == {f"player-{v}" for v in ("ana", "bo", "cy", "di")}
        assert {message.url for _, message in sent} == {f"/game/{g}/" for g in first}
        assert all(message.rematch_of is None for _, message in sent)
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            for game in under_way(made):
                play_out(game)
        # Each one's finished game's page follows them to the next (as a rematch's does).
        for group, message in sent:
            visitor = group.removeprefix("player-")
            row = TournamentGame.objects.get(
                game_id=message.url.split("/")[2], entry__player__visitor=visitor
            )
            previous = TournamentGame.objects.filter(entry=row.entry, finished_at__isnull=False)
            assert message.rematch_of == previous.get().game_id
        assert len(sent) == 4
    finally:
        group_message.disconnect(heard)


def test_without_the_strategy_table_the_computer_plays_as_the_beginner(monkeypatch):
    from games import advice

    monkeypatch.setattr(advice, "is_ready", lambda rules: False)
    made = make(["ana"], format="swiss", rounds=1, computer="optimal")
    services.add_computer(made.pk, "ana", "club")
    services.start_now(made.pk, "ana")  # Ana and the computer entered: not held up
    game = under_way(Tournament.objects.get(pk=made.pk))[0]
    assert [seat.bot for seat in game.ordered_seats()] == ["", "beginner"]


def test_a_tournament_being_read_is_due_only_when_something_may_happen():
    made = make(["ana", "bo", "cy"], format="arena", minutes=30)
    assert not clock.due(made)  # upcoming, its time not come
    services.start_now(made.pk, "ana")
    made.refresh_from_db()
    assert not clock.due(made)  # two playing, one waiting alone, and no computer to fill in
    Tournament.objects.filter(pk=made.pk).update(computer="beginner")
    made.refresh_from_db()
    Entry.objects.filter(waiting_since__isnull=False).update(
        waiting_since=timezone.now() - clock.FILL_AFTER
    )
    assert clock.due(made)  # alone long enough for the computer
    swiss = make(["di", "ed"], format="swiss", rounds=2)
    services.start_now(swiss.pk, "di")
    swiss.refresh_from_db()
    assert not clock.due(swiss)  # its round is under way
    play_round(swiss)
    assert not clock.due(swiss)  # the next one is


def test_an_arena_never_pairs_two_players_with_a_block():
    from profiles import blocking

    made = make(["ana", "bo"], format="arena", minutes=30, computer="beginner")
    blocking.block("ana", Player.objects.get(visitor="bo").pk)
    services.start_now(made.pk, "ana")
    assert not under_way(made)  # both wait: the computer takes them on after a while
    Entry.objects.update(waiting_since=timezone.now() - clock.FILL_AFTER)
    clock.advance(made.pk)
    assert all(row.against_computer for row in TournamentGame.objects.all())
    assert TournamentGame.objects.count() == 2


def test_a_games_end_tells_the_tournaments_pages_once(django_capture_on_commit_callbacks):
    from tournaments.events import tournament_changed

    told = []

    def heard(sender, tournament_id, **kwargs):
        told.append(tournament_id)

    tournament_changed.connect(heard)
    try:
        made = make(["ana", "bo", "cy", "di"], format="arena", minutes=30)
        services.start_now(made.pk, "ana")
        first, second = under_way(made)
        with django_capture_on_commit_callbacks(execute=True):
            play_out(first)  # its players wait for the other game: the result alone
        assert told == [made.pk]
        with django_capture_on_commit_callbacks(execute=True):
            play_out(second)  # the result, and all four paired again: one message
        assert told == [made.pk, made.pk] and len(under_way(made)) == 2
    finally:
        tournament_changed.disconnect(heard)
