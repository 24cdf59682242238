"""The flow of a game of Yahtzee: whose turn it is, the dice, holds and rolls. Pure Python.

A ``GameState`` is an immutable value. ``apply`` is the one function that moves a game on, used both
when a player acts and when a game is replayed from its action log, so a replay can only ever reach
the state that was stored. Randomness stays outside: a roll action carries the dice it rolled.

>>> state = GameState.new(seats=1)
>>> state = state.apply(0, "roll", {"dice": [2, 2, 5, 2, 6]})
>>> state = state.apply(0, "hold", {"die": 0, "held": True})
>>> state.turn.held
(True, False, False, False, False)
>>> state.apply(0, "score", {"box": "twos"}).cards[0].boxes
{'twos': 6}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.rules import IllegalMove, Scorecard, check_box, wrong_dice
from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _

ROLLS_PER_TURN = 3
"""Rolls in a turn (more with saved rolls: ``RuleSet.saved_rolls``)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """The dice of the turn in play: ``dice`` is empty before the first roll."""

    dice: tuple[int, ...] = ()
    held: tuple[bool, ...] = (False,) * YAHTZEE.dice  # GameState gives its rule set's number
    rolls: int = 0
    saved: int = 0  # saved rolls the player brought to this turn (``RuleSet.saved_rolls``)

    @classmethod
    def first(cls, rules: RuleSet, saved: int = 0) -> Turn:
        """A turn before its first roll, with the rule set's number of dice, none held, and the
        player's saved rolls."""
        return cls(held=(False,) * rules.dice, saved=saved)

    @property
    def rolls_left(self) -> int:
        """Rolls still allowed this turn, saved ones included."""
        return ROLLS_PER_TURN + self.saved - self.rolls

    @property
    def saved_left(self) -> int:
        """Saved rolls not yet used: a turn rolls its own three before them.

        >>> Turn(rolls=1, saved=2).saved_left, Turn(rolls=4, saved=2).saved_left
        (2, 1)
        """
        return min(self.saved, self.rolls_left)

    def holds_for(self, kept: tuple[int, ...]) -> tuple[bool, ...]:
        """Which dice to hold so that exactly the faces ``kept`` stay, changing as few as possible.

        >>> turn = Turn(dice=(3, 5, 3, 3, 1), held=(False, False, False, True, False), rolls=1)
        >>> turn.holds_for((3, 3))
        (True, False, False, True, False)
        """
        wanted = list(kept)
        holds = [False] * len(self.dice)
        # Dice already held come first, so a keep the player half-made is not shuffled around.
        order = sorted(range(len(self.dice)), key=lambda i: not self.held[i])
        for i in order:
            if self.dice[i] in wanted:
                wanted.remove(self.dice[i])
                holds[i] = True
        if wanted:
            raise IllegalMove(_("Those dice are not among the dice rolled."))
        return tuple(holds)

    @property
    def kept(self) -> tuple[int, ...]:
        """The held dice, sorted."""
        return tuple(sorted(d for d, h in zip(self.dice, self.held, strict=True) if h))


