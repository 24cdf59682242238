"""Provably fair dice: every die a game rolls comes from a secret seed it committed to first.

A new game draws a secret ``seed`` and shows its SHA-256 (the *commitment*) before the first
roll. Every seat may add text of its own before that roll, mixed into the key, so that the server
could not have chosen its seed to suit the game. Each die is then

    HMAC-SHA256(key, "seat:turn:roll:slot"), its first byte below 252, taken modulo 6, plus 1

``key`` being SHA-256 of the seed, a line break and the players' text (``player_seed``): each
seat's own text, one a line in seat order (``players_text``), so a game with one text has the key
it had when only one could be added. 252 is the largest multiple of 6 that a
byte reaches, so every face is equally likely (no modulo bias); a byte of 252 or more is skipped
(the next byte is tried, then a new digest with a counter). ``turn`` is the seat's turn, 1-13,
``roll`` the roll of that turn, 1-3 (more with saved rolls), and ``slot`` the die's place,
0-4 (0-5 with six dice): a die a player rerolls gets
the face of its slot, whatever else they held. So the daily challenge, which gives everyone the
same seed, gives the same dice to two players who hold the same dice, and different dice only where
they held differently.

The seed stays on the server until the game is over (``Game.seed_revealed``); then anyone who may
see the game can recompute every roll of its log from it (``check``). Games from before this had no
seed: they keep the dice they stored, and have nothing to verify.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.rulesets import FACES, YAHTZEE, RuleSet

_LIMIT = 256 - 256 % FACES  # 252: bytes from here on would make faces 1-4 likelier
PLAYER_SEED_LENGTH = 64
"""Characters of a player's own seed text."""


def new_seed() -> str:
    """A fresh secret seed: 32 random bytes from the operating system, as 64 hex digits."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The SHA-256 of a seed, shown before the first roll (it says nothing of the seed itself)."""
    return hashlib.sha256(seed.encode()).hexdigest()


def players_text(texts: Iterable[str]) -> str:
    """The text a game's key mixes in: the seats' own texts (none may hold a line break), in
    seat order, one a line; those who added none are left out.

    >>> players_text(["", "lucky", "", "seven"]).split()
    ['lucky', 'seven']
    """
    return "\n".join(text for text in texts if text)


def key(seed: str, player_seed: str = "") -> bytes:
    """The dice key of a game: its seed mixed with the players' text (``players_text``)."""
    return hashlib.sha256(f"{seed}\n{player_seed}".encode()).digest()


def face(dice_key: bytes, seat: int, turn: int, roll: int, slot: int) -> int:
    """The face, 1-6, of die ``slot`` on ``roll`` of ``seat``'s ``turn``."""
    message = f"{seat}:{turn}:{roll}:{slot}"
    for counter in itertools.count():
        extra = f":{counter}" if counter else ""
        digest = hmac.new(dice_key, (message + extra).encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < _LIMIT:
                return byte % FACES + 1
    raise AssertionError("unreachable")  # pragma: no cover


def faces(dice_key: bytes, seat: int, turn: int, roll: int, slots: Iterable[int]) -> list[int]:
    """The faces of these slots on that roll."""
    return [face(dice_key, seat, turn, roll, slot) for slot in slots]


@dataclass(frozen=True)
class Mismatch:
    """A logged roll that the seed does not give: where it is, what it says, what it should."""

    seq: int  # the action's place in the log, from 1
    seat: int
    turn: int
    roll: int
    logged: tuple[int, ...]
    expected: tuple[int, ...]


@dataclass(frozen=True)
class Check:
    """What recomputing a game's rolls from its seed found."""

    rolls: int  # rolls checked
    mismatches: tuple[Mismatch, ...]
    # (seq, seat, turn, roll, dice, held) of every roll, in order, for the verify page to list.
    checked: tuple[tuple[int, int, int, int, tuple[int, ...], tuple[bool, ...]], ...] = ()

    @property
    def honest(self) -> bool:
        """True when every logged roll is the one the seed gives."""
        return not self.mismatches


def check(
    actions: Iterable[tuple[int, int, str, Mapping[str, Any]]],
    seats: int,
    dice_key: bytes,
    *,
    rules: RuleSet = YAHTZEE,
) -> Check:
    """Recompute every roll of a log ``(seq, seat, kind, payload)`` from the key.

    The log is replayed through ``engine.flow`` (the one apply), so each roll's turn, roll number
    and held dice are those the game had; a held die must keep its face, every other die must have
    the face the key gives its slot.
    """
    from engine.flow import GameState

    state = GameState.new(seats, rules=rules)
    mismatches, checked = [], []
    for seq, seat, kind, payload in actions:
        if kind == "roll":
            turn = state.cards[seat].turns_played + 1
            number = state.turn.rolls + 1
            held = state.turn.held if state.turn.dice else (False,) * rules.dice
            logged = tuple(payload.get("dice", ()))
            fresh = [slot for slot in range(rules.dice) if not held[slot]]
            expected = list(state.turn.dice) if state.turn.dice else [0] * rules.dice
            for slot, value in zip(fresh, faces(dice_key, seat, turn, number, fresh), strict=True):
                expected[slot] = value
            checked.append((seq, seat, turn, number, logged, held))
            if logged != tuple(expected):
                mismatches.append(Mismatch(seq, seat, turn, number, logged, tuple(expected)))
                payload = {"dice": expected}  # go on from the honest dice
        state = state.apply(seat, kind, payload)
    return Check(len(checked), tuple(mismatches), tuple(checked))
