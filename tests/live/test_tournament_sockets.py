"""A tournament's page, live (issue 31): its socket is sent the standings as they change,
rendered once per change for every open page (in each page's language), its player's page is
told "your game starts now" when they are paired, and a storm of changes is drawn once more,
not once each."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from channels.db import database_sync_to_async

from core.socket_messages import TournamentChanged
from games.names import look_alike_key
from lobby.models import Player
from tests.sockets import connect, drain, receive_containing
from tournaments import consumers, live, services
from tournaments.models import Tournament
from tournaments.services import TournamentOptions

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def arena(*visitors: str) -> Tournament:
    """Ana's arena, with these players in it (each a profile named after its visitor)."""
    for visitor in ("ana", *visitors):
        Player.objects.get_or_create(
            visitor=visitor, defaults={"name": visitor.title(), "name_key": look_alike_key(visitor)}
        )
    made = services.create("ana", TournamentOptions(name="Friday", format="arena", minutes=30))
    for visitor in visitors:
        services.join(made.pk, visitor)
    return made


join = database_sync_to_async(services.join)
start_now = database_sync_to_async(services.start_now)


async def open_page(tournament: Tournament, visitor: str | None, cookies: str = ""):
    page = await connect(f"/ws/tournament/{tournament.pk}/", visitor, cookies)
    caught_up = await receive_containing(page, 'id="standings"')  # the catch-up: all its parts
    assert 'id="t-controls"' in caught_up
    return page, caught_up


@pytest.mark.asyncio
async def test_a_join_moves_the_standings_on_every_open_page_in_its_language():
    tournament = await arena("bo")
    bo, caught_up = await open_page(tournament, "bo")
    assert ">Bo<" in caught_up.replace("</td>", "<").replace('"name">', ">")
    watcher, _ = await open_page(tournament, None, cookies="django_language=es")
    await drain(bo)
    await join(tournament.pk, "ana")
    pushed = await receive_containing(bo, 'id="standings"')
    assert "Ana" in pushed and "Standings" in pushed and 'hx-swap-oob="outerHTML"' in pushed
    assert "2 players" in pushed
    spanish = await receive_containing(watcher, 'id="standings"')
    assert "Ana" in spanish and "Clasificación" in spanish
    for page in (bo, watcher):
        await page.disconnect()


@pytest.mark.asyncio
async def test_a_paired_players_page_is_told_its_game_starts_now():
    tournament = await arena("bo", "cy")
    bo, _ = await open_page(tournament, "bo")
    await drain(bo)
    await start_now(tournament.pk, "ana")
    told = await receive_containing(bo, "data-your-game")
    assert "Your game starts now: open it" in told and 'href="/game/' in told
    # The start changed what the buttons offer: the page's own parts came with its redraw.
    await bo.disconnect()


@pytest.mark.asyncio
async def test_the_start_redraws_the_pages_own_buttons_with_its_status():
    tournament = await arena("bo", "cy")
    cy, caught_up = await open_page(tournament, "cy")
    assert "Under way" not in caught_up
    await drain(cy)
    await start_now(tournament.pk, "ana")
    pushed = await receive_containing(cy, 'id="t-controls"')
    assert ">Pause<" in pushed, pushed
    await cy.disconnect()


@pytest.mark.asyncio
async def test_a_players_own_parts_are_redrawn_on_their_page_only():
    tournament = await arena("bo", "cy")
    bo, _ = await open_page(tournament, "bo")
    cy, _ = await open_page(tournament, "cy")
    for page in (bo, cy):
        await drain(page)
    await database_sync_to_async(services.pause)(tournament.pk, "bo")
    on_bos = await receive_containing(bo, 'id="standings"')
    assert 'id="t-you"' in on_bos and "You are in, paused" in on_bos and ">Come back<" in on_bos
    on_cys = await receive_containing(cy, 'id="standings"')
    assert 'id="t-you"' not in on_cys and 'id="t-controls"' not in on_cys
    for page in (bo, cy):
        await page.disconnect()


