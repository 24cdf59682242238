"""The daily challenge: the same dice for everyone, one attempt a day, boards where skill wins.

Each day (UTC) has a secret seed and a game, fixed the first time someone opens it. The game
rotates by a simple rule (``ROTATION``): Yahtzee most days, Yahtzee in order on Wednesdays, Yatzy
on Saturdays, each only while the perfect player knows it (its table is loaded:
``games.advice.is_ready``; the fair board is points lost against it), Yahtzee otherwise. An attempt
is a solo game in the day's game (multiple Yahtzees on) whose dice come from that seed
(``engine.dice``): a die rerolled on roll r of turn t in slot s has the same face for everyone, so
two players who hold the same dice see the same rolls. The boards rank by the expected points lost
against the perfect player (``history.Summary``, written as the attempt finishes), the fair one: a
throwaway attempt that rerolls everything sees every die of the day, but knowing the dice cannot
lower the points lost (see ``board``); and by score, among profiles only, where knowing them could
help, as the page says.

The coach and the odds are off during an attempt (``games.presenters.coach.coach_allowed``); its
page is its player's until the day is over, and its replay and analysis (the perfect player's view
of the day's positions) open to everyone, its player too, when the day is over, with the seed
(``Game.open_to``, ``Game.daily_running``, ``Game.seed_revealed``).

One attempt per browser, which a profile carries to its other devices: a second is refused; the
one started can be resumed until it is finished, even after midnight.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.refusals import ActionRefused
from daily.models import Attempt, Challenge
from engine import dice
from engine.rulesets import YAHTZEE, YAHTZEE_IN_ORDER, YATZY, RuleSet
from engine.words import _
from games import advice, services
from games.models import Game, Seat
from history import summaries
from history.models import Summary
from lobby.models import Player
from profiles import blocking

BOARD_SIZE = 20
# The daily challenge's game by weekday (Monday 0); Yahtzee on the other days.
ROTATION = {2: YAHTZEE_IN_ORDER, 5: YATZY}


class AlreadyPlayed(ActionRefused):
    """This browser has an attempt at the day's challenge already."""

    status = 409

    def __init__(self, attempt: Attempt) -> None:
        self.attempt = attempt
        super().__init__(_("You have played today's challenge: one attempt a day."))


def today() -> dt.date:
    """The challenge's day now (days are UTC, the same for everyone)."""
    return timezone.now().astimezone(dt.UTC).date()


