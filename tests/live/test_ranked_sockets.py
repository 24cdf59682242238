"""The ranked queue over the lobby's sockets: waiting pages pair as their windows widen, with
nobody clicking, and every open page of both players is sent to the one game."""

from __future__ import annotations

import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Game
from lobby import ranked
from lobby.models import Player, QueueEntry
from tests.sockets import connect, drain
from tests.waiting import eventually

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GAME_LINK = re.compile(r'href="(/game/[\w-]+/)" data-navigate')


@database_sync_to_async
def queued(visitor: str, name: str, value: float, waited: float) -> None:
    player = Player.objects.create(visitor=visitor, name=name, name_key=visitor, rating_value=value)
    QueueEntry.objects.create(player=player, joined_at=timezone.now() - timedelta(seconds=waited))


async def navigated(page) -> str:
    """The push that sends this page to a game, waited for up to 10 s."""
    while True:
        message = await page.receive_from(timeout=10)
        if "data-navigate" in message:
            return message


async def test_waiting_pages_pair_once_the_window_is_wide_enough_and_all_go_to_the_game(
    monkeypatch,
):
    monkeypatch.setattr(ranked, "PAIR_SECONDS", 0.2)
    # The queue's clock, moved on by the test: a busy machine's slowness must not move it.
    ahead = [timedelta(0)]
    monkeypatch.setattr(ranked, "timezone", SimpleNamespace(now=lambda: timezone.now() + ahead[0]))
    # 200 apart: out of both windows (100) now, inside both (250) 30 s later.
    await queued("ana", "Ana", 1500, waited=0)
    await queued("bo", "Bo", 1700, waited=0)
    ticks = []  # each waiting page asks to pair every PAIR_SECONDS
    pair_if_waiting = ranked.pair_if_waiting
    monkeypatch.setattr(
        ranked, "pair_if_waiting", lambda visitor: ticks.append(visitor) or pair_if_waiting(visitor)
    )
    ana = await connect("/ws/lobby/", "ana")
    ana_other_tab = await connect("/ws/lobby/", "ana")
    bo = await connect("/ws/lobby/", "bo")
    for page in (ana, ana_other_tab, bo):
        await drain(page)
    await eventually(lambda: ticks.count("ana") >= 6 and ticks.count("bo") >= 3, "three ticks each")
    assert await database_sync_to_async(Game.objects.count)() == 0  # nobody paired yet
    ahead[0] = timedelta(seconds=30)  # nobody clicks anything
    links = set()
    for page in (ana, ana_other_tab, bo):
        links.add(GAME_LINK.search(await navigated(page))[1])
    (game,) = await database_sync_to_async(list)(Game.objects.all())
    assert links == {f"/game/{game.id}/"} and game.ranked
    assert not await database_sync_to_async(QueueEntry.objects.exists)()
    for page in (ana, ana_other_tab, bo):
        await page.disconnect()


async def test_a_page_not_in_the_queue_pairs_nobody(monkeypatch):
    monkeypatch.setattr(ranked, "PAIR_SECONDS", 0.1)
    await database_sync_to_async(Player.objects.create)(visitor="cy", name="Cy", name_key="cy")
    calls = []
    pair = ranked.pair_waiting
    monkeypatch.setattr(ranked, "pair_waiting", lambda *a: calls.append(1) or pair(*a))
    ticks = []
    pair_if_waiting = ranked.pair_if_waiting
    monkeypatch.setattr(
        ranked, "pair_if_waiting", lambda visitor: ticks.append(visitor) or pair_if_waiting(visitor)
    )
    cy = await connect("/ws/lobby/", "cy")
    await eventually(lambda: len(ticks) >= 3, "three of Cy's page's ticks")
    assert calls == []  # only asked whether Cy waits: one read, no lock
    await cy.disconnect()
