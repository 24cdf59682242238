"""Learn from your mistakes: the costliest decisions of this browser's recent games, to try again.

The positions come from the summaries of the browser's last analysed games (``Summary.costliest``),
the worst first. Each is shown as it was (the card, the dice and which were held, the rolls left)
and the player answers what they would do now; the perfect player grades the answer with the
same numbers as the analysis page. A position is named by its game, seat and decision index,
and only this browser's own positions are answered.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from core.answers import Refusal, answers_refusals
from core.errors import error_page
from core.identity import visitor_id
from core.refusals import ActionRefused
from engine.analysis import classify, decide, decision_point
from engine.flow import GameState
from engine.words import _
from games import advice
from games.models import Game
from games.presenters.analysis import GRADE_NAMES, Die
from games.presenters.coach import move_words
from games.presenters.words import label
from history.models import Summary
from history.summaries import actions_of, fill_missing

RECENT_GAMES = 20  # the browser's last analysed games the positions come from
POSITIONS = 10  # the costliest of their decisions, tried one at a time


@dataclass(frozen=True)
class Position:
    """One decision to try again: which game, seat and decision, and what it lost then."""

    game_id: str
    seat: int
    index: int
    loss: float


def positions_of(visitor: str) -> list[Position]:
    """The costliest decisions of this browser's recent analysed games, the worst first."""
    summaries = Summary.objects.of_visitor(visitor).analysed().select_related("seat")
    # Not today's daily attempts: the best moves on the day's dice would help a second attempt.
    summaries = summaries.exclude(game__reveal_after__gt=timezone.now())
    found = [
        Position(summary.game_id, summary.seat.position, entry["index"], entry["loss"])
        for summary in summaries[:RECENT_GAMES]
        for entry in summary.costliest
    ]
    found.sort(key=lambda p: (-p.loss, p.game_id, p.index))
    return found[:POSITIONS]


class Refused(ActionRefused):
    """A practice request that cannot be answered: its message and status."""

    def __init__(self, template: str, status: int = 400, **params: str) -> None:
        super().__init__(template, **params)
        self.status = status


def _cannot_practise(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    return error_page(request, gettext("Cannot practise that"), refusal.message, refusal.status)


@require_http_methods(["GET", "HEAD", "POST"])
@answers_refusals(_cannot_practise)
def practice(request: HttpRequest) -> HttpResponse:
    """One position at a time (``?n=``); a POST grades the answer to it."""
    visitor = visitor_id(request) or ""
    fill_missing(visitor, limit=RECENT_GAMES)
    positions = positions_of(visitor)
    if request.method == "POST":
        position = _named(request.POST, positions)
    else:
        position = _numbered(request.GET.get("n", "0"), positions)
    if position is None:
        return render(request, "history/practice.html", {"positions": []})
    context = _position_context(position, positions)
    if request.method == "POST":
        context["answer"] = _grade(context, request.POST)
    return render(request, "history/practice.html", context)


def _numbered(value: str, positions: list[Position]) -> Position | None:
    """The ``n``-th position of the list (None when there are none)."""
    if not positions:
        return None
    if not (value.isascii() and value.isdigit()) or int(value) >= len(positions):
        message = _("There is no such position: choose one from 1 to %(last)s.")
        raise Refused(message, last=str(len(positions)))
    return positions[int(value)]


def _named(data: QueryDict, positions: list[Position]) -> Position:
    """The position an answer names (game, seat, decision): one of this browser's, or refused."""
    game_id, seat, index = data.get("game", ""), data.get("seat", ""), data.get("decision", "")
    for position in positions:
        if (position.game_id, str(position.seat), str(position.index)) == (game_id, seat, index):
            return position
    if not game_id:
        raise Refused(_("The answer does not say which position it is for."), 400)
    if not Game.objects.filter(pk=game_id).exists():
        raise Refused(_("There is no such game."), 404)
    raise Refused(_("That position is not one of your positions to practise."), 403)


def _position_context(position: Position, positions: list[Position]) -> dict:
    """The position as it was: the card, the dice held, the rolls left, and the answers to pick."""
    game = Game.objects.prefetch_related("seats").get(pk=position.game_id)
    found = decision_point(
        actions_of(game),
        seats=len(game.ordered_seats()),
        seat=position.seat,
        index=position.index,
        rules=game.rules,
    )
    if found is None:  # a summary of another version of the analysis: nothing to show
        raise Refused(_("That position is not one of your positions to practise."), 409)
    state, logged_at, action = found
    turn = state.turn
    card = state.cards[position.seat]
    number = positions.index(position)
    return {
        "positions": positions,
        "position": position,
        "number": number,
        "next": number + 1 if number + 1 < len(positions) else None,
        "game": game,
        "state": state,
        "action": action,
        # Where this decision is in the game's replay: its rolls and scores before it.
        "replay_at": sum(kind != "hold" for _, kind, _ in actions_of(game)[:logged_at]),
        "round": state.round,
        "rolls_left": turn.rolls_left,
        "dice": [Die(i, *die) for i, die in enumerate(zip(turn.dice, turn.held, strict=True))],
        "filled": [(label(box), points) for box, points in card.boxes.items()],
        "boxes": [(box, label(box), points) for box, points in card.options(turn.dice).items()],
    }


def _grade(context: dict, data: QueryDict) -> dict:
    """The answer's value against the best move's, with the class and the best move in words."""
    state: GameState = context["state"]
    position: Position = context["position"]
    turn, card = state.turn, state.cards[position.seat]
    choice, keep = data.get("choice", ""), data.getlist("keep")
    if choice == "roll" and turn.rolls_left:
        dice = {str(die) for die in range(len(turn.dice))}
        if not set(keep) <= dice or len(set(keep)) != len(keep):
            if len(turn.dice) == 5:
                raise Refused(_("Choose dice to keep among the five."))
            raise Refused(_("Choose dice to keep among the six."))
        move = ("keep", tuple(sorted(turn.dice[int(k)] for k in keep)))
    elif choice.startswith("box:") and choice[4:] in card.options(turn.dice):
        move = ("score", choice[4:])
    else:
        raise Refused(_("Choose a box to score, or dice to keep and roll again."))
    advisor = advice.advisor(context["game"].rules)
    if advisor is None:
        raise Refused(_("The coach is getting ready: try again in a minute."), 503)
    options = advisor.options(card, turn.dice, turn.rolls_left)
    value, (best, best_value) = dict(options).get(move), options[0]
    if value is None:
        raise Refused(_("Choose a box to score, or dice to keep and roll again."))
    loss = max(0.0, best_value - value)
    grade = classify(loss)
    actor, kind, payload = context["action"]
    played = decide(state, actor, kind, payload, advisor)
    return {
        "choice": choice,  # the form shows the answer given, to compare with the best
        "keep": [int(k) for k in keep] if move[0] == "keep" else [],
        "chosen": move_words(move, card, turn.dice),
        "value": value,
        "best": move_words(best, card, turn.dice),
        "best_value": best_value,
        "loss": loss,
        "grade": grade,
        "grade_name": gettext(GRADE_NAMES[grade]),
        "was_best": loss < 1e-9,
        "played": move_words(played.move, card, turn.dice) if played else "",
        "played_loss": played.loss if played else 0.0,
    }