def day_end(day: dt.date) -> dt.datetime:
    """When a day's challenge is over: its seed is shown, its attempts open to everyone."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)


def game_of_the_day(day: dt.date) -> RuleSet:
    """The game a day's challenge is played in, when it is made (see the module's doc)."""
    rules = ROTATION.get(day.weekday(), YAHTZEE)
    return rules if advice.is_ready(rules) else YAHTZEE


def challenge_of(day: dt.date) -> Challenge:
    """The day's challenge, made with a fresh secret seed and the day's game by whoever opens it
    first; kept as made (a day's board never changes its rules)."""
    challenge = Challenge.objects.filter(day=day).first()
    if challenge is None:
        fields = {"seed": dice.new_seed(), "rules_key": game_of_the_day(day).key}
        challenge, _made = Challenge.objects.get_or_create(day=day, defaults=fields)
    return challenge


def attempt_of(challenge: Challenge, visitor: str | None) -> Attempt | None:
    """This browser's attempt at the challenge, if any."""
    if not visitor:
        return None
    return (
        Attempt.objects.select_related("game").filter(challenge=challenge, visitor=visitor).first()
    )


def start(visitor: str) -> Game:
    """This browser's attempt at today's challenge; AlreadyPlayed if it has one."""
    challenge = challenge_of(today())
    existing = attempt_of(challenge, visitor)
    if existing is not None:
        raise AlreadyPlayed(existing)
    player = Player.objects.filter(visitor=visitor).first()
    try:
        with transaction.atomic():
            game = services.start_game(
                visitor,
                [player.name if player else ""],
                mode=Game.Mode.SOLO,
                rules=challenge.rules,
                seed=challenge.seed,
                reveal_after=day_end(challenge.day),
            )
            Attempt.objects.create(challenge=challenge, visitor=visitor, game=game)
    except IntegrityError:  # two tabs started at once: the other one's attempt stands
        raise AlreadyPlayed(attempt_of(challenge, visitor)) from None
    return game


@dataclass(frozen=True)
class Line:
    """One finished attempt on a board."""

    place: int
    game_id: str
    name: str
    player: Player | None
    total: int
    loss: float | None
    yours: bool


def finished(challenge: Challenge):
    """The summaries of the challenge's finished attempts."""
    return Summary.objects.filter(game__daily_attempt__challenge=challenge)


def board(challenge: Challenge, by: str, visitor: str | None) -> tuple[list[Line], Line | None]:
    """The best ``BOARD_SIZE`` attempts by score or by points lost, and this browser's line.

    Points lost is the fair board: each decision is valued against the perfect player, who does
    not know the dice to come, so knowing them (from a scouting attempt in another browser) cannot
    lower it. The score board can be helped by knowing them: it counts only profiles, each of which
    has one attempt, and the page says so. Attempts are valued by the perfect player when first
    shown (``history.summaries``): here.
    """
    summaries.value_missing(finished(challenge))
    rows = finished(challenge)
    if by == "loss":
        rows = rows.analysed().order_by("loss", "-total", "finished_at")
    else:
        rows = rows.filter(visitor__in=Player.objects.values("visitor"))
        rows = rows.order_by("-total", "loss", "finished_at")
    top = list(rows[:BOARD_SIZE])
    key = (lambda s: s.loss) if by == "loss" else (lambda s: -s.total)
    mine = next((s for s in top if s.visitor == visitor), None)
    own = None
    if mine is None and visitor:
        summary = rows.filter(visitor=visitor).first()
        if summary is not None:
            if by == "loss":
                better = rows.filter(loss__lt=summary.loss).count()
            else:
                better = rows.filter(total__gt=summary.total).count()
            own = _lines([summary], visitor, first_place=better + 1)[0]
    return _lines(top, visitor, key=key), own


def _lines(summaries: list[Summary], visitor: str | None, first_place: int = 1, key=None):
    """Board lines, in order; equal ``key`` values share a place (1, 1, 3)."""
    players = {
        p.visitor: p for p in Player.objects.filter(visitor__in=[s.visitor for s in summaries])
    }
    places: list[int] = []
    for i, summary in enumerate(summaries):
        tied = key is not None and i and key(summary) == key(summaries[i - 1])
        places.append(places[-1] if tied else first_place + i)
    return [
        Line(
            place=places[i],
            game_id=s.game_id,
            name=players[s.visitor].name if s.visitor in players else "",
            player=players.get(s.visitor),
            total=s.total,
            loss=s.loss,
            yours=s.visitor == visitor,
        )
        for i, s in enumerate(summaries)
    ]


def results_among(challenge: Challenge, visitors, viewer: str | None) -> list[Line]:
    """How these browsers (a group's members, the people one has played) did at the challenge,
    best first; nobody with a block either way with the viewer, as in the lobby."""
    rows = finished(challenge).filter(visitor__in=visitors)
    if viewer:
        rows = rows.exclude(visitor__in=blocking.kept_apart_visitors(viewer))
    return _lines(
        list(rows.order_by("-total", "loss")[:BOARD_SIZE]), viewer, key=lambda s: -s.total
    )


def friends_results(challenge: Challenge, visitor: str | None) -> list[Line]:
    """How the people this browser has played online did at the challenge, best first."""
    if not visitor:
        return []
    met = (
        Seat.objects.filter(game__mode=Game.Mode.ONLINE, game__seats__visitor=visitor)
        .exclude(visitor=visitor)
        .exclude(visitor="")
        .values("visitor")
    )
    # A block either way hides the two from each other here too, as in the lobby.
    return results_among(challenge, met, visitor)


def streak(visitor: str | None) -> int:
    """Days in a row this browser played the challenge, up to today (or to yesterday, if today's
    is not played yet)."""
    if not visitor:
        return 0
    days = Attempt.objects.filter(visitor=visitor).order_by("-challenge__day")
    expected = today()
    count = 0
    for day in days.values_list("challenge__day", flat=True)[:3660]:
        if day == expected - dt.timedelta(days=1) and count == 0:
            expected = day  # today's not played yet: the streak runs to yesterday
        if day != expected:
            break
        count += 1
        expected = day - dt.timedelta(days=1)
    return count
