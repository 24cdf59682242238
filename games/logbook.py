"""Moving a locked game on: the log entries a move appends, and the turns the server plays.

``Log`` applies moves through ``GameState.apply`` and writes the snapshot and the new log
entries in the caller's transaction; ``play_turn`` plays the rest of a turn as the computer
would (the computer's own turns, and a turn whose time ran out, ``games.timeouts``).
"""

from __future__ import annotations

import functools
import random
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from core.refusals import COMPUTER_NOT_READY, ComputerNotReady, StaleAction
from engine import dice
from engine.flow import ROLLS_PER_TURN, no_such_die
from engine.rules import IllegalMove
from engine.strategy import bots
from engine.words import _
from games import advice, clock, events, winchance
from games.models import Action, Game, Seat
from games.rawsql import insert_rows, update_columns


def roll_dice(count: int) -> list[int]:
    """``count`` dice rolled with the operating system's cryptographic RNG (games with no seed)."""
    return [secrets.randbelow(6) + 1 for _ in range(count)]


# Rolls n dice: tests and benchmarks pass scripted ones to ``perform``; games roll from their seed.
Roll = Callable[[int], list[int]]


class Log:
    """Moves a locked game on through ``GameState.apply`` and keeps the actions to append."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seats = game.ordered_seats()
        self.state = game.state()
        self.actions: list[Action] = []
        self.turn_of = self._turn()
        self.timing_out: int | None = None  # the seat whose turn the server plays (timed out)
        self.counted: list[Seat] = []  # seats whose count of timeouts in a row changed

    def record(self, seat: int, kind: str, payload: dict[str, Any]) -> None:
        """Apply one move (IllegalMove if it is not allowed) and queue its log entry."""
        state = self.state.apply(seat, kind, payload)
        if kind == "score":
            payload = payload | {"points": state.cards[seat].score_of(payload["box"])}
            if seat == self.timing_out:  # the server's score for a seat whose time ran out
                payload["timed_out"] = True
            if clock.count_timeout(self.seats[seat], timed_out=seat == self.timing_out):
                self.counted.append(self.seats[seat])
        if kind != "hold":
            self.game.step += 1
        self.game.log_length += 1
        self.actions.append(
            Action(game=self.game, seq=self.game.log_length, seat=seat, kind=kind, payload=payload)
        )
        self.state = state

    def payload(self, kind: str, params: Mapping[str, Any], roll: Roll | None) -> dict[str, Any]:
        """The log payload of the current seat's move; the server rolls the dice here."""
        turn = self.state.turn
        if kind != "roll":
            return _payload(kind, params)
        seen = params.get("held")
        if seen is not None and len(seen) != len(turn.held):  # a die the game has not
            raise no_such_die(self.state.rules)
        if seen is not None and tuple(seen) != turn.held:
            raise StaleAction(_("The held dice changed in another window: here they are now."))
        count = self.state.rules.dice
        slots = [i for i in range(count) if not turn.dice or not turn.held[i]]
        if roll is not None:
            fresh = roll(len(slots))
        elif self.game.seed:
            seat = self.state.current
            number = self.state.cards[seat].turns_played + 1
            dice_key = dice.key(self.game.seed, self.game.player_seed)
            fresh = dice.faces(dice_key, seat, number, turn.rolls + 1, slots)
        else:  # a game from before seeds
            fresh = roll_dice(len(slots))
        rolled = list(turn.dice) if turn.dice else [0] * count
        for slot, face in zip(slots, fresh, strict=True):
            rolled[slot] = face
        return {"dice": rolled}

    def _turn(self) -> tuple[int, int]:
        """Which turn is in play: its seat and how many turns that seat has played."""
        return self.state.current, self.state.cards[self.state.current].turns_played

    def save(self) -> None:
        """Write the snapshot and append the log entries (inside the caller's transaction)."""
        cards = [(seat.scores, seat.yahtzee_bonus, seat.saved_rolls) for seat in self.seats]
        finishing = self.state.finished and self.game.status != Game.Status.FINISHED
        if self.state.finished or self._turn() != self.turn_of:
            seat = self.seats[self.state.current]
            clock.start_turn(self.game, finished=self.state.finished, seat=seat)
        self.game.store(self.state)
        update_columns(self.game, SNAPSHOT_FIELDS)
        for seat, card in zip(self.seats, cards, strict=True):
            if (seat.scores, seat.yahtzee_bonus, seat.saved_rolls) != card:  # only a score does
                update_columns(seat, ("scores", "yahtzee_bonus", "saved_rolls"))
        for seat in self.counted:
            update_columns(seat, ("timeouts",))
        insert_rows(self.actions)
        self.game.just_logged = self.actions
        if finishing:  # once: a finished game's row, locked, refuses every later action
            events.game_finishing.send(sender=Game, game=self.game, state=self.state)


# What a move may change in a game's row (``Game.store``), and when it did.
SNAPSHOT_FIELDS = (
    "current_seat", "dice", "held", "rolls", "forfeited", "ended", "status", "step", "log_length",
    "updated_at", "turn_started_at", "turn_deadline",
)  # fmt: skip


def play_computer_turns(log: Log, roll: Roll | None) -> None:
    """While the turn is the computer's, play it move by move, logged like a person's moves."""
    rng = random.Random(secrets.randbits(64))
    while not log.state.finished and log.seats[log.state.current].bot:
        seat = log.seats[log.state.current]
        play_turn(log, seat.position, seat.bot, roll, rng)


def play_turn(log: Log, position: int, strength: str, roll: Roll | None, rng) -> None:
    """Play the rest of the seat's turn as the computer of this strength, from where it is."""
    advisor = advice.advisor(log.game.rules)
    if advisor is None and strength in advice.NEEDS_TABLE:
        raise ComputerNotReady(COMPUTER_NOT_READY)  # the whole move waits, nothing is written
    model = None  # the win model, for the computer that plays to win against one opponent
    if strength in advice.NEEDS_WIN_MODEL and len(log.seats) == 2 and not log.state.forfeited:
        model = winchance.model(log.game.rules, wait=True)  # once a process: about 3 s
        if model is None:
            raise ComputerNotReady(COMPUTER_NOT_READY)
    if not log.state.turn.dice:
        log.record(position, "roll", log.payload("roll", {}, roll))
    while True:
        turn, cards = log.state.turn, log.state.cards
        # With saved rolls a turn may have more than two left: the computer plays as if two
        # (so it rolls on while the dice call for it, and saves what it does not need).
        left = min(turn.rolls_left, ROLLS_PER_TURN - 1)
        choice_of = functools.partial(
            bots.choose_move, strength, advisor, cards[position], turn.dice,
            rng=rng, cards=cards, seat=position, model=model,
        )  # fmt: skip
        move, choice = choice_of(rolls_left=left)
        if move == "keep" and len(choice) == len(turn.dice):
            # Keeping all five is the same as scoring now: pick the box without a wasted roll.
            move, choice = choice_of(rolls_left=0)
        if move == "score":
            log.record(position, "score", {"box": choice})
            return
        wanted = turn.holds_for(choice)
        for die, held in enumerate(wanted):
            if held != turn.held[die]:
                log.record(position, "hold", {"die": die, "held": held})
        log.record(position, "roll", log.payload("roll", {}, roll))


def _payload(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The log payload of a hold or a score, from the page's request."""
    if kind == "hold":
        return {"die": params.get("die"), "held": params.get("held")}
    if kind == "score":
        return {"box": params.get("box")}
    raise IllegalMove(_("Unknown action."))
