"""The coach of practice games: the best moves now, and the odds of the made hands."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from engine.analysis import points_vs_win
from engine.rules import Scorecard
from engine.rulesets import RuleSet
from engine.strategy import odds
from games import advice, winchance
from games.models import Game
from games.presenters.words import label


def move_words(move: tuple[str, object], card: Scorecard, dice: tuple[int, ...]) -> str:
    """A move in plain words: "Keep 3 3 3 and roll", "Roll all five", "Score Threes (9)"."""
    kind, what = move
    if kind == "keep":
        if not what:
            return gettext("Roll all five again")
        return gettext("Keep %(dice)s and roll") % {"dice": " ".join(map(str, what))}
    points = card.options(dice)[what]
    return ngettext(
        "Score %(box)s now (%(points)s point)", "Score %(box)s now (%(points)s points)", points
    ) % {"box": label(what), "points": points}


def hint_lines(game: Game, state, limit: int = 3) -> list[dict] | None:
    """The best few moves now with their expected final totals; None until the coach is ready."""
    advisor = advice.advisor(game.rules)
    if advisor is None:
        return None
    card, turn = state.cards[state.current], state.turn
    # Keeping all five and rolling none is scoring later what could be scored now: it ties with
    # the best score and says nothing ("Keep 5 5 5 5 5 and roll (-0.0)"), so it is left out.
    options = [
        (move, value)
        for move, value in advisor.options(card, turn.dice, turn.rolls_left)
        if not (move[0] == "keep" and len(move[1]) == len(turn.dice))
    ]
    best = options[0][1]
    return [
        {
            "words": move_words(move, card, turn.dice),
            "expected": value,
            "loss": best - value,
            "tied": round(best - value, 1) == 0,  # as good as the first, to the tenth shown
        }
        for move, value in options[:limit]
    ]


def split_line(game: Game, state) -> str | None:
    """In a two-player game, when the best move for points is not the best to win, both in
    words ("For points: ...; to win: ..."); None when they agree or no model is ready."""
    model, advisor = winchance.model(game.rules), advice.advisor(game.rules)
    if len(state.cards) != 2 or state.forfeited or model is None or advisor is None:
        return None
    turn, card = state.turn, state.cards[state.current]
    cards, current = state.cards, state.current
    split = points_vs_win(model, advisor, cards, current, turn.dice, turn.rolls_left)
    if split is None:
        return None
    # Keeping all the dice is scoring later what could be scored now: said as that box.
    for_points, to_win = split
    if for_points[0] == "keep" and len(for_points[1]) == len(turn.dice):
        for_points = advisor.best_move(card, turn.dice, 0)
    if to_win[0] == "keep" and len(to_win[1]) == len(turn.dice):
        to_win = model.best_move(cards, current, turn.dice, 0)
    if for_points == to_win:
        return None
    for_points, to_win = (move_words(move, card, turn.dice) for move in (for_points, to_win))
    return gettext("For points: %(points)s; to win: %(win)s.") % {
        "points": for_points,
        "win": to_win,
    }


def odds_lines(state) -> list[dict]:
    """Chance of ending the turn able to score each open made hand, keeping the held dice."""
    turn, card = state.turn, state.cards[state.current]
    if turn.rolls_left == 0:
        return []
    kept = turn.kept if turn.dice else ()
    shown = odds.odds_boxes(card.rules)
    if card.rules.in_order:  # only the next box can be scored: its chance alone (Ones' too)
        shown = (*shown, *card.rules.upper)
        open_boxes = [box for box in card.open_boxes[:1] if box in shown]
    else:
        open_boxes = [box for box in shown if box in card.open_boxes]
    chances = odds.box_odds(kept, turn.rolls_left, open_boxes, card)
    return [{"label": label(box), "percent": 100 * chances[box]} for box in open_boxes]


def coach_note(rules: RuleSet) -> str:
    """What the coach says of itself where it is not exact (saved rolls), else ""."""
    if advice.exact(rules):
        return ""
    message = gettext(
        "The coach of %(game)s is strong but not exact: it plays each turn with the rolls it "
        "has, without weighing the rolls it could save for later turns."
    )
    return message % {"game": gettext(rules.name)}


def coach_allowed(game: Game) -> bool:
    """Hints and odds help in practice games of a rule set the coach knows (``advice.offered``);
    online games against people go without, and so do an attempt at the daily challenge and a
    duplicate tournament's round (their boards compare players: ``reveal_after`` is set only on
    those), and a berserk seat's game."""
    return (
        advice.offered(game.rules)
        and game.mode != Game.Mode.ONLINE
        and game.reveal_after is None
        and not any(seat.berserk for seat in game.ordered_seats())
    )
