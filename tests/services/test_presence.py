"""Presence derived from the open pages' rows: right after a crash, with or without a restart."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import presence, services
from games.models import Game, Seat
from games.openpages import OpenPage
from lobby import presence as lobby_presence
from lobby.models import Player
from tests.clients import online_game, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    ana = Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    bo = Player.objects.create(visitor="bo", name="Bo", name_key="bo")
    return services.start_online_game([ana, bo])


def here(game) -> dict[str, bool]:
    now = timezone.now()
    seats = Seat.objects.filter(game=game)
    return {s.visitor: bool(s.present_until and s.present_until > now) for s in seats}


def test_a_seat_is_here_while_one_of_its_pages_is_open(game):
    assert presence.page_opened("a1", "p", game.id, "ana") is True
    assert presence.page_opened("a2", "p", game.id, "ana") is False  # already here
    assert Seat.objects.get(game=game, visitor="ana").connections == 2
    assert presence.page_closed("a1", game.id, "ana") is False
    assert here(game) == {"ana": True, "bo": False}
    assert presence.page_closed("a2", game.id, "ana") is True
    assert here(game) == {"ana": False, "bo": False}
    assert Seat.objects.get(game=game, visitor="ana").connections == 0


def test_a_restarted_server_forgets_the_pages_of_its_previous_run(game):
    presence.page_opened("old-ana", "host:8000", game.id, "ana")
    presence.page_opened("old-bo", "host:8000", game.id, "bo")
    presence.page_opened("other-bo", "host:8001", game.id, "bo")  # another server's: kept
    assert presence.forget_process("host:8000") == [game.id]
    assert here(game) == {"ana": False, "bo": True}
    assert list(OpenPage.objects.values_list("channel", flat=True)) == ["other-bo"]
    assert presence.forget_process("host:8000") == []  # nothing left to forget


def test_a_heartbeat_lapses_the_pages_of_a_server_that_never_came_back(game):
    presence.page_opened("ana-page", "alive:8000", game.id, "ana")
    presence.page_opened("bo-page", "dead:8000", game.id, "bo")
    assert here(game) == {"ana": True, "bo": True}
    # Bo's server died: his page's heartbeat stopped a window ago.
    OpenPage.objects.filter(channel="bo-page").update(until=timezone.now() - timedelta(seconds=1))
    assert presence.page_alive("ana-page", "alive:8000", game.id, "ana") is True
    assert here(game) == {"ana": True, "bo": False}
    assert not OpenPage.objects.filter(channel="bo-page").exists()
    assert presence.page_alive("ana-page", "alive:8000", game.id, "ana") is False


def test_a_heartbeat_brings_back_a_page_that_was_forgotten(game):
    """Two servers on one port (uvicorn --workers) forget each other's pages when one starts:
    the other's next heartbeat counts them again."""
    presence.page_opened("ana-page", "host:8000", game.id, "ana")
    presence.forget_process("host:8000")
    assert here(game)["ana"] is False
    assert presence.page_alive("ana-page", "host:8000", game.id, "ana") is True
    assert here(game)["ana"] is True


def test_a_watchers_page_does_not_make_anyone_here(game):
    assert presence.page_opened("w", "p", game.id, None) is False
    assert presence.page_alive("w", "p", game.id, None) is False
    assert here(game) == {"ana": False, "bo": False}
    assert not OpenPage.objects.exists()


def test_a_player_is_online_while_a_lobby_or_table_page_is_open(game):
    assert lobby_presence.arrive("l1", "p", "bo") is True
    assert lobby_presence.arrive("l2", "p", "bo") is False
    assert [p.name for p in Player.objects.online()] == ["Bo"]
    assert lobby_presence.depart("l1", "bo") is False
    assert lobby_presence.depart("l2", "bo") is True
    assert list(Player.objects.online()) == []
    # A visitor who never chose a name changes nothing anyone sees.
    assert lobby_presence.arrive("n1", "p", "nameless") is False
    assert lobby_presence.depart("n1", "nameless") is False


def test_a_lobby_heartbeat_lapses_pages_whose_server_died(game):
    lobby_presence.arrive("ana-lobby", "dead:1", "ana")
    lobby_presence.arrive("bo-lobby", "alive:1", "bo")
    OpenPage.objects.filter(channel="ana-lobby").update(until=timezone.now() - timedelta(seconds=1))
    assert [p.name for p in Player.objects.online()] == ["Ana", "Bo"]
    assert lobby_presence.touch("bo-lobby", "alive:1", "bo") is True  # the lobby redraws
    assert not OpenPage.objects.filter(channel="ana-lobby").exists()
    assert [p.name for p in Player.objects.online()] == ["Bo"]


