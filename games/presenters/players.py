"""Seats as the card, the status line and the end of the game name and rank them."""

from __future__ import annotations

from datetime import timedelta
from typing import TypedDict

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from engine.rules import Scorecard
from engine.strategy.bots import BOTS
from games import clock
from games.models import Game, Seat
from games.presenters.words import rules_name
from games.services import away_deadline

# A game's players are sent to its page as it starts; until its socket has connected, a seat
# whose page has never opened is "joining" for this long, not away with its grace counting down
# (a watcher once saw "away 1:58" for a second as a game began). The away box is in the page,
# hidden, and page.js shows it when this runs out, as no push comes for a page that never opens.
ARRIVING = timedelta(seconds=15)


class PlayerView(TypedDict):
    """A seat as the card's column heading and the status line show it."""

    position: int
    name: str
    card: Scorecard
    is_current: bool
    bot: str
    is_you: bool  # the viewer's own seat on their own screen (not around one phone)
    presence: str  # online games: "online", "away", "left" ("later": not here, at own pace)
    dot: str  # the class of the dot before the name: "online", "away" or ""
    presence_word: str  # the same, as the status line says it ("here", "away", "left")
    away_line: str  # "Bo is away."
    go_on_label: str  # "Continue without Bo"
    deadline_iso: str  # when an away player's grace period ends, for the page's countdown
    grace_left: str  # what is left of it, as m:ss
    in_grace: bool  # the grace period is still running
    can_leave_out: bool  # the viewer may now go on without this player (once it has run out)
    arriving_iso: str  # until then the seat is joining: its page has not opened since the start
    berserk: bool  # a tournament seat that went berserk (``games.berserk``)


def seat_name(seat: Seat, *, solo: bool = False, own: bool = True) -> str:
    """How a seat is named on the card: its name, the computer's ("Computer (beginner)"), or
    "You" (to the visitor who sits there; "Player" to anyone else, such as someone watching)."""
    if seat.bot:
        bot = BOTS.get(seat.bot)
        return gettext(bot.seat_name) if bot else seat.bot
    if seat.name:
        return seat.name
    if solo:
        return gettext("Points")
    return gettext("You") if own else gettext("Player")


def is_own(seat: Seat, viewer: Seat | None) -> bool:
    """Whether the visitor with seat ``viewer`` (None: no seat in the game) sits at ``seat``."""
    return viewer is not None and not seat.bot and seat.visitor == viewer.visitor


def shares_screen(seats: list[Seat]) -> bool:
    """Whether two people's seats are one browser's (pass the phone): there a move or a win keeps
    its player's name, as "you" would be whoever holds the phone."""
    people = [seat.visitor for seat in seats if not seat.bot]
    return len(people) != len(set(people))


def finished(games: QuerySet[Game], visitor: str | None, count: int = 5) -> list[Game]:
    """This browser's last finished games (of ``games``, its own), each with ``own_total``: what
    the game came to for it, its seat's total (the best of its people's around one phone), never
    a computer's or an opponent's, whoever sat first."""
    last = list(games.filter(status=Game.Status.FINISHED)[:count])
    for game in last:
        game.own_total = max(
            seat.card().total
            for seat in game.ordered_seats()
            if seat.visitor == visitor and not seat.bot
        )
    return last


def player_view(
    game: Game, seat: Seat, state, viewer: Seat | None, words: dict, *, solo: bool, online: bool
) -> PlayerView:
    """A seat's column heading and (online games) presence, ready to print."""
    view: PlayerView = {
        "position": seat.position,
        "name": seat_name(seat, solo=solo, own=is_own(seat, viewer)),
        "card": state.cards[seat.position],
        "is_current": seat.position == state.current and not state.finished,
        "bot": seat.bot,
        "is_you": is_own(seat, viewer) and not shares_screen(game.ordered_seats()),
        "presence": "",
        "dot": "",
        "presence_word": "",
        "away_line": "",
        "go_on_label": "",
        "deadline_iso": "",
        "grace_left": "",
        "in_grace": False,
        "can_leave_out": False,
        "arriving_iso": "",
        "berserk": seat.berserk,
    }
    if online:
        view.update(presence(game, seat, state, viewer))
        view["presence_word"] = words[view["presence"]]
        view["dot"] = "" if view["presence"] in ("left", "later") else view["presence"]
        if view["presence"] == "away":
            view["away_line"] = words["is_away"] % {"name": view["name"]}
            view["go_on_label"] = words["go_on_without"] % {"name": view["name"]}
    return view


