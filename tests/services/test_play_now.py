"""Play now (lobby.playnow): two presses within a short time pair into one unrated live game; a
player alone waits and may stop or take the computer; who closed the page, who is busy and who
blocked the other are not paired; two presses at once make one game, on both databases."""

from __future__ import annotations

import concurrent.futures
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from core.refusals import ActionRefused, StaleAction
from games.models import Game
from games.openpages import OpenPage
from lobby import playnow, presence, ranked, services
from lobby.access import Forbidden
from lobby.models import ONLINE_WINDOW, Player, PlayNowEntry, QueueEntry
from profiles import blocking

pytestmark = pytest.mark.django_db


def named(visitor: str, name: str) -> Player:
    """A profile, on no page yet (as on the home page, which has no socket)."""
    return services.go_online(visitor, name)


def socket_open(visitor: str) -> None:
    """The waiting page's socket of this player connected (as lobby.consumers counts it)."""
    presence.arrive(f"channel-{visitor}", "test-process", visitor)


def socket_closed(visitor: str) -> None:
    presence.depart(f"channel-{visitor}", visitor)


def seats_of(game: Game) -> set[str]:
    return {seat.visitor for seat in game.seats.all()}


def test_the_second_press_pairs_both_in_one_unrated_live_game():
    named("ana", "Ana"), named("bo", "Bo")
    assert playnow.press("ana") is None
    assert playnow.waiting_since("ana") is not None
    game = playnow.press("bo")
    assert game is not None and seats_of(game) == {"ana", "bo"}
    assert game.mode == Game.Mode.ONLINE and not game.ranked and game.pace == Game.Pace.LIVE
    # Both entries now lead to the game (Ana's waiting page goes there), neither waits.
    assert playnow.paired_game("ana") == playnow.paired_game("bo") == game.id
    assert playnow.waiting_since("ana") is None and playnow.waiting_since("bo") is None


def test_longest_waiting_is_paired_first():
    for visitor in ("ana", "bo", "cy"):
        named(visitor, visitor.title())
    blocking.block("ana", Player.objects.get(visitor="bo").pk)
    playnow.press("ana")
    assert playnow.press("bo") is None  # a block either way: never paired
    game = playnow.press("cy")
    assert seats_of(game) == {"ana", "cy"}  # Ana, who waited longest and may play Cy
    assert playnow.waiting_since("bo") is not None


def test_a_block_keeps_two_apart_however_long_they_wait():
    named("ana", "Ana"), named("bo", "Bo")
    blocking.block("bo", Player.objects.get(visitor="ana").pk)
    playnow.press("ana"), playnow.press("bo")
    assert playnow.pair_waiting() == []
    assert Game.objects.count() == 0


def test_stopping_leaves_the_queue_and_is_refused_the_second_time():
    named("ana", "Ana"), named("bo", "Bo")
    playnow.press("ana")
    playnow.cancel("ana")
    assert playnow.press("bo") is None  # nobody to play: Ana stopped
    with pytest.raises(StaleAction, match="not waiting"):
        playnow.cancel("ana")
    assert PlayNowEntry.objects.filter(player__visitor="ana").count() == 0


def test_pressing_twice_is_refused_and_changes_nothing():
    named("ana", "Ana")
    playnow.press("ana")
    since = playnow.waiting_since("ana")
    with pytest.raises(StaleAction, match="already waiting"):
        playnow.press("ana")
    assert playnow.waiting_since("ana") == since and PlayNowEntry.objects.count() == 1


def test_pressing_in_a_live_game_is_refused():
    named("ana", "Ana"), named("bo", "Bo")
    playnow.press("ana")
    playnow.press("bo")
    with pytest.raises(Forbidden, match="finish it first"):
        playnow.press("ana")
    assert Game.objects.count() == 1


def test_pressing_needs_a_name():
    with pytest.raises(Forbidden, match="Choose a name first"):
        playnow.press("nobody")
    with pytest.raises(Forbidden):
        playnow.press(None)
    assert PlayNowEntry.objects.count() == 0


def test_a_player_who_closed_the_waiting_page_is_not_paired_and_leaves_in_the_end():
    named("ana", "Ana"), named("bo", "Bo")
    playnow.press("ana")
    socket_open("ana")  # the waiting page's socket speaks for her from now on...
    socket_closed("ana")  # ...and she closed it: offline at once, not after the press's window
    assert not Player.objects.get(visitor="ana").online_until > timezone.now()
    assert playnow.press("bo") is None
    assert playnow.waiting_since("ana") is not None  # back within a minute, she would still wait
    later = timezone.now() + ONLINE_WINDOW + timedelta(seconds=1)
    assert playnow.pair_waiting(later) == []
    assert playnow.waiting_since("ana") is None  # gone for good


