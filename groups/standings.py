"""Standings among a group's members: their online games against each other, from the games'
summaries (``history.Summary``), with each member's rating (``lobby.Player``).

A game counts when at least two members sat at it (a table of four with a stranger counts too),
for each member who sat there: a win is a result of 1, a draw a share of first place (0.5), a
loss anything else, in whichever game (a win at Yatzy is a win). The average score counts only
cards of Yahtzee filled to the end (another game's scores are not Yahtzee's: like with like, as a
player's stats keep each game apart), and the accuracy, on the same 0-100 scale in every game, is
the mean over the valued decisions, each game weighing as many decisions as it had, as a
player's stats do (``history.stats``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, F, OuterRef, Q, Sum
from django.utils import timezone

from engine.rulesets import YAHTZEE
from games.models import Game, Seat
from history import summaries
from history.models import Summary
from lobby.models import Player
from lobby.presenters import rating_view


@dataclass(frozen=True)
class Standing:
    """One member's line."""

    place: int
    player: Player
    rating: dict  # lobby.presenters.rating_view
    games: int
    wins: int
    draws: int
    losses: int
    average: float | None  # None: no complete game
    accuracy: float | None  # None: no decision valued yet

    @property
    def points(self) -> float:
        """What the order goes by: a win 1, a draw a half."""
        return self.wins + self.draws / 2


def games_among(visitors: list[str]):
    """The summaries of these members' online games in which another of them sat."""
    another = Seat.objects.filter(game=OuterRef("game"), visitor__in=visitors).exclude(
        visitor=OuterRef("visitor")
    )
    return Summary.objects.filter(visitor__in=visitors, mode=Game.Mode.ONLINE).filter(
        Exists(another)
    )


def standings(members: list[Player]) -> list[Standing]:
    """The members' standings, the most points first, then the better average; members with no
    game between them last, by name."""
    visitors = [member.visitor for member in members]
    among = games_among(visitors)
    summaries.value_missing(among)  # their decisions are valued when first shown, as elsewhere
    valued = Q(decisions__isnull=False, accuracy__isnull=False)
    averaged = Q(complete=True, rules_key=YAHTZEE.key)
    rows = {
        row["visitor"]: row
        for row in among.values("visitor").annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(result=1)),
            draws=Count("id", filter=Q(result=0.5)),
            complete_games=Count("id", filter=averaged),
            complete_points=Sum("total", filter=averaged),
            valued_decisions=Sum("decisions", filter=valued),
            accuracy_sum=Sum(F("accuracy") * F("decisions"), filter=valued),
        )
    }
    now = timezone.now()
    lines = []
    for member in members:
        row = rows.get(member.visitor, {})
        games, complete = row.get("games", 0), row.get("complete_games", 0)
        decisions = row.get("valued_decisions") or 0
        lines.append(
            {
                "player": member,
                "rating": rating_view(member, now),
                "games": games,
                "wins": row.get("wins", 0),
                "draws": row.get("draws", 0),
                "losses": games - row.get("wins", 0) - row.get("draws", 0),
                "average": row["complete_points"] / complete if complete else None,
                "accuracy": row["accuracy_sum"] / decisions if decisions else None,
            }
        )
    lines.sort(
        key=lambda line: (
            line["games"] == 0,
            -(line["wins"] + line["draws"] / 2),
            -(line["average"] or 0),
            line["player"].name_key,
        )
    )
    return [Standing(place=i + 1, **line) for i, line in enumerate(lines)]
