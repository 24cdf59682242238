"""Live updates over WebSockets, with Channels' communicator against the real routing."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.socket_messages import ANSWER, GameChanged
from games import consumers, recent, services
from games.live import csrf as live_csrf
from games.live import moves, redraws, sending, threads
from games.models import Action, Game, Seat
from lobby.models import Player
from tests.sockets import (
    SITE,
    caught_up,
    connect,
    drain,
    new_online_game,
    receive_containing,
    session_for,
)
from yahtzee_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def form_tokens(html: str) -> list[str]:
    """The CSRF tokens of the forms in a redraw."""
    return re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', html)


def count_renders(monkeypatch) -> list:
    """From now on, record the visitor of every redraw a consumer renders itself."""
    rendered = []
    render_game = redraws.render_game

    def counted(game_id, visitor, page, message):
        rendered.append(visitor)
        return render_game(game_id, visitor, page, message)

    monkeypatch.setattr(redraws, "render_game", counted)
    return rendered


async def next_answer(communicator: WebsocketCommunicator) -> str:
    """The next answer to this page's own move. Pushes before it are skipped: the catch-up and
    presence redraws sent as a page connects can come after ``drain``'s 0.2 s of quiet on a
    busy machine."""
    for _ in range(10):
        message = await communicator.receive_from(timeout=3)
        if message.startswith(ANSWER):
            return message
    raise AssertionError("no answer")


async def test_a_move_reaches_the_other_seat_and_watchers_see_no_controls():
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/", "ana")
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    watcher = await connect(f"/ws/game/{game.id}/", None)
    for socket in (ana, bo, watcher):
        await drain(socket)  # presence updates from the connections
    await database_sync_to_async(services.perform)(
        game.id, "ana", "roll", {"held": [False] * 5}, 0, roll=lambda n: [6, 6, 6, 2, 1]
    )
    to_bo = await receive_containing(bo, "Ana rolled")
    # On the pages that cannot play, a roll changes only the dice and the message line.
    assert re.findall(r'id="(\w+)"[^>]*hx-swap-oob', to_bo) == ["dice", "messages"]
    assert 'aria-label="Die 1: 6"' in to_bo
    assert "Ana is playing" in to_bo
    assert 'id="roll-button"' not in to_bo  # not Bo's turn
    to_ana = await receive_containing(ana, "rolled 6 6 6 2 1")
    # Each page tells the move its own way: the mover is "you", not their name (issue 16).
    assert "You rolled 6 6 6 2 1. 2 rolls left." in to_ana and "Ana rolled" not in to_ana
    # The mover's page: the dice, the card's previews, the status and the message line.
    assert re.findall(r'id="(\w+)"[^>]*hx-swap-oob', to_ana) == [
        "dice", "coach", "card", "status", "messages"
    ]  # fmt: skip
    assert 'id="roll-button"' in to_ana
    to_watcher = await receive_containing(watcher, "rolled 6 6 6 2 1")
    assert 'aria-label="Die 1: 6"' in to_watcher
    assert "<form" not in to_watcher and "csrfmiddlewaretoken" not in to_watcher
    for socket in (ana, bo, watcher):
        await socket.disconnect()


async def test_each_seat_gets_the_redraw_of_a_score_with_its_own_csrf_token():
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/", "ana", "csrftoken=ana" + "a" * 29)
    bo = await connect(f"/ws/game/{game.id}/", "bo", "csrftoken=bob" + "b" * 29)
    for socket in (ana, bo):
        await drain(socket)
    perform = database_sync_to_async(services.perform)
    await perform(game.id, "ana", "roll", {"held": [False] * 5}, 0, roll=lambda n: [5] * n)
    await perform(game.id, "ana", "score", {"box": "fives"}, 1)
    to_bo = await receive_containing(bo, "Ana scored 25 points in Fives.")
    assert 'id="roll-button"' in to_bo  # Bo's turn now: his page has the controls
    tokens = form_tokens(to_bo)
    assert len(tokens) == 6 and all(live_csrf.csrf_matches(t, "bob" + "b" * 29) for t in tokens)
    assert not any(live_csrf.csrf_matches(t, "ana" + "a" * 29) for t in tokens)
    assert live_csrf.CSRF_SLOT not in to_bo
    to_ana = await receive_containing(ana, "You scored 25 points in Fives.")
    assert 'id="roll-button"' not in to_ana and live_csrf.CSRF_SLOT not in to_ana
    for socket in (ana, bo):
        await socket.disconnect()


SWAPPED = re.compile(
    r'<\w+ id="([\w-]+)"[^>]*hx-swap-oob|<template data-rows>(.*?)</template>', re.S
)


def swapped_ids(html: str) -> list[str]:
    """The ids a redraw swaps, in order: its out-of-band parts and the card rows it carries."""
    ids = []
    for part, rows in SWAPPED.findall(html):
        ids += [part] if part else re.findall(r'<tr id="([\w-]+)"', rows)
    return ids


async def test_a_score_pushes_the_other_pages_only_what_it_changed():
    """A score redraws, on everyone's pages but the scorer's, the panels above the card, the
    names row, the scored box's row and the totals; the scorer's own other pages (their
    previews go), pages that do not say they swap rows, and every page once the game is over
    get the whole game area."""
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/?rows=1", "ana")
    bo = await connect(f"/ws/game/{game.id}/?rows=1", "bo")
    watcher = await connect(f"/ws/game/{game.id}/?rows=1", None)
    # A page loaded before its game.js swapped rows (kept open through a deploy): no rows=1.
    old_watcher = await connect(f"/ws/game/{game.id}/", None)
    for socket in (ana, bo, watcher, old_watcher):
        await drain(socket)
    perform = database_sync_to_async(services.perform)
    await perform(game.id, "ana", "roll", {"held": [False] * 5}, 0, roll=lambda n: [5] * n)
    await perform(game.id, "ana", "score", {"box": "fives"}, 1)
    to_bo = await receive_containing(bo, "Ana scored 25 points in Fives.")
    parts = ["status", "messages", "dice", "coach"]
    rows = ["card-head", "box-fives", "upper-total", "upper-bonus", "yahtzee-bonus", "grand-total"]
    assert swapped_ids(to_bo) == parts + rows
    assert 'id="game"' not in to_bo and 'id="box-sixes"' not in to_bo
    assert 'class="player current" title="Bo"' in to_bo  # the turn mark moved to Bo
    assert '<td class="filled">25</td>' in to_bo and '<td id="total-0">25</td>' in to_bo
    assert 'id="roll-button"' in to_bo  # Bo's turn: his dice panel has the controls
    to_watcher = await receive_containing(watcher, "Ana scored 25 points in Fives.")
    assert 'id="box-fives"' in to_watcher and 'id="game"' not in to_watcher
    assert "<form" not in to_watcher
    to_old_watcher = await receive_containing(old_watcher, "Ana scored 25 points in Fives.")
    assert swapped_ids(to_old_watcher) == ["game"] and "<template" not in to_old_watcher
    to_ana = await receive_containing(ana, "You scored 25 points in Fives.")
    assert swapped_ids(to_ana) == ["game"] and "<template" not in to_ana
    for socket in (ana, bo, watcher, old_watcher):
        await socket.disconnect()


async def test_a_page_that_renders_its_redraw_after_the_game_moved_on_gets_the_game_area():
    """The redraw of a roll rendered once the player has scored too: its dice and message line
    alone would leave the score off the card (the score's own redraw is then not newer)."""
    game = await new_online_game()
    perform = database_sync_to_async(services.perform)
    rolled = await perform(game.id, "ana", "roll", {"held": [False] * 5}, 0, roll=lambda n: [5] * n)
    message = GameChanged(
        parts=["dice", "card"],
        onlookers=["dice", "messages"],
        mover="ana",
        version=rolled.log_length,
    )
    page = {"language": "en", "csrf_token": live_csrf.CSRF_SLOT}
    render = database_sync_to_async(redraws.render_game)
    on_time = await render(game.id, "bo", page, message)
    assert re.findall(r'id="(\w+)"[^>]*hx-swap-oob', on_time) == ["dice", "messages"]
    await perform(game.id, "ana", "score", {"box": "fives"}, 1)
    late = await render(game.id, "bo", page, message)
    assert re.findall(r'id="(\w+)"[^>]*hx-swap-oob', late) == ["game"]
    assert '<td class="filled">25</td>' in late


async def test_the_redraws_come_with_the_move_and_sockets_only_forward_them(monkeypatch):
    game = await new_online_game()
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    watchers = [await connect(f"/ws/game/{game.id}/", None) for _ in range(3)]
    for socket in (bo, *watchers):
        await drain(socket)
    rendered = count_renders(monkeypatch)
    await database_sync_to_async(services.perform)(
        game.id, "ana", "roll", {"held": [False] * 5}, 0, roll=lambda n: [1, 2, 3, 4, 5]
    )
    await receive_containing(bo, "Ana rolled 1 2 3 4 5.")
    for watcher in watchers:
        to_watcher = await receive_containing(watcher, "Ana rolled 1 2 3 4 5.")
        assert "<form" not in to_watcher
    # Bo's redraw and the watchers' were rendered by the process that applied the move.
    assert rendered == []
    for socket in (bo, *watchers):
        await socket.disconnect()


async def test_a_watchers_page_marks_the_game_watched_for_the_movers_process(monkeypatch):
    game = await new_online_game()
    watcher = await connect(f"/ws/game/{game.id}/", None)
    await watcher.receive_from(timeout=5)  # the catch-up redraw, sent once the game is marked
    await drain(watcher)
    marked = (await Game.objects.aget(pk=game.id)).watched_until
    assert marked is not None and marked > timezone.now()
    # Once the mark has lapsed, moves no longer render the watchers' redraw: a page still open
    # (its heartbeat late) renders its own, and misses nothing.
    lapsed = timezone.now() - timedelta(seconds=1)
    await Game.objects.filter(pk=game.id).aupdate(watched_until=lapsed)
    rendered = count_renders(monkeypatch)
    await database_sync_to_async(services.perform)(
        game.id, "ana", "roll", {"held": [False] * 5}, 0, roll=lambda n: [1, 2, 3, 4, 5]
    )
    await receive_containing(watcher, "Ana rolled 1 2 3 4 5.")
    assert rendered == [None]
    await watcher.disconnect()


async def test_pages_in_another_language_render_their_redraw_once_per_view(monkeypatch):
    game = await new_online_game()
    path = f"/ws/game/{game.id}/"
    bo = await connect(path, "bo", "django_language=es")
    watchers = [await connect(path, None, "django_language=es") for _ in range(2)]
    for socket in (bo, *watchers):
        await drain(socket)
    rendered = count_renders(monkeypatch)
    await database_sync_to_async(services.perform)(
        game.id, "ana", "roll", {"held": [False] * 5}, 0, roll=lambda n: [6, 5, 4, 3, 2]
    )
    for socket in (bo, *watchers):
        await receive_containing(socket, "Tirada de Ana: 6 5 4 3 2.")
    assert sorted(rendered, key=str) == [None, "bo"]  # the two watchers share one
    for socket in (bo, *watchers):
        await socket.disconnect()


async def test_the_movers_other_page_gets_the_redraw_with_the_controls():
    game = await new_online_game()
    first = await connect(f"/ws/game/{game.id}/", "ana")
    second = await connect(f"/ws/game/{game.id}/", "ana")
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    perform = database_sync_to_async(services.perform)
    await perform(game.id, "ana", "roll", {"held": [False] * 5}, 0)
    for socket in (first, second, bo):
        await drain(socket)
    await perform(game.id, "ana", "hold", {"die": 2, "held": True}, 1)
    for page in (first, second):
        update = await receive_containing(page, "<p>Holding ")
        assert 'id="roll-button"' in update
    assert await drain(first) == []  # one redraw per move and page
    for socket in (first, second, bo):
        await socket.disconnect()


async def test_the_page_that_moved_gets_its_answer_not_a_push_and_its_other_page_gets_one():
    game = await new_online_game()
    moving = await connect(f"/ws/game/{game.id}/?tab=tab-one", "ana")
    other = await connect(f"/ws/game/{game.id}/?tab=tab-two", "ana")
    bo = await connect(f"/ws/game/{game.id}/?tab=tab-three", "bo")
    for socket in (moving, other, bo):
        await drain(socket)  # the catch-ups sent on connecting
    perform = database_sync_to_async(services.perform)
    await perform(game.id, "ana", "roll", {"held": [False] * 5}, 0, tab="tab-one")
    for socket in (other, bo):
        await receive_containing(socket, "olled")
    assert not [m for m in await drain(moving) if "olled" in m]
    await perform(game.id, "ana", "hold", {"die": 2, "held": True}, 1, tab="tab-one")
    assert 'id="roll-button"' in await receive_containing(other, "<p>Holding ")
    assert not [m for m in await drain(moving) if "held" in m]
    # A tab name only silences its own visitor's page: Bo cannot mute Ana's by sending it.
    for socket in (moving, other, bo):
        await drain(socket)
    await perform(game.id, "ana", "roll", {"held": [False, False, True, False, False]}, 1,
                  tab="tab-three")  # fmt: skip
    await receive_containing(bo, "olled")
    await receive_containing(moving, "olled")
    for socket in (moving, other, bo):
        await socket.disconnect()


@database_sync_to_async
def logged_moves(game_id: str) -> list[tuple[int, str]]:
    return list(Action.objects.filter(game_id=game_id).values_list("seat", "kind"))


async def test_a_move_sent_over_the_socket_is_applied_once_and_answered_there():
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/?tab=ana-tab", "ana", "csrftoken=ana" + "a" * 29)
    bo = await connect(f"/ws/game/{game.id}/?tab=bo-tab", "bo")
    for socket in (ana, bo):
        await drain(socket)
    token = "ana" + "a" * 29  # the page's forms carry its CSRF cookie's token
    roll = {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": token}
    await ana.send_json_to(roll)
    await ana.send_json_to(roll)  # a double click: the second one is stale
    answer = await next_answer(ana)
    assert re.findall(r'id="(\w+)"[^>]*hx-swap-oob', answer) == [
        "dice", "coach", "card", "status", "messages"
    ]  # fmt: skip
    tokens = form_tokens(answer)  # tokens for the page's own CSRF cookie, masked anew
    assert len(tokens) == 6 and all(live_csrf.csrf_matches(t, token) for t in tokens)
    assert token not in answer and len(set(tokens)) == 1
    stale = await next_answer(ana)
    assert "The game had moved on" in stale
    assert await logged_moves(game.id) == [(0, "roll")]
    await receive_containing(bo, "Ana rolled")
    # The page that moved has its answer: no push of the same move.
    assert not [m for m in await drain(ana) if "olled" in m]
    await ana.send_json_to(
        {"move": "hold", "step": "1", "die": "4", "held": "1", "csrfmiddlewaretoken": token}
    )
    assert "<p>Holding " in await next_answer(ana)
    assert "Die 5: " in await receive_containing(bo, "<p>Ana holds ")
    for socket in (ana, bo):
        await socket.disconnect()


TOKEN = "t" * 32  # a page's CSRF cookie


@pytest.mark.parametrize(
    ("who", "sent", "reason"),
    [
        ("bo", {"move": "roll", "step": "0"}, "It is not your turn."),
        ("ana", {"move": "roll", "step": "7"}, "The game had moved on"),
        ("ana", {"move": "score", "step": "0", "box": "chance"}, "Roll the dice"),
        ("ana", {"move": "roll", "step": "0", "held": "0x"}, "Say whether to hold"),
        ("ana", {"move": "hold", "step": "0", "die": "one", "held": "1"}, "There is no such die"),
        # From a page without the visitor's CSRF token (another site, port or scheme).
        ("ana", {"move": "roll", "step": "0", "csrfmiddlewaretoken": ""}, "This page is too old"),
        ("ana", {"move": "roll", "step": "0", "csrfmiddlewaretoken": "b" * 32}, "too old"),
        ("ana", {"move": "roll", "step": "0", "csrfmiddlewaretoken": "!" * 32}, "too old"),
    ],
)
async def test_a_bad_move_over_the_socket_changes_nothing_and_says_why(who, sent, reason):
    game = await new_online_game()
    page = await connect(f"/ws/game/{game.id}/", who, "csrftoken=" + TOKEN)
    await drain(page)
    if isinstance(sent, dict):
        await page.send_json_to({"csrfmiddlewaretoken": TOKEN} | sent)
    else:
        await page.send_to(text_data=sent)
    answer = await next_answer(page)
    assert re.search(r'<p class="error" role="alert">[^<]*' + re.escape(reason), answer)
    assert await logged_moves(game.id) == []
    await page.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        '{"move": "delete", "step": "0"}',
        '{"move": ["roll"], "step": 0}',
        '["roll"]',
        "not json at all",
        "[" * 2000,  # once a RecursionError out of receive(), and no close frame
        '{"move": "roll", "step": "0", "pad": "' + "x" * 3000 + '"}',
        " ",
    ],
)
async def test_a_frame_that_is_not_a_move_closes_the_socket_without_rendering(frame, monkeypatch):
    rendered = count_renders(monkeypatch)
    game = await new_online_game()
    page = await connect(f"/ws/game/{game.id}/", "ana", "csrftoken=" + TOKEN)
    await caught_up(page)
    rendered.clear()
    await page.send_to(text_data=frame)
    assert await page.receive_output(timeout=2) == {"type": "websocket.close", "code": 1007}
    assert rendered == []
    assert await logged_moves(game.id) == []