def test_without_javascript_each_load_keeps_a_player_here_for_a_while():
    named("ana", "Ana"), named("bo", "Bo")
    playnow.press("ana")  # no socket ever opens: the press, then the page's reloads
    OpenPage.objects.filter(visitor="ana").update(until=timezone.now() - timedelta(seconds=1))
    presence.refresh_player("ana")
    assert playnow.press("bo") is None  # her last load is too old: not here
    assert playnow.still_here("ana") is not None  # her page reloads: here again, and paired
    assert seats_of(Game.objects.get()) == {"ana", "bo"}


def test_a_busy_player_leaves_the_queue():
    for visitor in ("ana", "bo", "cy"):
        named(visitor, visitor.title())
    playnow.press("ana")
    ranked.start_unranked([Player.objects.get(visitor="ana"), Player.objects.get(visitor="cy")])
    assert playnow.press("bo") is None  # Ana is in a game now
    assert playnow.waiting_since("ana") is None


def test_a_pairing_takes_both_out_of_the_ranked_queue():
    named("ana", "Ana"), named("bo", "Bo")
    QueueEntry.objects.create(player=Player.objects.get(visitor="ana"))
    playnow.press("ana")
    playnow.press("bo")
    assert QueueEntry.objects.count() == 0


def test_the_computer_instead_stops_waiting():
    named("ana", "Ana"), named("bo", "Bo")
    playnow.press("ana")
    game = playnow.play_computer("ana", "beginner")
    assert game.mode == Game.Mode.COMPUTER and game.seats.get(position=1).bot == "beginner"
    assert playnow.waiting_since("ana") is None
    assert playnow.press("bo") is None  # Ana plays the computer: nobody for Bo


def test_the_computer_is_refused_once_paired():
    named("ana", "Ana"), named("bo", "Bo")
    playnow.press("ana")
    game = playnow.press("bo")
    with pytest.raises(StaleAction, match="has started"):
        playnow.play_computer("ana", "beginner")
    assert list(Game.objects.values_list("id", flat=True)) == [game.id]


def test_after_a_game_the_player_may_press_again():
    named("ana", "Ana"), named("bo", "Bo")
    playnow.press("ana")
    game = playnow.press("bo")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert playnow.press("ana") is None and playnow.paired_game("ana") is None


@pytest.mark.django_db(transaction=True)  # each thread commits on its own connection
def test_two_presses_at_once_make_one_game():
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip(
            "in memory (shared cache) a connection reading a table another writes fails at once "
            "(SQLITE_LOCKED): run with --sqlite-on-disk (the site's file database) or PostgreSQL"
        )
    names = {"ana": "Ana", "bo": "Bo", "cy": "Cy", "di": "Di"}
    for visitor, name in names.items():
        named(visitor, name)

    def press(visitor: str) -> str | None:
        try:
            game = playnow.press(visitor)
            return game.id if game else None
        except ActionRefused as refusal:
            return type(refusal).__name__
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(press, names))
    games = list(Game.objects.all())
    # Four presses at once: two games, each player in exactly one, whoever pressed second in
    # each pair told its game (and the others' pages sent there).
    assert len(games) == 2
    assert sorted(v for game in games for v in seats_of(game)) == sorted(names)
    assert sum(answer is not None for answer in answers) == 2
    assert PlayNowEntry.objects.filter(game=None).count() == 0


def test_a_press_shows_its_player_online_in_the_lobby_and_a_pairing_sends_both_pages(
    django_capture_on_commit_callbacks,
):
    from games import events

    named("ana", "Ana"), named("bo", "Bo")
    Player.objects.update(online_until=None)  # named long ago, offline since
    sent = []
    events.group_message.connect(
        lambda group, message, **kwargs: sent.append((group, message["type"])),
        weak=False,
        dispatch_uid="test-play-now",
    )
    try:
        with django_capture_on_commit_callbacks(execute=True):
            playnow.press("ana")
        assert sent == [("lobby", "lobby.changed")]  # Ana came online: the lobby's list shows her
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            playnow.press("bo")
    finally:
        events.group_message.disconnect(dispatch_uid="test-play-now")
    assert {group for group, kind in sent if kind == "navigate"} == {"player-ana", "player-bo"}
