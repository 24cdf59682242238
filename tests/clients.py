"""Django test clients for a visitor: a session with its identity, the URL of a move, the htmx
header; a visitor online under a name, and an online game between two of them."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from daily import services as daily
from daily.models import Attempt
from engine.rules import CATEGORIES
from games import services
from games.models import Game, Seat
from lobby.models import Challenge, Player
from tests.factories import VISITOR

HTMX = {"HX-Request": "true"}


def client_for(visitor: str = VISITOR) -> Client:
    client = Client()
    session = client.session
    session["visitor"] = visitor
    session.save()
    return client


def url(game: Game, kind: str) -> str:
    return reverse("games:act", args=[game.id, kind])


def online(visitor: str, name: str) -> Client:
    client = client_for(visitor)
    response = client.post("/online/name/", {"name": name})
    assert response.status_code == 302, response.content.decode()[-3000:]
    return client


def online_game() -> tuple[Game, Client, Client]:
    ana, bo = online("ana", "Ana"), online("bo", "Bo")
    ana.post("/online/challenge/", {"player": Player.objects.get(visitor="bo").pk})
    bo.post(f"/online/challenge/{Challenge.objects.get().pk}/accept/")
    return Game.objects.get(), ana, bo


def finished_online_game(settings) -> tuple[Game, Client, Client]:
    """Ana ends a game without Bo, who then comes back to its page (both are here)."""
    settings.AWAY_GRACE_SECONDS = 0
    game, ana, bo = online_game()
    Seat.objects.filter(game=game, visitor="ana").update(
        present_until=timezone.now() + timedelta(seconds=30)
    )
    ana.post(f"/game/{game.id}/leave-out/", {"seat": 1, "end": "1"})
    here(game, "ana", "bo")
    return game, ana, bo


def here(game: Game, *visitors: str) -> None:
    """These players have the game's page open now (as their sockets would say)."""
    Seat.objects.filter(game=game, visitor__in=visitors).update(
        present_until=timezone.now() + timedelta(seconds=30)
    )


# What a browser sends with a plain form post (a page load); see core.answers.form_navigation.
FORM_POST = {"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}


def refusal_text(client: Client, response, status: int) -> str:
    """What a refused post shows, checked on each path: htmx and scripts get the refusal's status
    with the page; a browser's form post is sent on (303) to the page, which says why once."""
    if response.wsgi_request.headers.get("Sec-Fetch-Mode") != "navigate":
        assert response.status_code == status, response.status_code
        return response.text
    assert response.status_code == 303, response.status_code
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert page.text.count('role="alert"') == 1
    return page.text


def start_daily(visitor: str) -> Game:
    """Start this browser's attempt at the day's challenge, through the page."""
    client_for(visitor).post("/daily/start/")
    return Attempt.objects.get(visitor=visitor, challenge__day=daily.today()).game


def daily_move(game: Game, visitor: str, kind: str, **params) -> None:
    game.refresh_from_db()
    services.perform(game.id, visitor, kind, params, game.step)


def finish_daily(game: Game, visitor: str, boxes=CATEGORIES) -> Game:
    """Play the attempt to its end, one roll a turn, each scored in the first of ``boxes`` the
    rules allow: a Yahtzee's forced joker may not allow the next one (the day's dice are random)."""
    game.refresh_from_db()
    while game.status != Game.Status.FINISHED:
        if not game.rolls:
            daily_move(game, visitor, "roll")
            game.refresh_from_db()
        options = game.state().cards[0].options(game.dice)
        daily_move(game, visitor, "score", box=next(box for box in boxes if box in options))
        game.refresh_from_db()
    return game
