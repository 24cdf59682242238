"""What lobby and table pages show."""

from __future__ import annotations

from datetime import timedelta

import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from core.identity import visitor_id
from engine import rating as ratings
from engine.strategy.bots import BOTS
from games import advice
from games.clock import TURN_SECONDS
from games.forms import ComputerGameForm, variant_choices
from games.models import Game, Seat
from games.presence import gone_from
from games.presenters.players import continue_entry, seat_name
from lobby import apart, diamonds, hooks, playnow, ranked
from lobby.models import DECLINE_SHOWN, MAX_TABLE_SEATS, Challenge, Player, Table


def clock(seconds: float) -> str:
    """Seconds as page.js's countdowns and count-ups show them: minutes:seconds."""
    seconds = max(0, round(seconds))
    return f"{seconds // 60}:{seconds % 60:02}"


def time_left(until, now) -> str:
    """What a countdown shows first, as page.js goes on showing it."""
    return clock((until - now).total_seconds())


def ranked_panel(me: Player, now) -> dict:
    """The lobby's ranked panel: the player's rating and rank, the wait, their ranked game."""
    queue = ranked.panel(me, now)
    view = rating_view(me, now)
    waited = clock((now - queue["since"]).total_seconds()) if queue["since"] else "0:00"
    return queue | {"rating": view["shown"], "rank": view["rank"], "waited": waited}


def _with_time_left(challenges, now) -> list[Challenge]:
    for challenge in challenges:
        challenge.left = time_left(challenge.expires_at, now)
    return list(challenges)


def rating_view(player: Player, now) -> dict:
    """A player's rank and rating as players read them: "Gold", "1623" or "1500?", "± 80"."""
    rating = player.rating
    return {
        "rank": gettext(ratings.rank_of(rating, now).name),
        "rank_key": ratings.rank_of(rating, now).key,
        "shown": ratings.shown(rating, now),
        "deviation": round(ratings.deviation_now(rating, now)),
        "provisional": ratings.is_provisional(rating, now),
        "rated": rating.updated_at is not None,
    }


def online_list(me: Player | None, now, favoured: set[int]) -> list[dict]:
    """Who else is online, by name, this player's favourites (``favoured``) first and marked;
    nobody with a block either way with them."""
    players = Player.objects.online()
    if me is not None:
        players = players.exclude(pk__in=apart.kept_apart(me.pk) | {me.pk})
    entries = [
        {"player": player, "rating": rating_view(player, now), "favourite": player.pk in favoured}
        for player in players
    ]
    return sorted(entries, key=lambda entry: not entry["favourite"])  # stable: by name within


def favourites_list(favoured: set[int], now) -> list[dict]:
    """These favourites by name, each online now or when last seen."""
    players = Player.objects.filter(pk__in=favoured).order_by("name_key")
    return [
        {
            "player": player,
            "online": player.online_until is not None and player.online_until > now,
            "last_seen": player.online_until,
            # timesince says "0 minutes" for under a minute
            "just_now": player.online_until is not None
            and now - player.online_until < timedelta(minutes=1),
        }
        for player in players
    ]


def lobby_context(visitor: str | None) -> dict:
    """Who is online, this player's open challenges, and those of theirs just declined; their
    rating and place in the ranked queue."""
    me = Player.objects.filter(visitor=visitor).first() if visitor else None
    now = timezone.now()
    open_challenges = Challenge.objects.filter(
        status=Challenge.Status.PENDING, expires_at__gt=now
    ).select_related("challenger", "challenged")
    favoured = apart.favourites(me.pk) if me else set()
    return {
        "me": me,
        "online": online_list(me, now, favoured),
        "favourites": favourites_list(favoured, now) if favoured else [],
        "received": _with_time_left(open_challenges.filter(challenged=me), now) if me else [],
        "tables_for_me": hooks.TABLES_FOR(me) if me else [],  # a group's tables
        "sent": _with_time_left(open_challenges.filter(challenger=me), now) if me else [],
        "declined": [
            {"name": challenge.challenged.name, "until": challenge.answered_at + DECLINE_SHOWN}
            for challenge in Challenge.objects.filter(
                challenger=me,
                status=Challenge.Status.DECLINED,
                answered_at__gt=now - DECLINE_SHOWN,
            ).select_related("challenged")
        ]
        if me
        else [],
        "ranked": ranked_panel(me, now) if me else None,
        "now": now,
        "diamonds": diamonds.balance(me) if me else 0,
        "stakes": diamonds.STAKES,
        "variants": variant_choices(multiplayer=True),  # the challenge's and the table's
    }