async def test_a_watchers_frames_are_dropped_unrendered(monkeypatch):
    """A watcher's page has no controls: what it sends is not rendered into a refusal (eight such
    sockets once slowed every other player's moves tenfold)."""
    rendered = count_renders(monkeypatch)
    game = await new_online_game()
    watcher = await connect(f"/ws/game/{game.id}/", "stranger", "csrftoken=" + TOKEN)
    await caught_up(watcher)
    rendered.clear()
    for _ in range(10):
        await watcher.send_json_to({"csrfmiddlewaretoken": TOKEN, "move": "roll", "step": "0"})
    assert await watcher.receive_nothing(timeout=0.5)
    assert rendered == []
    assert await logged_moves(game.id) == []
    await watcher.disconnect()


async def test_frames_past_what_a_person_taps_are_answered_too_fast_unrendered(monkeypatch):
    """A socket that floods frames gets a burst answered, then "too fast" for each of the rest,
    in its page's language and with nothing rendered: others' moves do not wait behind its
    refusals, and no move goes unanswered. Its page stays open."""
    game = await new_online_game()
    page = await connect(  # not his turn
        f"/ws/game/{game.id}/", "bo", f"csrftoken={TOKEN}; django_language=es"
    )
    await caught_up(page)
    answered = []
    monkeypatch.setattr(moves, "answer_to", lambda *args: answered.append(1) or ANSWER)
    started = time.monotonic()
    for _ in range(100):
        await page.send_json_to({"csrfmiddlewaretoken": TOKEN, "move": "roll", "step": "0"})
    said = [await next_answer(page) for _ in range(100)]
    elapsed = time.monotonic() - started
    # The burst, and the few the budget gained back (10 a second) while they were sent and
    # handled: a bound from the time it took, as a busy machine takes longer.
    budget = moves.FrameBudget()
    assert budget.burst <= len(answered) <= budget.burst + budget.per_second * elapsed + 1
    too_fast = [answer for answer in said if "Demasiado rápido" in answer]
    assert len(too_fast) == 100 - len(answered)
    assert await logged_moves(game.id) == []
    assert await page.receive_nothing(timeout=0.3)  # no close
    await page.disconnect()


