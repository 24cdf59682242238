"""Who has a page open, derived from the pages' own rows so that it survives a server's crash.

Each open page's socket keeps a row (``OpenPage``) whose ``until`` its heartbeat renews, and a
seat's move, by any path, keeps one as a heartbeat would (``moved``). A seat is present while one
of its visitor's rows on the game is fresh; ``Seat.connections``
and ``Seat.present_until`` are a copy of that, recomputed from the rows (never counted up and
down), for the reads that every move makes. A server killed with pages open leaves their rows
behind: when it starts again it forgets them (``forget_process``), and a server that does not
come back has its rows lapse within ``PRESENCE_WINDOW``, when the next heartbeat on the game
notices (``lapse``).
"""

from __future__ import annotations

import socket
from collections.abc import Mapping
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Case, Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Game, Seat
from games.openpages import OpenPage

# A page counts as open this long after its socket last said so (it says so every 20 s).
PRESENCE_WINDOW = timedelta(seconds=60)


def process_name(scope: dict) -> str:
    """The socket server holding this page, named the same again after a restart: the host
    setting ``SOCKET_SERVER_ID`` (for a container whose host name changes), else this machine's
    name and the address it listens on.

    Several ``uvicorn --workers`` on one address share a name: each forgets the others' pages
    when it starts, which show as away until their next heartbeat (20 s) counts them again.
    """
    if settings.SOCKET_SERVER_ID:
        return settings.SOCKET_SERVER_ID
    host, port = scope.get("server") or ("", None)  # a Unix socket's: (its path, None)
    return f"{socket.gethostname()}:{host}:{port}"


def open_page(channel: str, process: str, visitor: str, game_id: str | None) -> None:
    """Count this page as open now (again, after a heartbeat, even if it was forgotten)."""
    OpenPage.objects.renew(channel, process, visitor, game_id, timezone.now() + PRESENCE_WINDOW)


def close_page(channel: str) -> None:
    """This page's socket closed."""
    OpenPage.objects.filter(channel=channel).delete()


def fresh_pages(now: datetime | None = None):
    """The rows of pages open now."""
    return OpenPage.objects.fresh(now or timezone.now())


def lapse(game_id: str | None) -> set[str]:
    """Forget the pages of this game (or of the lobby: None) whose heartbeat stopped (their
    server died); return whose they were. Only a read when there are none, as is usual."""
    lapsed = OpenPage.objects.filter(game_id=game_id).lapsed(timezone.now())
    visitors = set(lapsed.values_list("visitor", flat=True))
    if visitors:
        lapsed.delete()
    return visitors


# The rows a seat's own moves keep (``moved``): not a socket server's pages, never forgotten as one.
MOVES = "(moves)"


def moved(game: Game, seat: Seat) -> bool:
    """A seat of a live online game moved, by whatever path (a plain form post too: a browser
    without JavaScript has no socket): it is here as a page's heartbeat keeps it, for
    ``PRESENCE_WINDOW`` after the move, then away with the grace period. True if that brought
    the seat back (the others redraw its status).

    A seat whose open page keeps it here longer than half the window (its heartbeat renews it
    every 20 s) is left alone: a move over a socket costs nothing more.
    """
    now = timezone.now()
    if game.mode != Game.Mode.ONLINE or game.pace == Game.Pace.OWN or not seat.visitor:
        return False
    if seat.present_until is not None and seat.present_until > now + PRESENCE_WINDOW / 2:
        return False
    open_page(moves_row(game.pk, seat.visitor), MOVES, seat.visitor, game.pk)
    came_back = refresh_seats(game.pk, seat.visitor)
    seat.refresh_from_db(fields=["present_until", "connections"])  # the move's redraws show it
    return came_back


def moves_row(game_id: str, visitor: str) -> str:
    """The channel name under which a seat's moves keep it here (``moved``), one row a seat."""
    return f"moved:{game_id}:{visitor}"


def page_opened(channel: str, process: str, game_id: str, visitor: str | None) -> bool:
    """Count a seat's page as open; True if that brought the seat back (the others redraw).

    Its socket speaks for the seat from now on: the presence its page load or a move gave it
    (``moved``) ends, or a page closed within a minute of loading would still read as here.
    """
    if not visitor:
        return False
    close_page(moves_row(game_id, visitor))
    open_page(channel, process, visitor, game_id)
    return refresh_seats(game_id, visitor)


def page_alive(channel: str, process: str, game_id: str, visitor: str | None) -> bool:
    """A game page's heartbeat: renew it (a seat's), and forget the game's pages whose
    heartbeat stopped (a server that crashed); True if a seat came or went."""
    if visitor:
        open_page(channel, process, visitor, game_id)
    if lapse(game_id):
        return refresh_seats(game_id)  # everyone's: whose pages were those?
    # Only this seat's copy moves on (a watcher's page changes nothing).
    return bool(visitor) and refresh_seats(game_id, visitor)