@pytest.mark.asyncio
async def test_a_page_connecting_keeps_its_own_parts_when_nothing_changed_since_drawn():
    tournament = await arena("bo")
    fresh = await connect(f"/ws/tournament/{tournament.pk}/?status=upcoming&state=%7Cin", "bo")
    caught_up = await receive_containing(fresh, 'id="standings"')
    assert 'id="t-controls"' not in caught_up  # a choice being made there stays
    stale = await connect(f"/ws/tournament/{tournament.pk}/?status=upcoming&state=", "bo")
    assert 'id="t-controls"' in await receive_containing(stale, 'id="standings"')
    for page in (fresh, stale):
        await page.disconnect()


@pytest.mark.asyncio
async def test_no_such_tournament_closes_the_socket_for_good():
    page = await connect("/ws/tournament/nope/", None)
    assert await page.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}


@pytest.mark.asyncio
async def test_a_change_is_rendered_once_for_every_open_page(monkeypatch):
    tournament = await arena("bo", "cy")
    pages = [(await open_page(tournament, visitor))[0] for visitor in ("bo", "cy", None)]
    for page in pages:
        await drain(page)
    rendered = []
    real = live.render_shared
    monkeypatch.setattr(live, "render_shared", lambda *a: rendered.append(a[1]) or real(*a))
    await join(tournament.pk, "ana")
    frames = [await receive_containing(page, 'id="standings"') for page in pages]
    assert sorted(rendered) == ["en", "es"]  # once per language, not once per page
    assert frames[0] == frames[1] == frames[2]
    for page in pages:
        await page.disconnect()


def test_changes_while_a_tournament_is_drawn_are_drawn_once_more_not_once_each(monkeypatch):
    pushed = []
    others = []

    def push(tournament_id: str) -> None:
        pushed.append(tournament_id)
        if len(pushed) == 1:  # five changes come while the first drawing is under way
            others.extend(
                threading.Thread(target=live._draw_coalesced, args=("t1",)) for _ in range(5)
            )
            for thread in others:
                thread.start()
            for thread in others:
                thread.join()

    monkeypatch.setattr(live, "push", push)
    live._draw_coalesced("t1")
    assert pushed == ["t1", "t1"]
    live._draw_coalesced("t1")  # and the next change is drawn again
    assert pushed == ["t1", "t1", "t1"]


def test_a_failed_drawing_is_logged_and_does_not_fail_the_change(monkeypatch, caplog):
    def push(tournament_id: str) -> None:
        raise RuntimeError("the database is gone")

    monkeypatch.setattr(live, "push", push)
    live.on_tournament_changed(None, tournament_id="t2")
    assert "Could not redraw tournament t2" in caplog.text
    assert live._drawing == {}


def test_the_redraw_says_when_it_was_read_for_pages_to_keep_the_newest():
    message = TournamentChanged(status="running", drawn=12.5, views={"en": "<p>"})
    assert TournamentChanged.read(message.to_message()) == message
    assert message.to_message()["type"] == "tournament.changed"


@pytest.mark.asyncio
async def test_pages_connecting_together_share_one_read_of_the_standings(monkeypatch):
    tournament = await arena("bo", "cy")
    reads = []
    real = consumers.read_shared
    monkeypatch.setattr(consumers, "read_shared", lambda *a: reads.append(a) or real(*a))
    joined = time.monotonic()
    together = await asyncio.gather(
        consumers.catch_up(tournament.pk, "en", joined),
        consumers.catch_up(tournament.pk, "en", joined),
    )
    assert len(reads) == 1 and together[0] == together[1] and "Bo" in together[0][0]
    # A page that joined the group after that read began takes a read of its own.
    await consumers.catch_up(tournament.pk, "en", time.monotonic())
    assert len(reads) == 2
