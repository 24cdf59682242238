"""Checks a host runs with ``manage.py check --deploy``: what a public host needs to work."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.caches, deploy=True)
def redis_answers(app_configs, **kwargs) -> list[Error]:
    """With ``REDIS_URL`` set, live updates and rate limits go through Redis: it must answer.

    Otherwise the servers start and pages load, and the first move fails (seen by a host).
    """
    if not settings.REDIS_URL:
        return []
    import redis

    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2
        )
        with client:
            client.ping()
    except (redis.RedisError, OSError, ValueError) as error:
        return [
            Error(
                f"Redis does not answer at REDIS_URL ({error}).",
                hint="Start Redis (systemctl start redis-server) or correct REDIS_URL.",
                id="yahtzee.E001",
            )
        ]
    return []
