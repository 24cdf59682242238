"""What lobby and table pages show."""

from __future__ import annotations

import segno
from django.utils import timezone

from lobby.models import MAX_TABLE_SEATS, Challenge, Player, Table


def lobby_context(visitor: str | None) -> dict:
    """Who is online and this player's open challenges."""
    me = Player.objects.filter(visitor=visitor).first() if visitor else None
    now = timezone.now()
    open_challenges = Challenge.objects.filter(
        status=Challenge.Status.PENDING, expires_at__gt=now
    ).select_related("challenger", "challenged")
    return {
        "me": me,
        "online": list(Player.objects.online().exclude(pk=me.pk if me else None)),
        "received": list(open_challenges.filter(challenged=me)) if me else [],
        "sent": list(open_challenges.filter(challenger=me)) if me else [],
        "now": now,
    }


def table_context(code: str, visitor: str | None, *, absolute_url: str = "") -> dict | None:
    """A table's seats, whether this visitor can join or start it, and its QR code (None when
    there is no such table, or it expired)."""
    table = Table.objects.select_related("host", "game").filter(code=code).first()
    if table is None or table.expired:
        return None
    seats = [seat.player for seat in table.seats.select_related("player")]
    me = Player.objects.filter(visitor=visitor).first() if visitor else None
    return {
        "table": table,
        "players": seats,
        "me": me,
        "seated": me in seats,
        "is_host": me is not None and table.host_id == me.pk,
        "full": len(seats) >= MAX_TABLE_SEATS,
        "max_seats": MAX_TABLE_SEATS,
        "qr_svg": segno.make(absolute_url, error="m").svg_inline(scale=4) if absolute_url else "",
    }
