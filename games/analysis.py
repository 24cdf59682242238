"""Post-game analysis: every decision a player made, valued by the optimal-strategy engine.

Pure Python over a game's action log (no Django), so any finished game can be analysed any time.
A decision is what a player chose with the dice in front of them: which dice to keep before a
reroll, or which box to score. Its cost is the expected final total of the best move minus that
of the move made, both under optimal play from then on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.flow import GameState
from games.rules import Scorecard
from games.strategy import Advisor, Move

# Expected points lost from which a decision gets each class, in one place.
THRESHOLDS = (("fine", 0.0), ("inaccuracy", 1.0), ("mistake", 3.0), ("blunder", 8.0))


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

    def counts(self) -> dict[str, int]:
        """How many decisions fell in each class."""
        counts = {name: 0 for name, _ in THRESHOLDS}
        for decision in self.decisions:
            counts[decision.grade] += 1
        return counts


def is_decision(state: GameState, actor: int, kind: str) -> bool:
    """Whether ``actor`` doing ``kind`` in ``state`` is a decision: a keep and roll, or a box."""
    return actor == state.current and kind in ("roll", "score") and bool(state.turn.dice)


def decide(
    state: GameState,
    actor: int,
    kind: str,
    payload: Mapping[str, Any],
    advisor: Advisor,
    index: int = 0,
) -> Decision | None:
    """The decision ``actor`` makes by doing ``kind`` in ``state``, valued; None if it is none.

    A roll with dice in front of the player is a keep (the dice held before it), a score is the
    box chosen; a first roll, a hold (folded into the next roll) or a forfeit decides nothing.
    """
    if not is_decision(state, actor, kind):
        return None
    turn = state.turn
    card = state.cards[actor]
    move: Move = ("keep", turn.kept) if kind == "roll" else ("score", payload["box"])
    options = advisor.options(card, turn.dice, turn.rolls_left)
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
    )


def analyse(
    actions: Iterable[tuple[int, str, Mapping[str, Any]]],
    *,
    seats: int,
    seat: int,
    multiple_yahtzees: bool,
    advisor: Advisor,
) -> Analysis:
    """Replay the log and value each keep and each box chosen by ``seat``."""
    state = GameState.new(seats, multiple_yahtzees=multiple_yahtzees)
    decisions: list[Decision] = []
    for actor, kind, payload in actions:
        if actor == seat:
            decision = decide(state, actor, kind, payload, advisor, index=len(decisions))
            if decision is not None:
                decisions.append(decision)
        state = state.apply(actor, kind, payload)
    start = advisor.expected_total(Scorecard(multiple_yahtzees))
    return Analysis(start, decisions, state.cards[seat].total)


def decision_point(
    actions: Iterable[tuple[int, str, Mapping[str, Any]]],
    *,
    seats: int,
    seat: int,
    index: int,
    multiple_yahtzees: bool,
) -> tuple[GameState, int, tuple[int, str, Mapping[str, Any]]] | None:
    """Where ``seat`` made its ``index``-th decision: the state then, the action's place in the
    log and the action; None if the seat made fewer decisions. Needs no strategy table."""
    state = GameState.new(seats, multiple_yahtzees=multiple_yahtzees)
    count = 0
    for number, (actor, kind, payload) in enumerate(actions):
        if actor == seat and is_decision(state, actor, kind):
            if count == index:
                return state, number, (actor, kind, payload)
            count += 1
        state = state.apply(actor, kind, payload)
    return None
