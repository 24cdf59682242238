"""Computer players of four strengths, as pure functions of the position.

``choose_move(bot_id, advisor, card, dice, rolls_left, rng)`` returns ``("keep", kept)`` with
``kept`` a sorted sub-multiset of ``dice`` (the caller rerolls the other dice; which positions to
hold is the caller's choice), or ``("score", box)`` with ``box`` one of ``card.options(dice)``.
While ``rolls_left`` is 0 only scoring is possible. ``rng`` is anything with a ``random()`` method
returning a float in [0, 1) (``random.Random``, ``numpy.random.Generator``), seeded by the caller
so that games replay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.rules import Scorecard, check_dice
from engine.rulesets import Section, chance
from engine.strategy.advisor import Advisor, Move
from engine.strategy.winning import WinModel
from engine.words import _


class RandomSource(Protocol):
    """What the bots need from a random number generator."""

    def random(self) -> float:
        """A float in [0, 1)."""
        ...


@dataclass(frozen=True)
class Bot:
    """A computer player's identity as shown on the site: the one catalogue of the strengths.

    The forms, the game page, the score sheet and the advisor's loading (``uses_advisor``) all
    read it; ``name``, ``description`` and ``seat_name`` are English messages the site translates.
    ``name`` is the strength as a form offers it; ``seat_name`` is how a seat the computer plays
    is named wherever a player's name goes (the card, "Winner: ...", My games), so that it reads
    as the computer and never as a person ("Winner: Beginner" did).
    """

    id: str
    name: str
    description: str
    uses_advisor: bool
    seat_name: str


OPTIMAL = Bot(
    "optimal",
    _("Perfect computer"),
    _("Plays every move exactly optimally: the most points on average (254.6 in Yahtzee)."),
    True,
    _("Computer (perfect)"),
)
"""Always the best move."""
TO_WIN = Bot(
    "to-win",
    _("Computer playing to win"),
    _(
        "Against one opponent, plays every move for the best chance to win, not the most "
        "points: it takes the risk that wins and the safe points that keep a lead."
    ),
    True,
    _("Computer (playing to win)"),
)
"""Against one opponent, the move with the best chance to win (``WinModel.best_move``); alone,
or without the win model, the perfect computer's move."""
CLUB = Bot(
    "club",
    _("Club player"),
    _("A good club player: mostly the best move, now and then a plausible slip."),
    True,
    _("Computer (club player)"),
)
"""Mostly the best move, now and then a slightly worse one."""
BEGINNER = Bot(
    "beginner",
    _("Beginner"),
    _("Greedy: always takes the most points it can score right now."),
    False,
    _("Computer (beginner)"),
)
"""Greedy: no look-ahead, no table needed."""
BOTS: dict[str, Bot] = {bot.id: bot for bot in (OPTIMAL, TO_WIN, CLUB, BEGINNER)}
"""The computer players by id, strongest first (playing to win is the strongest against one
opponent, the perfect computer by points)."""

CLUB_MISTAKE_RATE = 0.3
"""How often the club player considers a lesser move."""

CLUB_MAX_LOSS = 2.5
"""The most expected points a club player's lesser move may give away."""

_MADE_HANDS = ("yahtzee", "large_straight", "full_house")  # a beginner stops rolling on these


def choose_move(
    bot_id: str,
    advisor: Advisor | None,
    card: Scorecard,
    dice: Iterable[int],
    rolls_left: int,
    rng: RandomSource,
    *,
    cards: Sequence[Scorecard] = (),
    seat: int = 0,
    model: WinModel | None = None,
) -> Move:
    """The move bot ``bot_id`` makes in this position (see the module docstring).

    The one that plays to win also needs the game's ``cards`` (``card`` is ``cards[seat]``) and a
    ``WinModel`` of their rules; with other than two cards, or no model, it plays as "optimal".
    """
    dice = check_dice(dice, card.rules)
    if rolls_left not in (0, 1, 2):
        raise ValueError("rolls_left must be 0, 1 or 2")
    if card.is_full:
        raise ValueError("the card is full: there is no move to make")
    if bot_id == "beginner":
        return beginner_move(card, dice, rolls_left)
    if advisor is None:
        raise ValueError(f"the {bot_id!r} bot needs an advisor")
    options = advisor.options(card, dice, rolls_left)
    if bot_id == "to-win" and model is not None and len(cards) == 2:
        return model.best_move(cards, seat, dice, rolls_left)
    if bot_id in ("optimal", "to-win"):
        return options[0][0]
    if bot_id == "club":
        return _club_pick(options, rng)
    raise ValueError(f"no bot called {bot_id!r}")


def _club_pick(options: list[tuple[Move, float]], rng: RandomSource) -> Move:
    """Mostly the best move; sometimes the 2nd or 3rd best when it gives away little."""
    best_value = options[0][1]
    if rng.random() < CLUB_MISTAKE_RATE:
        near = [move for move, value in options[1:3] if best_value - value <= CLUB_MAX_LOSS]
        if near:
            return near[min(int(rng.random() * len(near)), len(near) - 1)]
    return options[0][0]


def beginner_move(card: Scorecard, dice: tuple[int, ...], rolls_left: int) -> Move:
    """A greedy player: keep the most common face, take made hands, score the most points now."""
    options = card.options(dice)
    # Highest points now; among equal points the first box on the card.
    best_box = max(options, key=lambda box: (options[box], -card.rules.index(box)))
    if rolls_left == 0:
        return ("score", best_box)
    if best_box in _MADE_HANDS and options[best_box] > 0:
        return ("score", best_box)
    if card.rules.in_order:  # only the next box may be filled: play for it
        target = card.rules.box(best_box)
        if target.section is Section.UPPER:
            return ("keep", (target.size,) * dice.count(target.size))
        if target.scorer is chance:
            return ("keep", tuple(sorted(die for die in dice if die >= 4)))
    faces = set(dice)
    for run in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)):
        if faces.issuperset(run):
            if "large_straight" in options:
                return ("keep", run)  # one die short of a large straight: go for it
            if options.get("small_straight", 0) > 0:
                return ("score", "small_straight")
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], f))  # most common, higher face on a tie
    return ("keep", (face,) * counts[face])