def your_turn(visitor: str | None) -> list[dict]:
    """The online games waiting for this browser's turn, newest first, to list at the top.

    Shown as the lobby page opens, not in its live redraws (each would read the games again).
    """
    games = Game.objects.awaiting(visitor or "").prefetch_related("seats")
    return [continue_entry(game, visitor, your_turn=True) for game in games]


def qr_svg(url: str) -> str:
    """A link's QR code, as an inline SVG a page shows (a table's, a group's invite)."""
    return segno.make(url, error="m").svg_inline(scale=4)


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
        "timer_choices": TURN_SECONDS,  # what the host may choose when starting
        "qr_svg": qr_svg(absolute_url) if absolute_url else "",
        "for_group": hooks.TABLE_FOR(table),  # a group's table: whose (None: anyone's)
        "admitted": me is not None and not hooks.TABLE_ADMITS(table, me),
    }


def rematch_offer(game: Game, viewer: Seat | None) -> dict:
    """Who has asked for a rematch of a finished online game, whether the viewer has, who
    declined it (``declined``: a name, "" for none; ``declined_mine``: the viewer), which of
    the others are gone (``gone``: names; no rematch is offered to them), and where its buttons
    post (``urls``). The game's page asks it through ``games.presenters.hooks.REMATCH``."""
    table = getattr(game, "rematch", None)
    if table is not None and table.expired:
        table = None
    seats = list(table.seats.select_related("player")) if table is not None else []
    asked = {seat.player.visitor: seat.joined_at for seat in seats}
    gone = [seat_name(seat) for seat in gone_from(game, viewer and viewer.visitor, asked)]
    offer = {"asked": [], "mine": False, "game_id": None, "gone": gone}
    offer["urls"] = {
        "ask": reverse("lobby:rematch", args=[game.id]),
        "decline": reverse("lobby:decline_rematch", args=[game.id]),
    }
    offer |= {"declined": "", "declined_mine": False}
    if table is None:
        return offer
    offer["asked"] = [seat.player.name for seat in seats]
    offer["mine"] = viewer is not None and viewer.visitor in {s.player.visitor for s in seats}
    offer["game_id"] = table.game_id
    if table.declined_by_id:
        declined_by = table.declined_by
        offer["declined"] = declined_by.name
        offer["declined_mine"] = viewer is not None and viewer.visitor == declined_by.visitor
    return offer


def rating_changes(game: Game) -> dict[int, dict]:
    """A rated game's change to each seat's rating, by position: ``{"change": "+12", "rating":
    "1512", "way": "up"}`` ("down", or "" for none; nothing for a game not rated).

    The game's page asks it through ``games.presenters.hooks.RATING_CHANGES``.
    """
    if not game.ranked:
        return {}
    positions = {seat.visitor: seat.position for seat in game.ordered_seats()}
    rows = game.rating_changes.values_list(
        "player__visitor", "value_before", "value_after", "deviation_after"
    )
    changes = {}
    for visitor, before, after, deviation in rows:
        new = ratings.Rating(after, deviation)
        change = ratings.change(ratings.Rating(before), new)
        changes[positions.get(visitor)] = {
            "change": change,
            "rating": ratings.shown(new),
            "way": {"+": "up", "-": "down"}.get(change[0], ""),
        }
    return changes


def play_now_panel(request: HttpRequest, subject: None) -> dict:
    """The home page's Play now panel (``core.panels.HOME_PAGE``): a name first for a browser
    without a profile; a link back to the waiting page for a player who waits."""
    visitor = visitor_id(request)
    return {
        "play_now": {
            "named": bool(visitor) and Player.objects.filter(visitor=visitor).exists(),
            "waiting": playnow.waiting_since(visitor) is not None,
            "wait_seconds": round(settings.PLAY_NOW_WAIT_SECONDS),
        }
    }


def play_now_context(visitor: str | None) -> dict:
    """The waiting page: since when, when the computer is offered, at which strengths (the home
    page's default first, each one tap), and the game a player was paired into."""
    now = timezone.now()
    since = playnow.waiting_since(visitor)
    offer_at = since + playnow.offer_after() if since else None
    playable = [bot for bot in BOTS.values() if advice.bot_can_play(bot.id)]
    usual = ComputerGameForm.base_fields["strength"].initial
    default = next((bot for bot in playable if bot.id == usual), playable[-1])
    return {
        "me": Player.objects.filter(visitor=visitor).first() if visitor else None,
        "since": since,
        "waited": clock((now - since).total_seconds()) if since else "0:00",
        "offer_at": offer_at,
        "offer_shown": offer_at is not None and offer_at <= now,
        "wait_seconds": round(settings.PLAY_NOW_WAIT_SECONDS),
        "strengths": [default, *(bot for bot in playable if bot is not default)],
        "game_id": playnow.paired_game(visitor),
    }
