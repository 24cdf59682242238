"""Refusals answered in one place: a view raises, ``core.answers.answers_refusals`` maps the
refusal to its status and the player's words once, and the page's own draw shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import RequestFactory
from django.utils import translation

from core.answers import Refusal, answers_refusals
from core.refusals import NOT_YOURS, NotYourGame, StaleAction
from engine.rules import IllegalMove
from engine.words import _

ROOT = Path(__file__).resolve().parents[2]


def _drawn(request, refusal: Refusal, **view):
    return {"message": refusal.message, "status": refusal.status, "view": view}


@pytest.mark.parametrize(
    ("raised", "status", "message"),
    [
        (
            NotYourGame(NOT_YOURS),
            403,
            "Esta partida no es tuya: puedes verla, pero no jugar en ella.",
        ),
        (StaleAction(_("The game is over.")), 409, "La partida ha terminado."),
        (IllegalMove(_("The game is over.")), 400, "La partida ha terminado."),
    ],
)
def test_a_refusal_a_view_raises_is_drawn_with_its_status_and_words(raised, status, message):
    @answers_refusals(_drawn, also=(IllegalMove,))
    def view(request, game_id):
        raise raised

    with translation.override("es"):
        drawn = view(RequestFactory().post("/"), game_id="g1")
    assert drawn == {"message": message, "status": status, "view": {"game_id": "g1"}}


def test_only_refusals_are_answered():
    """The rules' IllegalMove is a refusal where a view says so (the game's); nothing else is."""

    @answers_refusals(_drawn)
    def view(request):
        raise IllegalMove(_("The game is over."))

    with pytest.raises(IllegalMove):
        view(RequestFactory().post("/"))


def test_what_a_view_returns_is_left_alone():
    @answers_refusals(_drawn)
    def view(request):
        return "the page"

    assert view(RequestFactory().get("/")) == "the page"


# The views that answer a refusal by hand, and why: the home page's start says it in the form's
# own panel; the chat says it in the panel of the place it loaded. (Socket consumers answer
# over their sockets: not views.)
BY_HAND = {"games/views.py": 1, "chat/views.py": 1}
VIEW_MODULES = [
    "games/views.py",
    "games/fairness.py",
    "games/responses.py",
    "lobby/views.py",
    "profiles/views.py",
    "chat/views.py",
    "daily/views.py",
    "history/practice.py",
    "tournaments/views.py",
]


@pytest.mark.parametrize("module", VIEW_MODULES)
def test_views_leave_their_refusals_to_the_one_answer(module):
    source = (ROOT / module).read_text()
    by_hand = re.findall(r"except .*Refused", source)
    assert len(by_hand) == BY_HAND.get(module, 0)