def page_closed(channel: str, game_id: str, visitor: str | None) -> bool:
    """A seat's game page closed; True if it was the seat's last (the others see it away)."""
    if not visitor:
        return False
    close_page(channel)
    return refresh_seats(game_id, visitor)


def asked_here(game_id: str, visitor: str) -> None:
    """A player asked for a rematch of the game: from now on only a page of theirs closing says
    they went (``gone_from``). A move's presence (``moved``: a browser without JavaScript) ends
    here, or its window, running out a minute after their last move, would read as a page that
    closed after they asked. A seat with a page open is left as it is."""
    close_page(moves_row(game_id, visitor))
    now = timezone.now()
    Seat.objects.filter(game_id=game_id, visitor=visitor, connections=0).filter(
        present_until__gt=now
    ).update(present_until=now)


def gone_from(
    game: Game, visitor: str | None, asked: Mapping[str, datetime] | None = None
) -> list[Seat]:
    """The other players' seats with no page of theirs open on the game now (closed, or left
    for good and not come back): a finished live game's rematch is not offered to them.

    ``asked``: who asked for the rematch, and when. They count as here until a page of theirs
    closes after that: a page without JavaScript has no socket to say it is open, and its player
    has just said they are here. At your own pace nobody is gone: the rematch, at that pace too,
    waits for them.
    """
    if game.pace == Game.Pace.OWN:
        return []
    asked = asked or {}
    seats = Seat.objects.filter(game_id=game.pk).exclude(visitor="").exclude(visitor=visitor or "")
    away = seats.exclude(present_until__gt=timezone.now()).order_by("position")
    return [
        seat
        for seat in away
        if seat.visitor not in asked
        or (seat.present_until is not None and seat.present_until > asked[seat.visitor])
    ]


def is_watching(game_id: str, visitor: str | None) -> bool:
    """True if this visitor has no seat in the game: their pages only watch."""
    return not visitor or not Seat.objects.filter(game_id=game_id, visitor=visitor).exists()


def may_not_follow(game_id: str, visitor: str | None) -> str | None:
    """Why this browser may not open the game's socket, or None: "missing" (there is no such
    game) or "private" (not whoever may see its page, ``Game.open_to``: a solo game's own
    browser, a daily attempt's player while its day is on). One read."""
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        return "missing"
    return None if game.open_to(visitor) else "private"


def mark_watched(game_id: str) -> None:
    """A watcher's page is open on this game: keep the game marked watched for a while."""
    Game.objects.filter(pk=game_id).watched_until(timezone.now() + PRESENCE_WINDOW)


def forget_process(process: str) -> list[str]:
    """Forget every page a previous run of this server held (it crashed, or was killed); return
    the games whose seats' presence changed."""
    stale = OpenPage.objects.filter(process=process)
    games = sorted(set(stale.exclude(game=None).values_list("game_id", flat=True)))
    stale.delete()
    return [game_id for game_id in games if refresh_seats(game_id)]


def refresh_seats(game_id: str, visitor: str | None = None) -> bool:
    """Copy the open pages of this game's online seats (one visitor's, or everyone's) onto the
    seats (``present_until``); True if a seat came or went."""
    if not Game.objects.filter(pk=game_id, mode=Game.Mode.ONLINE).exists():
        return False
    now = timezone.now()
    seats = Seat.objects.filter(game_id=game_id).exclude(visitor="")
    if visitor:
        seats = seats.filter(visitor=visitor)
    pages = fresh_pages(now).filter(game_id=OuterRef("game_id"), visitor=OuterRef("visitor"))
    return copy_presence(seats, pages, "present_until", now)


def copy_presence(rows: QuerySet, pages: QuerySet, until: str, now: datetime) -> bool:
    """Copy how many ``pages`` each row has open (``connections``) and until when (the field
    ``until``, a seat's moves counted too) onto ``rows``, seats or players; True if one of them
    came or went.

    The rows are locked first: on PostgreSQL an UPDATE sees what was committed when it started,
    so of two pages closing at once on two servers, the copy written last could otherwise be the
    one that had not seen the other page go.
    """
    here = Q(**{f"{until}__gt": now})
    # Open pages only: a seat's move keeps it here, but no page of it is there to be sent redraws.
    counted = pages.exclude(process=MOVES)
    count = counted.order_by().values("visitor").annotate(n=Count("pk")).values("n")
    latest = pages.order_by("-until").values("until")[:1]
    with transaction.atomic():
        locked = rows.select_for_update().values_list("pk", until)
        before = {pk for pk, was in locked if was is not None and was > now}
        rows.update(
            connections=Coalesce(Subquery(count), 0),
            # No page open: away from now on (or since it went, if it was already away).
            **{
                until: Case(
                    When(Exists(pages), then=Subquery(latest)),
                    When(here, then=Value(now)),
                    default=F(until),
                )
            },
        )
        return before != set(rows.filter(here).values_list("pk", flat=True))
