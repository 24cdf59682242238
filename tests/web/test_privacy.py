"""Who may see a game, one rule for every view of it (``Game.open_to``, ``closed_page``).

A solo, computer or pass-the-phone game is its browser's own until it shares it; a daily
challenge's attempt is its player's until the day is over; online games are open to anyone with
the link, as to their watchers. A stranger is told so (403), on every view, and shown nothing.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from daily.models import Attempt
from games.models import Game
from tests.clients import HTMX, client_for, finished_online_game, url
from tests.factories import VISITOR, make_game, play_out

pytestmark = pytest.mark.django_db

# (method, address after /game/<id>/, extra headers): every page or fragment that shows a game.
VIEWS = [
    ("get", "", {}),
    ("get", "?at=1", HTMX),
    ("get", "sheet/", {}),
    ("get", "replay/", {}),
    ("get", "analysis/", {}),
    ("get", "verify/", {}),
    ("post", "speed/", {}),
    ("post", "roll/", HTMX),  # a stranger's refused move: the refusal shows no game either
]


def visit(client, game: Game, method: str, address: str, headers: dict):
    path = f"/game/{game.id}/{address}"
    if method == "post":
        data = {"speed": "instant"} if address == "speed/" else {"step": game.step}
        return client.post(path, data, headers=headers)
    return client.get(path, headers=headers)


def finished_solo() -> Game:
    return play_out(make_game())


@pytest.mark.parametrize(("method", "address", "headers"), VIEWS)
def test_a_strangers_view_of_an_unshared_solo_game_is_refused_and_shows_nothing(
    method, address, headers
):
    game = finished_solo()
    response = visit(client_for("stranger"), game, method, address, headers)
    page = response.content.decode()
    assert response.status_code == 403
    assert "This game is private" in page
    assert "card-" not in page and game.seed not in page  # no card, no seed


@pytest.mark.parametrize(("method", "address", "headers"), VIEWS[:3])
def test_a_strangers_view_of_a_solo_game_in_play_is_refused(method, address, headers):
    game = make_game([((1, 2, 3, 4, 6), "chance"), ((2, 2, 2, 5, 5), "full_house")])
    response = visit(client_for("stranger"), game, method, address, headers)
    assert response.status_code == 403 and "This game is private" in response.content.decode()
    assert visit(client_for(VISITOR), game, method, address, headers).status_code == 200


@pytest.mark.parametrize("address", ["", "sheet/", "replay/", "analysis/", "verify/"])
def test_the_player_and_once_shared_anyone_sees_every_view(address):
    game = finished_solo()
    assert client_for(VISITOR).get(f"/game/{game.id}/{address}").status_code == 200
    shared = client_for(VISITOR).post(f"/game/{game.id}/replay/share/", {"share": "1"})
    assert shared.status_code == 303
    assert client_for("stranger").get(f"/game/{game.id}/{address}").status_code == 200


def test_a_strangers_refused_move_on_a_solo_game_without_javascript_shows_nothing_either():
    game = make_game([((1, 2, 3, 4, 6), "chance")])
    response = client_for("stranger").post(url(game, "roll"), {"step": game.step})
    assert response.status_code == 403 and "This game is private" in response.content.decode()


@pytest.mark.parametrize("address", ["", "sheet/", "replay/", "analysis/"])
def test_an_online_game_stays_open_to_anyone_with_the_link(settings, address):
    game, _ana, _bo = finished_online_game(settings)
    assert client_for("stranger").get(f"/game/{game.id}/{address}").status_code == 200


def test_a_daily_attempts_printable_card_is_its_players_until_the_day_is_over():
    client_for("ana").post("/daily/start/")
    game = Attempt.objects.get(visitor="ana").game
    client_for("ana").post(url(game, "roll"), {"step": game.step}, headers=HTMX)
    stranger = client_for("bo").get(f"/game/{game.id}/sheet/")
    assert stranger.status_code == 403 and "daily challenge" in stranger.content.decode()
    assert client_for("ana").get(f"/game/{game.id}/sheet/").status_code == 200
    Game.objects.filter(pk=game.pk).update(reveal_after=timezone.now() - dt.timedelta(seconds=1))
    assert client_for("bo").get(f"/game/{game.id}/sheet/").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_strangers_socket_on_an_unshared_solo_game_is_refused():
    from channels.db import database_sync_to_async

    from tests.sockets import game_socket_opens

    game = await database_sync_to_async(make_game)()
    assert await game_socket_opens(game.id, VISITOR)
    assert not await game_socket_opens(game.id, "stranger")
