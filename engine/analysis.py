"""Post-game analysis: every decision a player made, valued by the optimal-strategy engine.

Pure Python over a game's action log (no Django), so any finished game can be analysed any time.
A decision is what a player chose with the dice in front of them: which dice to keep before a
reroll, or which box to score. Its cost is the expected final total of the best move minus that
of the move made, both under optimal play from then on. The moves the server played for a seat
whose time ran out (after its "timeout", up to its score marked ``timed_out``) were not the
player's: they are not decisions and are not graded (``by_player``).

In a two-player game, given a ``WinModel``, each decision is also valued by the chance to win
it gave away (``Decision.chance_lost``), and ``points_vs_win`` tells the coach when the best
move for points is not the best move to win.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.flow import GameState
from engine.rules import Scorecard
from engine.rulesets import RuleSet
from engine.strategy import Advisor, Move
from engine.strategy.winning import WinModel

THRESHOLDS = (("fine", 0.0), ("inaccuracy", 1.0), ("mistake", 3.0), ("blunder", 8.0))
"""Expected points lost from which a decision gets each class, in one place."""


def classify(loss: float) -> str:
    """The class of a decision by the expected points it lost: fine ... blunder."""
    label = THRESHOLDS[0][0]
    for name, floor in THRESHOLDS:
        if loss >= floor - 1e-9:
            label = name
    return label


@dataclass(frozen=True)
class Decision:
    """One choice: the position, the move made and the best move, with their expected totals."""

    index: int
    round: int
    card: Scorecard
    dice: tuple[int, ...]
    held: tuple[bool, ...]
    rolls_left: int
    move: Move
    value: float
    best: Move
    best_value: float
    chance: float | None = None
    best_chance: float | None = None

    @property
    def chance_lost(self) -> float | None:
        """The chance to win given away against the move with the best chance (0 to 1), or None
        when the game is not a two-player game the win model knows."""
        if self.chance is None or self.best_chance is None:
            return None
        return max(0.0, self.best_chance - self.chance)

    @property
    def loss(self) -> float:
        """Expected points lost against the best move (0 when the move was the best)."""
        return max(0.0, self.best_value - self.value)

    @property
    def grade(self) -> str:
        """fine, inaccuracy, mistake or blunder."""
        return classify(self.loss)


@dataclass(frozen=True)
class Analysis:
    """All of one player's decisions in a game, with totals."""

    start_value: float
    decisions: list[Decision]
    final_total: int

    @property
    def total_loss(self) -> float:
        """Expected points lost over the whole game."""
        return sum(d.loss for d in self.decisions)

    @property
    def average_loss(self) -> float:
        """Expected points lost per decision."""
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    def costliest(self, n: int = 3) -> list[Decision]:
        """The ``n`` decisions that lost the most (only those that lost something)."""
        ranked = sorted(self.decisions, key=lambda d: -d.loss)
        return [d for d in ranked[:n] if d.loss > 1e-9]

    @property
    def total_chance_lost(self) -> float | None:
        """The chance to win given away over the game (None outside two-player games)."""
        lost = [d.chance_lost for d in self.decisions]
        if not lost or None in lost:
            return None
        return sum(lost)  # type: ignore[arg-type]

    def counts(self) -> dict[str, int]:
        """How many decisions fell in each class."""
        counts = {name: 0 for name, _ in THRESHOLDS}
        for decision in self.decisions:
            counts[decision.grade] += 1
        return counts


def is_decision(state: GameState, actor: int, kind: str) -> bool:
    """Whether ``actor`` doing ``kind`` in ``state`` is a decision: a keep and roll, or a box."""
    return actor == state.current and kind in ("roll", "score") and bool(state.turn.dice)


Logged = tuple[int, str, Mapping[str, Any]]
"""An action of the log: seat, kind, payload."""


def by_player(actions: Iterable[Logged]) -> Iterator[tuple[Logged, bool]]:
    """Each action of the log and whether its seat chose it: False for the "timeout" and the
    rest of that turn, which the server played for the seat (its score is marked ``timed_out``).

    >>> log = [(0, "timeout", {}), (0, "roll", {}), (0, "score", {"timed_out": True}),
    ...        (1, "roll", {}), (1, "score", {})]
    >>> [own for _, own in by_player(log)]
    [False, False, False, True, True]
    """
    served: int | None = None  # the seat whose timed-out turn the server is playing
    for action in actions:
        actor, kind, payload = action
        if kind == "timeout":
            served = actor
        own = kind != "timeout" and actor != served and not payload.get("timed_out")
        yield action, own
        if actor == served and kind == "score":  # the timed-out turn ends with its score
            served = None