async def pages_of_a_new_game():
    """Ana's page (tab "ana-tab", the token TOKEN), Bo's and a watcher's on a new online game,
    each past its catch-up."""
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/?tab=ana-tab", "ana", "csrftoken=" + TOKEN)
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    watcher = await connect(f"/ws/game/{game.id}/", None)
    for socket in (ana, bo, watcher):
        await drain(socket)
    return ana, bo, watcher


async def test_each_redraw_of_a_move_goes_out_before_the_next_is_rendered(monkeypatch):
    """Bo's redraw is on his socket before the watchers' is rendered, and theirs before the
    mover's answer: no page waits for another's rendering."""
    ana, bo, watcher = await pages_of_a_new_game()
    seen = []  # what was about to be rendered, and how many messages Bo and the watcher had
    render_context, answer_to = redraws.render_context, moves.answer_to

    def rendering(game, visitor, page, message):
        seen.append((visitor, bo.output_queue.qsize(), watcher.output_queue.qsize()))
        return render_context(game, visitor, page, message)

    def answering(*args):
        seen.append(("answer", bo.output_queue.qsize(), watcher.output_queue.qsize()))
        return answer_to(*args)

    monkeypatch.setattr(redraws, "render_context", rendering)
    monkeypatch.setattr(moves, "answer_to", answering)
    await ana.send_json_to(
        {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": TOKEN}
    )
    await next_answer(ana)
    assert seen == [("bo", 0, 0), ("", 1, 0), ("answer", 1, 1)]
    assert "Ana rolled" in await bo.receive_from() and "Ana rolled" in await watcher.receive_from()
    for socket in (ana, bo, watcher):
        await socket.disconnect()


async def test_a_moves_redraws_and_answer_render_without_asking_the_database(monkeypatch):
    """What the message lines need is read on the mover thread with the move: the rendering, on
    the event loop, waits for no database (here nothing kept from earlier redraws, as on a
    socket process that did not apply the game's last moves)."""
    ana, bo, watcher = await pages_of_a_new_game()
    recent.kept_actions.clear()
    queries = []  # (who, how many queries its rendering made)
    render_context, answer_to = redraws.render_context, moves.answer_to

    def counted(who, render, *args):
        with CaptureQueriesContext(connections["default"]) as made:
            html = render(*args)
        queries.append((who, len(made)))
        return html

    monkeypatch.setattr(
        redraws, "render_context", lambda g, v, *a: counted(v, render_context, g, v, *a)
    )
    monkeypatch.setattr(moves, "answer_to", lambda *args: counted("answer", answer_to, *args))
    await ana.send_json_to(
        {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": TOKEN}
    )
    assert "You rolled" in await next_answer(ana)
    assert queries == [("bo", 0), ("", 0), ("answer", 0)]
    assert "Ana rolled" in await bo.receive_from() and "Ana rolled" in await watcher.receive_from()
    for socket in (ana, bo, watcher):
        await socket.disconnect()


@pytest.mark.parametrize("shared", [True, False], ids=["on the shared thread", "on mover threads"])
async def test_a_move_sent_over_a_socket_is_applied_where_move_threads_says(monkeypatch, shared):
    monkeypatch.setattr(threads, "MOVES_SHARE_THREAD", shared)  # settings.MOVE_THREADS 0, or N
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/", "ana", "csrftoken=" + TOKEN)
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    for socket in (ana, bo):
        await drain(socket)
    ran_on, perform = [], services.perform

    def recorded(*args, **kwargs):
        ran_on.append(threading.current_thread())
        return perform(*args, **kwargs)

    monkeypatch.setattr(services, "perform", recorded)
    await ana.send_json_to(
        {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": TOKEN}
    )
    assert "Roll again" in await next_answer(ana)
    assert "Ana rolled" in await receive_containing(bo, "Ana rolled")
    if shared:  # the thread of the consumers' other synchronous work
        assert ran_on == [await database_sync_to_async(threading.current_thread)()]
    else:
        assert [t.name.startswith("game-moves") for t in ran_on] == [True]
    assert await logged_moves(game.id) == [(0, "roll")]
    for socket in (ana, bo):
        await socket.disconnect()


async def test_a_games_slow_database_work_does_not_hold_up_another_games_move(monkeypatch):
    """On mover threads, a move that waits for the database (its row lock, a slow round trip)
    leaves the process's other sockets served: the other game's move is answered meanwhile."""
    monkeypatch.setattr(threads, "MOVES_SHARE_THREAD", False)
    # Two mover threads, as on PostgreSQL (one, SQLite's default, would queue the second move
    # behind the first, as SQLite's one writer at a time would anyway).
    monkeypatch.setattr(threads, "MOVE_THREADS", 2)
    monkeypatch.setattr(threads, "_movers", ThreadPoolExecutor(2, thread_name_prefix="game-moves"))
    first = await new_online_game()
    second = await database_sync_to_async(services.start_online_game)(
        [
            await database_sync_to_async(Player.objects.create)(visitor=v, name=v, name_key=v)
            for v in ("cy", "dee")
        ]
    )
    ana = await connect(f"/ws/game/{first.id}/", "ana", "csrftoken=" + TOKEN)
    cy = await connect(f"/ws/game/{second.id}/", "cy", "csrftoken=" + TOKEN)
    for socket in (ana, cy):
        await drain(socket)
    waiting, released, perform = threading.Event(), threading.Event(), services.perform

    def slow_for_the_first(game_id, *args, **kwargs):
        if game_id == first.id:
            waiting.set()
            released.wait(timeout=10)  # as a database that has not answered yet
        return perform(game_id, *args, **kwargs)

    monkeypatch.setattr(services, "perform", slow_for_the_first)
    roll = {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": TOKEN}
    await ana.send_json_to(roll)
    assert await asyncio.to_thread(waiting.wait, 5)
    await cy.send_json_to(roll)
    try:
        assert "Roll again" in await next_answer(cy)
        assert not released.is_set() and await logged_moves(first.id) == []
    finally:
        released.set()
    assert "Roll again" in await next_answer(ana)
    for socket in (ana, cy):
        await socket.disconnect()
    await asyncio.to_thread(threads.release_mover_connections)
    threads._movers.shutdown()


async def test_moves_on_the_shared_thread_take_turns_from_the_move_to_its_answer(monkeypatch):
    """Another page's move may not start while a move's redraws go out: its answer would wait."""
    monkeypatch.setattr(threads, "MOVES_SHARE_THREAD", True)  # whatever MOVE_THREADS says
    first = await new_online_game()
    second = await database_sync_to_async(services.start_online_game)(
        [
            await database_sync_to_async(Player.objects.create)(visitor=v, name=v, name_key=v)
            for v in ("cy", "dee")
        ]
    )
    movers = [
        await connect(f"/ws/game/{first.id}/", "ana", "csrftoken=" + TOKEN),
        await connect(f"/ws/game/{second.id}/", "cy", "csrftoken=" + TOKEN),
    ]
    others = [
        await connect(f"/ws/game/{first.id}/", "bo"),
        await connect(f"/ws/game/{second.id}/", "dee"),
    ]
    for socket in (*movers, *others):
        await drain(socket)
    done, apply_move, answer_to = [], moves.apply_move, moves.answer_to

    def applying(page, *args, **kwargs):
        done.append(("move", page.game_id))
        return apply_move(page, *args, **kwargs)

    def answering(outcome, *args):
        done.append(("answer", outcome.game.id))
        return answer_to(outcome, *args)

    monkeypatch.setattr(moves, "apply_move", applying)
    monkeypatch.setattr(moves, "answer_to", answering)
    roll = {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": TOKEN}
    for mover in movers:  # both waiting before either is handled
        await mover.send_json_to(roll)
    for mover in movers:
        assert "Roll again" in await next_answer(mover)
    assert sorted(done) == sorted(
        [(kind, g.id) for g in (first, second) for kind in ("move", "answer")]
    )
    assert done[0][0] == "move" and done[1] == ("answer", done[0][1])
    for socket in (*movers, *others):
        await socket.disconnect()


@pytest.mark.parametrize("shared", [True, False], ids=["on the shared thread", "on mover threads"])
async def test_a_moves_database_work_and_rendering_never_run_on_the_event_loops_thread(
    monkeypatch, shared
):
    """Django's guard is never hidden: the move, its redraws and its answer run through
    ``sync_to_async`` on a thread (issue 30: they were rendered on the loop, with the guard
    hidden by a private asyncio call)."""
    monkeypatch.setattr(threads, "MOVES_SHARE_THREAD", shared)
    ana, bo, watcher = await pages_of_a_new_game()
    ran = []  # (what, whether it ran on the thread of this test's event loop)
    loop_thread = threading.current_thread()

    def on(what, func):
        def recorded(*args, **kwargs):
            ran.append((what, threading.current_thread() is loop_thread))
            return func(*args, **kwargs)

        return recorded

    monkeypatch.setattr(moves, "apply_move", on("move", moves.apply_move))
    monkeypatch.setattr(redraws, "render_context", on("redraw", redraws.render_context))
    monkeypatch.setattr(moves, "answer_to", on("answer", moves.answer_to))
    await ana.send_json_to(
        {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": TOKEN}
    )
    assert "You rolled" in await next_answer(ana)
    assert ran == [("move", False), ("redraw", False), ("redraw", False), ("answer", False)]
    assert "Ana rolled" in await bo.receive_from() and "Ana rolled" in await watcher.receive_from()
    for socket in (ana, bo, watcher):
        await socket.disconnect()


async def test_a_moves_sends_are_kept_for_the_loop_to_send():
    count, sends = await threads.off_loop(threads.keeping_sends)(Player.objects.count)
    assert count == 0 and sends == []
    broadcast = threads.off_loop(threads.keeping_sends)
    _, sends = await broadcast(sending.broadcast, "lobby", {"type": "lobby.changed"})
    # Kept for the caller to send (with an await), not sent from inside the synchronous call.
    assert [list(messages) for messages in sends] == [[("lobby", {"type": "lobby.changed"})]]

    def fails():
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        await threads.off_loop(threads.keeping_sends)(fails)
    assert await threads.off_loop(lambda: sending.kept.sends)() is None
    # And Django's guard holds on the loop's own thread.
    with pytest.raises(SynchronousOnlyOperation):
        Player.objects.count()


@pytest.mark.parametrize("how", ["failed", "left in a transaction"])
async def test_a_connection_that_a_moves_call_leaves_unusable_is_closed(how, monkeypatch):
    # (The tests' in-memory SQLite ignores close(), so the calls to it are what is checked.)
    wrapper = await threads.off_loop(lambda: connections["default"])()
    closed, close = [], type(wrapper).close
    monkeypatch.setattr(type(wrapper), "close", lambda self: closed.append(self) or close(self))

    def spoil():
        connection = connections["default"]
        connection.ensure_connection()
        if how == "failed":
            connection.errors_occurred = True
        else:
            connection.set_autocommit(False)
        return connection

    used = await threads.off_loop(spoil)()
    assert closed == [used]
    used.errors_occurred = False  # as the closed connection would be when opened again
    await threads.off_loop(used.set_autocommit)(True)


async def test_a_connection_in_good_order_is_kept_between_moves_calls(monkeypatch):
    wrapper = await threads.off_loop(lambda: connections["default"])()
    closed = []
    monkeypatch.setattr(type(wrapper), "close", lambda self: closed.append(self))
    assert await threads.off_loop(Player.objects.count)() == 0
    assert closed == []


async def test_closing_the_page_marks_the_seat_away():
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/", "ana")
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    await drain(ana)
    await bo.disconnect()
    await receive_containing(ana, "Bo is away.")
    seat = await database_sync_to_async(Seat.objects.get)(game=game, visitor="bo")
    assert seat.connections == 0
    back = await connect(f"/ws/game/{game.id}/", "bo")
    back_again = await receive_containing(ana, 'id="status"')
    assert "Bo is away." not in back_again and "Bo</a>: here" in back_again
    await ana.disconnect()
    await back.disconnect()


async def test_the_lobby_shows_who_comes_online():
    await database_sync_to_async(Player.objects.create)(visitor="ana", name="Ana", name_key="ana")
    await database_sync_to_async(Player.objects.create)(visitor="bo", name="Bo", name_key="bo")
    ana = await connect("/ws/lobby/", "ana")
    await drain(ana)
    bo = await connect("/ws/lobby/", "bo")
    update = await receive_containing(ana, ">Bo</a>")
    assert 'id="online"' in update
    await bo.disconnect()
    gone = await receive_containing(ana, 'id="online"')
    assert ">Bo</a>" not in gone
    await ana.disconnect()


def fail_sends_of(consumer_class, monkeypatch) -> None:
    """From now on, sends of these consumers fail as uvicorn's do once the browser has gone."""

    async def gone(self, *args, **kwargs):
        raise OSError("the client has disconnected")  # uvicorn's ClientDisconnected is an OSError

    monkeypatch.setattr(consumer_class, "send", gone)


async def test_a_page_that_closes_while_it_is_sent_something_is_counted_gone(monkeypatch):
    from channels.layers import get_channel_layer

    from lobby import notify
    from lobby.consumers import LobbyConsumer

    await database_sync_to_async(Player.objects.create)(visitor="ivo", name="Ivo", name_key="ivo")
    ivo = await connect("/ws/lobby/", "ivo")
    await drain(ivo)
    fail_sends_of(LobbyConsumer, monkeypatch)
    # The lobby changes just as Ivo's browser goes: sending him the news fails.
    await get_channel_layer().group_send(notify.LOBBY_GROUP, {"type": "lobby.changed"})
    with pytest.raises(OSError):
        await ivo.wait(timeout=3)
    player = await database_sync_to_async(Player.objects.get)(visitor="ivo")
    assert player.connections == 0 and player.online_until <= timezone.now()


async def test_a_game_page_that_closes_while_a_move_is_pushed_is_counted_gone(monkeypatch):
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/", "ana")
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    for socket in (ana, bo):
        await drain(socket)
    fail_sends_of(consumers.GameConsumer, monkeypatch)
    await database_sync_to_async(services.perform)(game.id, "ana", "roll", {}, 0)
    for socket in (ana, bo):
        with pytest.raises(OSError):
            await socket.wait(timeout=3)
    seats = await database_sync_to_async(list)(Seat.objects.filter(game=game))
    assert [seat.connections for seat in seats] == [0, 0]


async def test_a_move_that_fails_closes_the_socket_and_the_page_counts_as_gone(monkeypatch):
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/", "ana", "csrftoken=" + TOKEN)
    await drain(ana)

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(services, "perform", broken)
    await ana.send_json_to(
        {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": TOKEN}
    )
    closed = await ana.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": 1011}  # the page reconnects
    await ana.wait(timeout=3)
    seat = await database_sync_to_async(Seat.objects.get)(game=game, visitor="ana")
    assert seat.connections == 0


async def test_a_table_page_that_connects_after_the_start_goes_to_the_game():
    from lobby import services as lobby

    @database_sync_to_async
    def started_table():
        lobby.go_online("ana", "Ana")
        lobby.go_online("bo", "Bo")
        table = lobby.create_table("ana")
        lobby.join_table("bo", table.code)
        return table.code, lobby.start_table("ana", table.code)

    code, game = await started_table()
    # Bo's page had just reloaded when the game started: its socket missed the push.
    bo = await connect(f"/ws/table/{code}/", "bo")
    assert f'href="/game/{game.id}/" data-navigate' in await receive_containing(bo, "navigate")
    await bo.disconnect()


async def test_a_socket_from_another_site_is_refused():
    key = await session_for("ana")
    headers = [(b"cookie", f"sessionid={key}".encode()), (b"origin", b"http://evil.example")]
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect()
    assert not connected


async def test_forms_pushed_over_the_socket_carry_the_pages_csrf_token():
    @database_sync_to_async
    def table_with_host():
        from lobby import services as lobby_services

        Player.objects.create(visitor="host", name="Host", name_key="host")
        Player.objects.create(visitor="guest", name="Guest", name_key="guest")
        return lobby_services.create_table("host")

    table = await table_with_host()
    key = await session_for("host")
    cookie = f"sessionid={key}; csrftoken=abcdefghijklmnopqrstuvwxyz012345"
    headers = [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), *SITE]
    host = WebsocketCommunicator(application, f"/ws/table/{table.code}/", headers=headers)
    assert (await host.connect())[0]
    await drain(host)
    from lobby import services as lobby_services

    await database_sync_to_async(lobby_services.join_table)("guest", table.code)
    update = await receive_containing(host, "Start the game")
    secret = "abcdefghijklmnopqrstuvwxyz012345"
    tokens = form_tokens(update)
    assert tokens and all(live_csrf.csrf_matches(t, secret) for t in tokens)
    assert secret not in update  # masked anew in every message (compressed frames: BREACH)
    await host.disconnect()


async def test_a_player_with_two_pages_open_stays_online_until_both_close():
    await database_sync_to_async(Player.objects.create)(visitor="bo", name="Bo", name_key="bo")
    first = await connect("/ws/lobby/", "bo")
    second = await connect("/ws/lobby/", "bo")
    await first.disconnect()
    online = await database_sync_to_async(lambda: list(Player.objects.online()))()
    assert [p.name for p in online] == ["Bo"]
    await second.disconnect()
    online = await database_sync_to_async(lambda: list(Player.objects.online()))()
    assert online == []


async def test_a_rematch_offer_reaches_the_other_players_open_page(settings):
    settings.AWAY_GRACE_SECONDS = 0

    @database_sync_to_async
    def finished_game():
        game = services.start_online_game(
            [Player.objects.create(visitor=v, name=v.title(), name_key=v) for v in ("ana", "bo")]
        )
        Seat.objects.filter(game=game, visitor="ana").update(present_until=None)
        Seat.objects.filter(game=game, visitor="bo").update(present_until=None)
        ended = services.leave_out(game.id, "ana", 1, end=True)
        # Ana's page is open too (else Bo's would say she left: no rematch with her).
        Seat.objects.filter(game=game, visitor="ana").update(
            present_until=timezone.now() + timedelta(seconds=60)
        )
        return ended

    game = await finished_game()
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    await drain(bo)
    from lobby import services as lobby_services

    await database_sync_to_async(lobby_services.rematch)("ana", game)
    offer = await receive_containing(bo, "Accept the rematch (Ana asked)")
    assert "data-version" not in offer  # not a move: the page must not drop it as old news
    await bo.disconnect()


async def test_a_rematch_declined_or_a_player_gone_reaches_the_offerers_open_page(settings):
    """Issue 29: the offerer sees live that the rematch was declined, as the offer was shown."""
    settings.AWAY_GRACE_SECONDS = 0

    @database_sync_to_async
    def finished_game():
        players = [
            Player.objects.get_or_create(visitor=v, name=v.title(), name_key=v)[0]
            for v in ("ana", "bo")
        ]
        game = services.start_online_game(players)
        Seat.objects.filter(game=game).update(present_until=None)
        return services.leave_out(game.id, "ana", 1, end=True)

    from lobby import services as lobby_services

    game = await finished_game()
    ana = await connect(f"/ws/game/{game.id}/", "ana")
    await drain(ana)
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    await receive_containing(ana, "Rematch</button>")  # Bo is here: the button comes back
    await drain(bo)
    await database_sync_to_async(lobby_services.rematch)("ana", game)
    await receive_containing(bo, "Accept the rematch (Ana asked)")
    await database_sync_to_async(lobby_services.decline_rematch)("bo", game)
    declined = await receive_containing(ana, "Bo declined the rematch.")
    assert "waiting for the others" not in declined
    await bo.disconnect()
    await ana.disconnect()

    second = await finished_game()
    ana = await connect(f"/ws/game/{second.id}/", "ana")
    await receive_containing(ana, "No rematch: Bo left the game.")
    bo = await connect(f"/ws/game/{second.id}/", "bo")
    await receive_containing(ana, "Rematch</button>")
    await bo.disconnect()  # Bo closes his last page of the game
    await receive_containing(ana, "No rematch: Bo left the game.")
    await ana.disconnect()


async def test_a_masked_token_is_new_each_time_and_passes_djangos_check():
    secret = "abcdefghijklmnopqrstuvwxyz012345"
    tokens = {live_csrf.masked(secret) for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        assert len(token) == 64 and set(token) <= set(live_csrf.CSRF_CHARS)
        assert live_csrf.csrf_matches(token, secret)
    # Every character of the alphabet turns up in the masks: none is left out.
    assert set("".join(token[:32] for token in tokens)) == set(live_csrf.CSRF_CHARS)
    assert live_csrf.masked("not a secret") == "not a secret"


async def test_a_page_that_comes_back_never_shows_its_own_seat_away():
    """After a restart (or a closed tab) the seat was away: the catch-up its page is sent on
    connecting already counts the page (a player once saw themselves "away" while rolling)."""
    game = await new_online_game()
    ana = await connect(f"/ws/game/{game.id}/", "ana")
    catch_up = await ana.receive_from(timeout=5)
    assert "Ana</a>: here" in catch_up and "Ana</a>: away" not in catch_up
    await ana.disconnect()


async def test_signing_out_the_other_browsers_closes_their_sockets_at_once():
    """Its sockets read the player once, when they opened: a page of a browser signed out would
    go on playing as them. Every page of the signed-out browsers is told to load again and its
    socket is closed; the browser that signed the others out keeps its own."""
    from core.identity import browser_mark
    from lobby import notify

    game = await new_online_game()
    lobby = await connect("/ws/lobby/", "ana")
    page = await connect(f"/ws/game/{game.id}/", "ana")
    kept = await connect(f"/ws/game/{game.id}/", "ana")
    other = await connect(f"/ws/game/{game.id}/", "bo")
    await drain(lobby)
    for communicator in (page, kept, other):
        await caught_up(communicator)
    cookie = dict(kept.scope["headers"])[b"cookie"].decode()
    kept_mark = browser_mark(cookie.removeprefix("sessionid="))

    @database_sync_to_async
    def sign_out():
        from django.db import transaction

        with transaction.atomic():
            notify.signed_out("ana", kept_mark)

    await sign_out()
    for communicator, path in ((lobby, "/online/"), (page, f"/game/{game.id}/")):
        told = await receive_containing(communicator, "data-navigate")
        assert f'href="{path}" data-navigate' in told
        closed = await communicator.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4401}
    assert "data-navigate" not in "".join(await drain(kept))  # the browser that signed out
    assert "data-navigate" not in "".join(await drain(other))  # Bo's page: not his profile
    for communicator in (kept, other):
        await communicator.disconnect()


async def test_a_seat_moving_without_a_socket_is_shown_back_to_the_others():
    """A browser without JavaScript plays by plain posts: its seat was shown away for good (and
    could be left out two minutes in). Its move brings it back, on the others' pages too."""
    game = await new_online_game()
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    first = await receive_containing(bo, 'id="game"')
    # Not here: "joining" while the game is new (ARRIVING), "away" after.
    assert "Ana</a>: here" not in first and re.search(r"Ana</a>: <span [^>]*>joining<", first)
    await database_sync_to_async(services.perform)(
        game.id, "ana", "roll", {"held": [False] * 5}, 0, roll=lambda n: [1, 2, 3, 4, 5]
    )
    told = await receive_containing(bo, "Ana rolled 1 2 3 4 5.")
    assert "Ana</a>: here" in told and "Ana</a>: away" not in told
    await bo.disconnect()