def test_a_socket_server_is_named_the_same_across_restarts(settings):
    scope = {"server": ("127.0.0.1", 8101)}
    assert presence.process_name(scope) == presence.process_name(dict(scope))
    assert presence.process_name(scope) != presence.process_name({"server": ("127.0.0.1", 8102)})
    unix = presence.process_name({"server": ("/run/yahtzee/ws1.sock", None)})
    assert unix != presence.process_name({"server": ("/run/yahtzee/ws2.sock", None)})
    settings.SOCKET_SERVER_ID = "ws-1"  # a container whose host name changes on every start
    assert presence.process_name(scope) == "ws-1"


def other_position(seat: Seat) -> int:
    return 1 - seat.position


def test_a_player_moving_by_plain_form_posts_is_here_and_cannot_be_left_out(settings):
    """A browser without JavaScript has no socket: its seat counted as away from the game's
    creation, so two minutes in, the other player could go on without it between two of its
    moves (and take a ranked or diamond pot). A move by any path is presence."""
    settings.AWAY_GRACE_SECONDS = 120
    game, ana, bo = online_game()
    clients = {"ana": ana, "bo": bo}
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    for _ in range(2):  # each player's first turn, by plain form posts only
        game = Game.objects.get(pk=game.pk)
        seat = game.ordered_seats()[game.current_seat]
        mover = clients[seat.visitor]
        other = clients["bo" if seat.visitor == "ana" else "ana"]
        rolled = mover.post(url(game, "roll"), {"step": game.step, "held": "00000"})
        assert rolled.status_code == 302
        refused = other.post(f"/game/{game.id}/leave-out/", {"seat": seat.position})
        assert refused.status_code == 409 and "still in the game" in refused.text
        game = Game.objects.get(pk=game.pk)
        scored = mover.post(url(game, "score"), {"step": game.step, "box": "chance"})
        assert scored.status_code == 302
    assert not game.actions.filter(kind="forfeit").exists()
    assert "</a>: away" not in bo.get(f"/game/{game.id}/").text  # both are here
    # A player who stops moving is away a window after their last move, then has the grace.
    last = timezone.now() - presence.PRESENCE_WINDOW - timedelta(seconds=121)
    OpenPage.objects.update(until=last)
    Seat.objects.filter(game=game).update(present_until=last)
    game = Game.objects.get(pk=game.pk)
    waiting = game.ordered_seats()[game.current_seat]
    other = clients["bo" if waiting.visitor == "ana" else "ana"]
    left = other.post(f"/game/{game.id}/leave-out/", {"seat": waiting.position})
    assert left.status_code == 302
    assert game.actions.filter(kind="forfeit", seat=other_position(waiting)).exists()


def test_a_move_keeps_its_seat_here_for_a_window_but_opens_no_page(game):
    """No page is there to be sent redraws (``connections``), and a seat kept here by its open
    page is left alone: a move over a socket writes nothing more."""
    services.perform(game.id, "ana", "roll", {"held": [False] * 5}, 0)
    ana = Seat.objects.get(game=game, visitor="ana")
    assert here(game) == {"ana": True, "bo": False} and ana.connections == 0
    assert ana.present_until > timezone.now() + presence.PRESENCE_WINDOW - timedelta(seconds=5)
    presence.page_opened("bo-page", "p", game.id, "bo")
    before = OpenPage.objects.count()
    services.perform(game.id, "ana", "score", {"box": "chance"}, 1)
    services.perform(game.id, "bo", "roll", {"held": [False] * 5}, 2)
    assert OpenPage.objects.count() == before


def test_a_page_that_opens_then_closes_leaves_its_seat_away_at_once_after_a_move(game):
    """Review of issue 29: a move's minute of presence (``moved``) outlived the page: a seat whose
    socket then opened and closed stayed here until that minute ran out."""
    services.perform(game.id, "ana", "roll", {"held": [False] * 5}, 0)  # a posted move
    assert here(game)["ana"] is True
    presence.page_opened("page-1", "process-1", game.pk, "ana")
    presence.page_closed("page-1", game.pk, "ana")
    assert here(game)["ana"] is False
