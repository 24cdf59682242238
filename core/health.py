"""``/healthz``: whether this process can serve, for a proxy or a service manager to ask.

200 "ok" when the database answers a trivial query, 503 when it does not. It says nothing else
(no versions, no settings, no error text: the log has those), sets no cookie, and is exempt from
the redirect to HTTPS (``SECURE_REDIRECT_EXEMPT``) so that a check over plain HTTP on loopback
gets its answer; docs/deploy.md says how to call it.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database answers, 503 when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        logger.warning("Health check: the database does not answer (%s)", error)
        return HttpResponse("database unreachable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")
