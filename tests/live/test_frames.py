"""What a game socket takes from a page: moves, at a person's pace."""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.test import RequestFactory

from core.socket_messages import ANSWER, MalformedFrame, MoveFrame
from games.live import moves
from games.live.csrf import csrf_matches, masked
from tests.players import Player, receive, start_online_game
from tests.servers import Server


def test_a_frame_budget_allows_a_burst_then_a_steady_rate(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(moves.time, "monotonic", lambda: clock[0])
    budget = moves.FrameBudget(burst=3, per_second=2)
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    clock[0] += 0.5  # one frame's worth back
    assert [budget.take(), budget.take()] == [True, False]
    clock[0] += 60  # never more than the burst saved up
    assert sum(budget.take() for _ in range(10)) == 3


@pytest.mark.parametrize(
    ("frame", "move"),
    [
        ('{"move": "roll", "step": "0"}', {"move": "roll", "step": "0"}),
        ('{"move": "score", "box": "chance"}', {"move": "score", "box": "chance"}),
        ('{"move": "undo"}', None),
        ("[" * 2000, None),
        ("null", None),
        (None, None),
        ('{"move": "hold", "pad": "' + "x" * 2000 + '"}', None),
    ],
)
def test_only_a_move_a_page_sends_is_taken(frame, move):
    if move is None:
        with pytest.raises(MalformedFrame):
            moves.parse_move(frame)
    else:
        assert moves.parse_move(frame) == MoveFrame(move["move"], move)


SECRET = "abcdefghijklmnopqrstuvwxyz012345"
OTHER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ543210"


def django_accepts(token: str, cookie: str) -> bool:
    """Whether Django's own CSRF middleware lets a form post with this token and cookie through."""
    request = RequestFactory().post("/", {"csrfmiddlewaretoken": token})
    request.COOKIES[settings.CSRF_COOKIE_NAME] = cookie
    middleware = CsrfViewMiddleware(lambda request: HttpResponse())
    return middleware.process_view(request, lambda request: HttpResponse(), (), {}) is None


# (token, cookie) pairs, made when the test runs: masks are random, and test ids must not be.
TOKENS = {
    "masked": lambda: (masked(SECRET), SECRET),
    "the cookie's own value": lambda: (SECRET, SECRET),  # as JavaScript clients send it
    "masked for another": lambda: (masked(OTHER), SECRET),
    "another's value": lambda: (OTHER, SECRET),
    "one short": lambda: (masked(SECRET)[:-1], SECRET),
    "a character not allowed": lambda: (masked(SECRET)[:-1] + "!", SECRET),
    "no token": lambda: ("", SECRET),
    "no cookie": lambda: (masked(SECRET), ""),
    "a cookie not Django's": lambda: (masked(SECRET), SECRET[:-1] + "!"),
    "a masked cookie": lambda: (masked(SECRET), masked(SECRET)),  # as older Djangos set it
    "a masked cookie of another": lambda: (masked(SECRET), masked(OTHER)),
}


@pytest.mark.parametrize("case", TOKENS)
def test_a_sockets_form_token_is_checked_as_djangos_middleware_checks_a_post(case):
    """Pins how ``games.live.csrf`` reads tokens (a socket has no request to give the
    middleware): if Django changes its tokens, socket moves and posts would disagree."""
    token, cookie = TOKENS[case]()
    accepted = case in ("masked", "the cookie's own value", "a masked cookie")
    assert csrf_matches(token, cookie) is django_accepts(token, cookie) is accepted


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("frames")) as running:
        yield running


def answers(socket, count: int) -> list[str]:
    """The next ``count`` answers to this page's own moves (pushes between them skipped)."""
    found = []
    while len(found) < count:
        message = socket.recv(timeout=10)
        if message.startswith(ANSWER):
            found.append(message)
    return found


def test_a_move_over_the_frame_budget_is_refused_in_words_and_can_be_sent_again(server):
    """Every frame gets its answer, in order: past the budget "Too fast", the move not applied;
    once the page has waited a moment the same move goes through."""
    with contextlib.ExitStack() as sockets:
        ana, bo = Player("Ana", server.url, sockets), Player("Bo", server.url, sockets)
        game_id = start_online_game(ana, bo)
        mover = next(
            p for p in (ana, bo) if 'class="roll-form"' in p.browser.get(f"/game/{game_id}/")[1]
        )
        page = mover.connect(f"/ws/game/{game_id}/")
        receive(page, 'id="game"')  # the catch-up
        token = next(c.value for c in mover.browser.cookies if c.name == "csrftoken")
        budget = moves.FrameBudget()
        hold = {"move": "hold", "step": "0", "die": "0", "held": "1", "csrfmiddlewaretoken": token}
        sent = budget.burst + 10
        for _ in range(sent):  # a page's taps arriving in a bunch: more than the burst
            page.send(json.dumps(hold))
        said = answers(page, sent)
        refused = [answer for answer in said if "Too fast: wait a moment" in answer]
        assert 0 < len(refused) <= sent - budget.burst
        assert all("Roll the dice" in answer for answer in said[: budget.burst])
        # Once the page has waited a moment, a move is applied again.
        roll = {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": token}
        deadline = time.monotonic() + 5
        while True:
            page.send(json.dumps(roll))
            [answer] = answers(page, 1)
            if "Too fast" not in answer or time.monotonic() > deadline:
                break
            time.sleep(1 / budget.per_second)
        assert 'role="alert"' not in answer and "rolled" in answer, answer[-2000:]