def presence(game: Game, seat: Seat, state, viewer: Seat | None) -> dict:
    """An online seat's presence: here, away (with its grace deadline) or gone for good."""
    if seat.position in state.forfeited:
        return {"presence": "left"}
    if seat.bot:  # the computer (a tournament's game) is always here
        return {"presence": "online"}
    deadline = away_deadline(game, seat)
    if deadline is None:
        return {"presence": "online"}
    if game.pace == Game.Pace.OWN:  # at your own pace nobody is away: the game waits
        return {"presence": "later"}
    can_leave_out = (
        viewer is not None
        and viewer.position != seat.position
        and viewer.position not in state.forfeited
        and not state.finished
    )
    now = timezone.now()
    seconds = max(0, int((deadline - now).total_seconds()))
    arriving = game.created_at + ARRIVING if seat.present_until is None else now
    return {
        "presence": "away",
        "deadline_iso": timezone.localtime(deadline).isoformat(),  # as |date:"c" does
        "grace_left": f"{seconds // 60}:{seconds % 60:02d}",
        "in_grace": deadline > now,
        "can_leave_out": can_leave_out,
        "arriving_iso": timezone.localtime(arriving).isoformat() if arriving > now else "",
    }


def countdown(seconds: int) -> str:
    """A countdown as page.js shows it: m:ss, or h:mm:ss from an hour on."""
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def turn_clock(game: Game) -> dict | None:
    """The turn timer as every page of the game shows it (None: no timer, or the game is over).

    ``deadline_iso`` for page.js to count down from the server's deadline, ``left`` as the page
    opens, ``runs_out`` the deadline as a time of day (what a page without JavaScript reads).
    """
    left = clock.seconds_left(game)
    if left is None:
        return None
    deadline = timezone.localtime(game.turn_deadline)
    return {
        "deadline_iso": deadline.isoformat(),
        "left": countdown(left),
        "own_pace": game.pace == Game.Pace.OWN,
        "runs_out": gettext("This turn runs out at %(time)s.")
        % {"time": deadline.strftime("%H:%M:%S %Z")},
    }


def ranking(players: list[PlayerView], changes: dict[int, dict] | None = None) -> list[dict]:
    """Final places, best total first; equal totals share a place (1, 1, 3); forfeits last.

    ``changes``: a rated game's change to each seat's rating (``hooks.RATING_CHANGES``).
    """
    changes = changes or {}
    ordered = sorted(players, key=lambda p: (p["presence"] == "left", -p["card"].total))
    places = []
    for index, player in enumerate(ordered):
        forfeit = player["presence"] == "left"
        total = player["card"].total
        previous = ordered[index - 1] if index else None
        tied = previous is not None and not forfeit and total == previous["card"].total
        place = places[-1]["place"] if tied else index + 1
        entry = {
            "place": place,
            "player": player,
            "total": total,
            "forfeit": forfeit,
            "rating": changes.get(player["position"]),
        }
        places.append(entry)
    return places


def continue_entry(game: Game, visitor: str | None, your_turn: bool) -> dict:
    """A game in progress as its Continue button says it: who the others at it are (not the
    visitor, who knows; everyone around one phone), its round, and, online, whose turn it is and
    at what pace. ``waiting``: a live game waits for this player now (the page's primary button).
    """
    seats = game.ordered_seats()
    others = [seat for seat in seats if seat.bot or seat.visitor != visitor]
    names = ", ".join(seat_name(seat) for seat in others or seats)
    played = min(sum(score is not None for score in seat.scores) for seat in seats)
    who = gettext("Solo") if len(seats) == 1 else names
    round_number = min(played + 1, game.rules.turns)
    summary = gettext("%(who)s · round %(round)s") % {"who": who, "round": round_number}
    if name := rules_name(game.rules):  # a game other than Yahtzee says which
        summary = gettext("%(who)s · %(game)s · round %(round)s") % {
            "who": who,
            "game": name,
            "round": round_number,
        }
    online = game.mode == Game.Mode.ONLINE
    own_pace = game.pace == Game.Pace.OWN
    return {
        "id": game.id,
        "summary": summary,
        "online": online,
        "your_turn": your_turn,
        "own_pace": own_pace,
        "waiting": online and your_turn and not own_pace,
    }