@dataclass(frozen=True, slots=True)
class GameState:
    """Everyone's card, whose turn it is and the turn in play."""

    cards: tuple[Scorecard, ...]
    current: int = 0
    turn: Turn = field(default_factory=Turn)
    # Seats that left an online game for good: their turns are skipped, their result is a forfeit.
    forfeited: frozenset[int] = frozenset()
    # True when the players still there ended the game early.
    ended: bool = False
    # Each seat's saved rolls as its turn starts (``RuleSet.saved_rolls``; () for none saved):
    # the current seat's are in its turn, ``turn.saved``.
    saved: tuple[int, ...] = ()

    @classmethod
    def new(cls, seats: int = 1, *, rules: RuleSet = YAHTZEE) -> GameState:
        """A game not yet started for ``seats`` players under ``rules``."""
        cards = tuple(Scorecard(rules) for _ in range(seats))
        saved = (0,) * seats if rules.saved_rolls else ()
        return cls(cards=cards, turn=Turn.first(rules), saved=saved)

    @property
    def rules(self) -> RuleSet:
        """The game's rule set (every card has the same)."""
        return self.cards[0].rules

    @property
    def finished(self) -> bool:
        """True once every card still in play is full, or the game was ended."""
        return self.ended or all(
            card.is_full for seat, card in enumerate(self.cards) if seat not in self.forfeited
        )

    def results(self) -> tuple[float, ...]:
        """Each seat's result in a finished game: 1 won, 0.5 tied for first, 0 lost.

        A seat that left for good (a forfeit) lost; the best total of the others wins, and
        equal best totals tie.
        """
        totals = {
            seat: card.total for seat, card in enumerate(self.cards) if seat not in self.forfeited
        }
        best = max(totals.values(), default=None)
        first = [seat for seat, total in totals.items() if total == best]
        won = 1.0 if len(first) == 1 else 0.5
        return tuple(won if seat in first else 0.0 for seat in range(len(self.cards)))

    @property
    def everyone_played(self) -> bool:
        """True once every seat has scored a box: a ranked game ended before is not rated."""
        return all(card.turns_played for card in self.cards)

    @property
    def round(self) -> int:
        """The round in play, 1 to 13 (13 once the game is over)."""
        return min(self.cards[self.current].turns_played + 1, self.rules.turns)

    def options(self) -> dict[str, int]:
        """``{box: points}`` the current player may score now; {} before the first roll."""
        if not self.turn.dice or self.finished:
            return {}
        return self.cards[self.current].options(self.turn.dice)

    def apply(self, seat: int, kind: str, payload: Mapping[str, Any]) -> GameState:
        """Return the state after ``seat`` does ``kind`` ("roll", "hold" or "score").

        Payloads: roll ``{"dice": the rule set's number of faces after the roll}`` (held dice
        unchanged), hold ``{"die": 0 to dice - 1, "held": bool}``, score ``{"box": name}``;
        "forfeit" and "end" ``{"seat": absent seat}`` (see ``leave``); "resign" ``{}``, the seat
        gives up (see ``resign``); "timeout" ``{}`` marks that the current seat's time ran out (it
        changes nothing: the server's moves for the seat follow it).
        Raise IllegalMove, changing nothing, when the move is not allowed now.
        """
        if kind in ("forfeit", "end"):
            return self.leave(seat, payload.get("seat"), end=kind == "end")
        if kind == "resign":
            return self.resign(seat)
        if self.finished:
            raise IllegalMove(_("The game is over."))
        if seat != self.current:
            raise IllegalMove(_("It is not your turn."))
        if kind == "timeout":
            return self
        if kind == "roll":
            return self._roll(payload.get("dice"))
        if kind == "hold":
            return self._hold(payload.get("die"), payload.get("held"))
        if kind == "score":
            return self._score(payload.get("box"))
        raise IllegalMove(_("Unknown action."))

    def leave(self, seat: int, absent: Any, *, end: bool = False) -> GameState:
        """``seat`` lets the game go on without ``absent`` (a forfeit), or ends it (``end``).

        Any seat still in the game may do this for another; the service checks the grace period.
        A seat may leave itself (the server logs it at the seat's third timeout in a row).
        """
        if self.finished:
            raise IllegalMove(_("The game is over."))
        if seat in self.forfeited or not 0 <= seat < len(self.cards):
            raise IllegalMove(_("You are no longer in this game."))
        if not isinstance(absent, int) or not 0 <= absent < len(self.cards):
            raise IllegalMove(_("There is no such player to leave out."))
        if absent == seat and end:  # a seat may leave (its third timeout), not end the game
            raise IllegalMove(_("There is no such player to leave out."))
        if absent in self.forfeited:
            raise IllegalMove(_("That player has already left."))
        forfeited = self.forfeited | {absent}
        if end:
            return replace(self, forfeited=forfeited, ended=True)
        state = replace(self, forfeited=forfeited)
        if absent == self.current:
            state = state._turn_of(state._next_seat(absent))
        return state

    def resign(self, seat: int) -> GameState:
        """``seat`` gives the game up, whoever's turn it is: it loses, as a seat that left does.

        The others play on; with one player left the game is over and that player wins.

        >>> state = GameState.new(seats=2).resign(0)
        >>> state.finished, state.results()
        (True, (0.0, 1.0))
        """
        state = self.leave(seat, seat)
        if len(self.cards) - len(state.forfeited) < 2:
            state = replace(state, ended=True)
        return state

    def _next_seat(self, after: int) -> int:
        """The next seat after ``after`` that is still in the game."""
        for step in range(1, len(self.cards) + 1):
            seat = (after + step) % len(self.cards)
            if seat not in self.forfeited:
                return seat
        return after

    def saved_rolls(self, seat: int) -> int:
        """The saved rolls ``seat`` has now: those left in its turn, or those its next turn
        brings."""
        if seat == self.current and not self.finished:
            return self.turn.saved_left
        return self.saved[seat] if self.saved else 0

    def _turn_of(self, seat: int) -> GameState:
        """The state with ``seat``'s turn starting, its saved rolls with it."""
        saved = self.saved[seat] if self.saved else 0
        return replace(self, current=seat, turn=Turn.first(self.rules, saved))

    def _roll(self, dice: Any) -> GameState:
        turn = self.turn
        if turn.rolls_left <= 0:
            if self.rules.saved_rolls:
                raise IllegalMove(_("No rolls left, saved ones included: choose a box to score."))
            raise IllegalMove(_("No rolls left: choose a box to score."))
        if not isinstance(dice, list | tuple) or len(dice) != self.rules.dice:
            raise wrong_dice(self.rules)
        if not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise wrong_dice(self.rules)
        if turn.dice and any(
            held and new != old for new, old, held in zip(dice, turn.dice, turn.held, strict=True)
        ):
            raise IllegalMove(_("Held dice cannot change when you roll."))
        return replace(self, turn=replace(turn, dice=tuple(dice), rolls=turn.rolls + 1))

    def _hold(self, die: Any, held: Any) -> GameState:
        turn = self.turn
        if not isinstance(die, int) or isinstance(die, bool) or not 0 <= die < self.rules.dice:
            raise no_such_die(self.rules)
        if not isinstance(held, bool):
            raise IllegalMove(_("Say whether to hold or release the die."))
        if not turn.dice:
            raise IllegalMove(_("Roll the dice first."))
        if turn.rolls_left <= 0:
            raise IllegalMove(_("No rolls left, so there is nothing to hold: choose a box."))
        if turn.held[die] == held:
            if held:
                raise IllegalMove(_("That die is already held."))
            raise IllegalMove(_("That die is not held."))
        holds = turn.held[:die] + (held,) + turn.held[die + 1 :]
        return replace(self, turn=replace(turn, held=holds))

    def _score(self, box: Any) -> GameState:
        box = check_box(box, self.rules)
        if not self.turn.dice:
            raise IllegalMove(_("Roll the dice first, then choose a box."))
        card = self.cards[self.current].fill(box, self.turn.dice)
        cards = self.cards[: self.current] + (card,) + self.cards[self.current + 1 :]
        state = replace(self, cards=cards)
        if self.rules.saved_rolls:  # the rolls this turn left unused, kept for the next
            saved = list(self.saved)
            saved[self.current] = self.turn.rolls_left
            state = replace(state, saved=tuple(saved))
        return state._turn_of(self._next_seat(self.current))


def no_such_die(rules: RuleSet) -> IllegalMove:
    """The refusal of a die the game does not have (a sixth in a game of five dice); a game
    has five dice or six (Maxi Yatzy)."""
    if rules.dice == 5:
        return IllegalMove(_("There is no such die: choose one of the five."))
    return IllegalMove(_("There is no such die: choose one of the six."))


def replay(
    actions: list[tuple[int, str, Mapping[str, Any]]], seats: int = 1, *, rules: RuleSet = YAHTZEE
) -> GameState:
    """The state reached by applying ``(seat, kind, payload)`` actions to a new game, in order."""
    state = GameState.new(seats, rules=rules)
    for seat, kind, payload in actions:
        state = state.apply(seat, kind, payload)
    return state