def decide(
    state: GameState,
    actor: int,
    kind: str,
    payload: Mapping[str, Any],
    advisor: Advisor,
    index: int = 0,
    model: WinModel | None = None,
) -> Decision | None:
    """The decision ``actor`` makes by doing ``kind`` in ``state``, valued; None if it is none.

    A roll with dice in front of the player is a keep (the dice held before it), a score is the
    box chosen; a first roll, a hold (folded into the next roll) or a forfeit decides nothing.
    With a ``model`` of the game's rules and two players, the chances to win are valued too.
    """
    if not is_decision(state, actor, kind):
        return None
    turn = state.turn
    card = state.cards[actor]
    move: Move = ("keep", turn.kept) if kind == "roll" else ("score", payload["box"])
    options = advisor.options(card, turn.dice, turn.rolls_left)
    chance = best_chance = None
    if (
        model is not None
        and len(state.cards) == 2
        and not state.forfeited  # the game is decided: an abandoned card is no opponent
        and card.rules == model.rules
    ):
        chances = dict(model.move_chances(state.cards, actor, turn.dice, turn.rolls_left))
        chance, best_chance = chances[move], max(chances.values())
    return Decision(
        index=index,
        round=state.round,
        card=card,
        dice=turn.dice,
        held=turn.held,
        rolls_left=turn.rolls_left,
        move=move,
        value=dict(options)[move],
        best=options[0][0],
        best_value=options[0][1],
        chance=chance,
        best_chance=best_chance,
    )


def analyse(
    actions: Iterable[Logged],
    *,
    seats: int,
    seat: int,
    rules: RuleSet,
    advisor: Advisor,
    model: WinModel | None = None,
) -> Analysis:
    """Replay the log and value each keep and each box chosen by ``seat`` (not by the server);
    with a win ``model`` (two players), by the chance to win too."""
    state = GameState.new(seats, rules=rules)
    decisions: list[Decision] = []
    for (actor, kind, payload), own in by_player(actions):
        if actor == seat and own:
            decision = decide(state, actor, kind, payload, advisor, len(decisions), model)
            if decision is not None:
                decisions.append(decision)
        state = state.apply(actor, kind, payload)
    start = advisor.expected_total(Scorecard(rules))
    return Analysis(start, decisions, state.cards[seat].total)


def decision_point(
    actions: Iterable[Logged],
    *,
    seats: int,
    seat: int,
    index: int,
    rules: RuleSet,
) -> tuple[GameState, int, Logged] | None:
    """Where ``seat`` made its ``index``-th decision: the state then, the action's place in the
    log and the action; None if the seat made fewer decisions. Needs no strategy table.
    Counts as ``analyse`` does: the server's moves of a timed-out turn are no decisions."""
    state = GameState.new(seats, rules=rules)
    count = 0
    for number, ((actor, kind, payload), own) in enumerate(by_player(actions)):
        if actor == seat and own and is_decision(state, actor, kind):
            if count == index:
                return state, number, (actor, kind, payload)
            count += 1
        state = state.apply(actor, kind, payload)
    return None


def points_vs_win(
    model: WinModel,
    advisor: Advisor,
    cards: Sequence[Scorecard],
    current: int,
    dice: Sequence[int],
    rolls_left: int,
    min_gain: float = 0.01,
) -> tuple[Move, Move] | None:
    """``(best_for_points, best_to_win)`` when they differ and the move to win gains at least
    ``min_gain`` chance to win (one point in a hundred by default) over the move for points; else
    None. For the coach's hint: "for points: Chance; to win: go for the Yahtzee"."""
    for_points = advisor.best_move(cards[current], dice, rolls_left)
    moves = model.move_chances(cards, current, dice, rolls_left)
    to_win = moves[0][0]
    chances = dict(moves)
    if to_win == for_points or chances[to_win] - chances[for_points] < min_gain:
        return None
    return for_points, to_win
