"""As an online game starts, its players are on their way to its page: "joining", not away with
their grace period counting down, until their pages open (or the time to get there is up)."""

from __future__ import annotations

import contextlib
import re

import pytest
from django.utils import timezone

from games.models import Game
from games.presenters.players import ARRIVING
from tests.clients import client_for, online_game
from tests.players import Player, receive, start_online_game
from tests.servers import Browser, Server


def presence_of(page: str, name: str) -> str:
    """What the page's players line says of a player now, its hidden words left out."""
    line = re.search(rf">{name}</a>: (.*?)</li>", page)[1]
    return re.sub(r"<span[^>]* hidden>[^<]*</span>|<[^>]+>", "", line)


def away_boxes(page: str) -> list[str]:
    """The away boxes' opening tags ("hidden" in one: page.js shows it when its time comes)."""
    return re.findall(r'<div class="leave-out"[^>]*>', page)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("joining")) as running:
        yield running


def test_a_watcher_sees_the_players_joining_not_away_as_a_game_starts(server):
    with contextlib.ExitStack() as sockets:
        ana, bo = Player("Ana", server.url, sockets), Player("Bo", server.url, sockets)
        game_id = start_online_game(ana, bo)
        watcher = Browser(server.url)
        status, page = watcher.get(f"/game/{game_id}/")  # before either page has opened
        assert status == 200 and "You are watching this game." in page
        assert (presence_of(page, "Ana"), presence_of(page, "Bo")) == ("joining", "joining")
        boxes = away_boxes(page)
        assert len(boxes) == 2 and all(" hidden" in box for box in boxes)
        receive(ana.connect(f"/ws/game/{game_id}/"), 'id="game"')  # Ana's page is open
        page = watcher.get(f"/game/{game_id}/")[1]
        assert (presence_of(page, "Ana"), presence_of(page, "Bo")) == ("here", "joining")


@pytest.mark.django_db
def test_a_player_whose_page_never_opens_is_away_once_the_time_to_get_there_is_up():
    game, ana, _bo = online_game()
    watcher = client_for("stranger")
    page = watcher.get(f"/game/{game.id}/").content.decode()
    assert presence_of(page, "Bo") == "joining"
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - ARRIVING)
    for client in (watcher, ana):
        page = client.get(f"/game/{game.id}/").content.decode()
        assert presence_of(page, "Bo") == "away" and "Bo is away." in page
        assert [" hidden" in box for box in away_boxes(page)] == [False, False]
