"""The live pages' messages, each shape named once (``core.socket_messages``): a malformed frame
is refused with its reason, what the browser is sent is what static/js/game.js reads, and the
group messages are the dicts the consumers' handlers are called with."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from channels.consumer import get_handler_name

from core.socket_messages import (
    ANSWER,
    MAX_MOVE_BYTES,
    Close,
    GameChanged,
    LobbyChanged,
    MalformedFrame,
    MoveFrame,
    Navigate,
    PanelChanged,
    SignedOut,
    TableChanged,
    TournamentChanged,
    answer,
)
from games.consumers import GameConsumer
from games.forms import MOVES
from lobby.consumers import LobbyConsumer, TableConsumer
from tournaments.consumers import TournamentConsumer

GAME_JS = (Path(__file__).resolve().parents[2] / "static" / "js" / "game.js").read_text()


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        (None, "an empty frame"),
        ("", "an empty frame"),
        ("   ", "an empty frame"),
        ('{"move": "roll", "pad": "' + "x" * MAX_MOVE_BYTES + '"}', "more than 2000 characters"),
        ("not json at all", "not JSON"),
        ("[" * 1500, "not JSON"),  # thousands of nested brackets: a RecursionError inside
        ('["roll"]', "not a JSON object"),
        ("null", "not a JSON object"),
        ('{"step": "0"}', "no move a page sends: None"),
        ('{"move": "delete", "step": "0"}', "no move a page sends: 'delete'"),
        ('{"move": ["roll"], "step": 0}', "no move a page sends: ['roll']"),
    ],
)
def test_a_malformed_frame_is_refused_with_its_reason(frame, reason):
    with pytest.raises(MalformedFrame, match=re.escape(reason)):
        MoveFrame.parse(frame, MOVES)


def test_a_move_is_its_kind_and_its_text_fields_as_game_js_sends_them():
    # game.js: JSON.stringify({...Object.fromEntries(new FormData(form)), move})
    sent = {"csrfmiddlewaretoken": "t", "step": "4", "box": "chance", "move": "score"}
    assert MoveFrame.parse(json.dumps(sent), MOVES) == MoveFrame("score", sent)
    # Not text: left out, as a form posts only text (the move is then read as posted).
    frame = MoveFrame.parse('{"move": "hold", "die": 2, "held": "1", "x": null}', MOVES)
    assert frame.fields == {"move": "hold", "held": "1"}


def test_the_answer_marker_is_the_one_game_js_looks_for():
    assert f'const ANSWER = "{ANSWER}";' in GAME_JS
    assert answer("<p>x</p>") == "<!-- answer --><p>x</p>"


def test_only_a_failed_move_closes_a_socket_that_the_page_opens_again():
    """game.js tries a closed socket again on its RETRIED_CLOSES only: a failure (1011) is
    retried; a malformed frame, a signed-out browser, a private or gone game are not."""
    retried = re.search(r"const RETRIED_CLOSES = \[([\d, ]+)\]", GAME_JS)
    assert retried, "game.js names the closes it retries"
    codes = {int(code) for code in retried.group(1).split(",")}
    assert {close for close in Close if close in codes} == {Close.FAILED}
    assert [int(close) for close in Close] == [1007, 1011, 4401, 4403, 4404]


# Each group message as the channel layer carries it: the same dicts as before issue 30 but the
# chat's, now the panel hook's ``panel.changed`` (was ``chat.changed``): a chat line sent by a
# process of the old code during a deploy has no handler in the new consumers (Channels then
# ends the socket it reached; a game page opens it again).
MESSAGES = [
    (LobbyChanged(), {"type": "lobby.changed"}),
    (TableChanged(), {"type": "table.changed"}),
    (
        PanelChanged(panel="chat", sender="ana"),
        {"type": "panel.changed", "panel": "chat", "sender": "ana"},
    ),
    (SignedOut(kept="mark"), {"type": "signed.out", "kept": "mark"}),
    (
        Navigate(url="/game/g1/", rematch_of="g0"),
        {"type": "navigate", "url": "/game/g1/", "rematch_of": "g0"},
    ),
    (Navigate(url="/game/g1/"), {"type": "navigate", "url": "/game/g1/"}),
    (
        TournamentChanged(
            status="running", drawn=1.5, views={"en": "<p></p>"}, players={"a": "|in"}
        ),
        {
            "type": "tournament.changed",
            "status": "running",
            "drawn": 1.5,
            "views": {"en": "<p></p>"},
            "players": {"a": "|in"},
        },
    ),
    (
        GameChanged(parts=["status"], event="e1"),
        {"type": "game.changed", "parts": ["status"], "event": "e1"},
    ),
    (
        GameChanged(
            parts=["dice"],
            onlookers=["dice", "messages"],
            event="e2",
            tab="t",
            mover="ana",
            seated=["ana", "bo"],
            csrf="slot",
            version=7,
            views={"bo|en": "<div></div>"},
            pending=["|en"],
        ),
        {
            "type": "game.changed",
            "parts": ["dice"],
            "onlookers": ["dice", "messages"],
            "event": "e2",
            "tab": "t",
            "mover": "ana",
            "seated": ["ana", "bo"],
            "csrf": "slot",
            "version": 7,
            "views": {"bo|en": "<div></div>"},
            "pending": ["|en"],
        },
    ),
]


@pytest.mark.parametrize(("message", "sent"), MESSAGES, ids=lambda m: getattr(m, "type", ""))
def test_a_group_message_is_sent_as_a_plain_dict_and_read_back(message, sent):
    assert message.to_message() == sent
    assert type(message).read(sent) == message
    assert type(message).read(sent | {"from a later version": 1}) == message


def test_a_game_changed_message_read_as_the_handler_reads_it():
    bare = GameChanged.read({"type": "game.changed"})  # a page's catch-up names nothing
    assert (bare.parts, bare.onlookers_parts, bare.event, bare.views, bare.pending) == (
        ("game",),
        ("game",),
        None,
        {},
        (),
    )
    assert GameChanged(parts=["dice"], onlookers=["status"]).onlookers_parts == ["status"]


@pytest.mark.parametrize(
    ("consumer", "messages"),
    [
        (GameConsumer, [GameChanged, Navigate, LobbyChanged, PanelChanged, SignedOut]),
        (LobbyConsumer, [LobbyChanged, TableChanged, Navigate, SignedOut]),
        (TableConsumer, [LobbyChanged, TableChanged, Navigate, SignedOut, PanelChanged]),
        (TournamentConsumer, [TournamentChanged, LobbyChanged, TableChanged, Navigate, SignedOut]),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_each_group_message_has_its_handler_on_the_pages_that_take_it(consumer, messages):
    for message in messages:
        assert callable(getattr(consumer, get_handler_name({"type": message.type}), None))
