"""Lasting player profiles: one name each, a session that lasts, other devices, the profile page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone


@pytest.mark.django_db(transaction=True)
def test_profiles_that_shared_a_name_get_one_each():
    """Before profiles, names were unique only among players online: the newest keeps it."""
    executor = MigrationExecutor(connection)
    executor.migrate([("lobby", "0004_name_key_look_alike")])
    old = executor.loader.project_state([("lobby", "0004_name_key_look_alike")]).apps
    Player = old.get_model("lobby", "Player")
    now = timezone.now()
    for visitor, name, key, seen in [
        ("a", "Ana", "ana", now - timedelta(days=3)),
        ("b", "ANA", "ana", now),  # online last: keeps the name
        ("c", "Ana", "ana", None),  # never online since the field came
        ("d", "Ana 2", "ana 2", now - timedelta(days=9)),  # the number a duplicate would get
        ("e", "x" * 24, "x" * 24, now),
        ("f", "X" * 24, "x" * 24, now - timedelta(days=1)),
    ]:
        Player.objects.create(visitor=visitor, name=name, name_key=key, online_until=seen)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    from lobby.models import Player as Profile

    names = dict(Profile.objects.values_list("visitor", "name"))
    assert names == {
        "b": "ANA", "d": "Ana 2", "a": "Ana 3", "c": "Ana 4", "e": "x" * 24, "f": "X" * 22 + " 2",
    }  # fmt: skip
