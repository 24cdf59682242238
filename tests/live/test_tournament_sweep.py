"""Every socket server's sweep moves tournaments on (``games.timeouts.SWEPT_WITH``): a tournament
whose start is due starts and pairs with no page asking and no cron."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.live import turns
from games.names import look_alike_key
from lobby.models import Player
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def due_arena() -> str:
    for visitor, name in (("ana", "Ana"), ("bo", "Bo")):
        Player.objects.create(visitor=visitor, name=name, name_key=look_alike_key(name))
    made = services.create(
        "ana", services.TournamentOptions(name="Night", format="arena", minutes=30)
    )
    for visitor in ("ana", "bo"):
        services.join(made.pk, visitor)
    Tournament.objects.filter(pk=made.pk).update(starts_at=timezone.now())
    return made.pk


def paired(tournament_id: str) -> bool:
    made = Tournament.objects.get(pk=tournament_id)
    return made.status == Tournament.Status.RUNNING and made.games.count() == 2


async def test_the_socket_servers_sweep_starts_and_pairs_a_due_tournament(settings):
    settings.TURN_SWEEP_SECONDS = 0.05
    tournament_id = await database_sync_to_async(due_arena)()
    turns.keep_sweeping()
    deadline = time.monotonic() + 10
    while not await database_sync_to_async(paired)(tournament_id):
        assert time.monotonic() < deadline, "waited 10 s in vain for the sweep's pairing"
        await asyncio.sleep(0.05)
    task = turns._sweeps.pop(asyncio.get_running_loop())
    task.cancel()
