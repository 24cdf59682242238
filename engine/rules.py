"""The rules of Yahtzee: pure Python, no Django, no I/O.

Official rules: 13 boxes, the 35-point upper bonus at 63, the 100-point Yahtzee bonus and the forced
joker rule. Everything else in the project (views, bots, the strategy engine, tests) scores dice
through this module, so there is exactly one definition of every box.

>>> card = Scorecard()
>>> card.options([3, 3, 3, 5, 5])["full_house"]
25
>>> card = card.fill("full_house", [3, 3, 3, 5, 5])
>>> card.total
25
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType


def _(message: str) -> str:
    """Mark a string for translation without translating it (the rules core knows no language)."""
    return message


UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
CATEGORIES = UPPER + LOWER
"""The 13 boxes in scorecard order."""

LABELS: Mapping[str, str] = MappingProxyType(
    {
        "ones": _("Ones"),
        "twos": _("Twos"),
        "threes": _("Threes"),
        "fours": _("Fours"),
        "fives": _("Fives"),
        "sixes": _("Sixes"),
        "three_of_a_kind": _("Three of a kind"),
        "four_of_a_kind": _("Four of a kind"),
        "full_house": _("Full house"),
        "small_straight": _("Small straight"),
        "large_straight": _("Large straight"),
        "yahtzee": _("Yahtzee"),
        "chance": _("Chance"),
    }
)
"""The printed name of each box (English; the site translates them)."""

NUM_DICE = 5
TURNS = len(CATEGORIES)
UPPER_BONUS_THRESHOLD = 63
UPPER_BONUS = 35
YAHTZEE_BONUS = 100
FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
YAHTZEE_POINTS = 50
_FIXED_POINTS = {
    "full_house": FULL_HOUSE_POINTS,
    "small_straight": SMALL_STRAIGHT_POINTS,
    "large_straight": LARGE_STRAIGHT_POINTS,
    "yahtzee": YAHTZEE_POINTS,
}


class IllegalMove(ValueError):
    """A move the rules do not allow; ``str(exc)`` is a sentence a player can read.

    ``template`` and ``params`` keep the untranslated parts so that a front end can translate them.
    """

    def __init__(self, template: str, **params: str) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


def check_dice(dice: Iterable[int]) -> tuple[int, ...]:
    """Return five dice as a sorted tuple, or raise IllegalMove if they are not five faces 1-6.

    >>> check_dice([6, 1, 3, 1, 2])
    (1, 1, 2, 3, 6)
    """
    try:
        values = tuple(dice)
    except TypeError:
        raise IllegalMove(_("Dice must be five numbers from 1 to 6.")) from None
    if len(values) != NUM_DICE or not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values
    ):
        raise IllegalMove(_("Dice must be five numbers from 1 to 6."))
    return tuple(sorted(values))


def check_box(box: object) -> str:
    """Return ``box`` if it names one of the 13 boxes, else raise IllegalMove."""
    if box not in LABELS:
        raise IllegalMove(_("There is no box called “%(box)s”."), box=str(box)[:40])
    return box  # type: ignore[return-value]


def is_yahtzee(dice: Sequence[int]) -> bool:
    """True when all five dice show the same face."""
    return len(set(dice)) == 1


def _longest_run(faces: set[int]) -> int:
    best = run = 0
    for face in range(1, 7):
        run = run + 1 if face in faces else 0
        best = max(best, run)
    return best


def box_score(box: str, dice: Sequence[int]) -> int:
    """Points these dice score in ``box`` by the plain rules (no joker).

    >>> box_score("small_straight", (1, 2, 3, 4, 6))
    30
    >>> box_score("full_house", (4, 4, 4, 4, 4))
    0
    """
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * sum(1 for d in dice if d == face)
    counts = Counter(dice)
    most = max(counts.values())
    if box == "three_of_a_kind":
        return sum(dice) if most >= 3 else 0
    if box == "four_of_a_kind":
        return sum(dice) if most >= 4 else 0
    if box == "full_house":
        return FULL_HOUSE_POINTS if sorted(counts.values()) == [2, 3] else 0
    if box == "small_straight":
        return SMALL_STRAIGHT_POINTS if _longest_run(set(dice)) >= 4 else 0
    if box == "large_straight":
        return LARGE_STRAIGHT_POINTS if _longest_run(set(dice)) == 5 else 0
    if box == "yahtzee":
        return YAHTZEE_POINTS if most == 5 else 0
    if box == "chance":
        return sum(dice)
    raise IllegalMove(_("There is no box called “%(box)s”."), box=str(box)[:40])


def joker_score(box: str, dice: Sequence[int]) -> int:
    """Points a Yahtzee scores in an open lower ``box`` as a joker: fixed boxes score in full."""
    return _FIXED_POINTS.get(box) or box_score(box, dice)


@dataclass(frozen=True, slots=True)
class Scorecard:
    """One player's card: an immutable value; ``fill`` returns a new card.

    ``scores`` holds the 13 boxes in CATEGORIES order, None for an open box.
    """

    multiple_yahtzees: bool = True
    scores: tuple[int | None, ...] = (None,) * len(CATEGORIES)
    yahtzee_bonus: int = 0

    def __post_init__(self) -> None:
        if len(self.scores) != len(CATEGORIES):
            raise ValueError("a scorecard has 13 boxes")

    @classmethod
    def from_boxes(
        cls, boxes: Mapping[str, int], *, multiple_yahtzees: bool = True, yahtzee_bonus: int = 0
    ) -> Scorecard:
        """Build a card from ``{box: points}`` of its filled boxes (for storage and tests)."""
        for box in boxes:
            check_box(box)
        scores = tuple(boxes.get(box) for box in CATEGORIES)
        return cls(multiple_yahtzees, scores, yahtzee_bonus)

    @property
    def boxes(self) -> dict[str, int]:
        """``{box: points}`` of the filled boxes, in card order."""
        return {box: s for box, s in zip(CATEGORIES, self.scores, strict=True) if s is not None}

    @property
    def open_boxes(self) -> tuple[str, ...]:
        """The boxes still open, in card order."""
        return tuple(box for box, s in zip(CATEGORIES, self.scores, strict=True) if s is None)

    @property
    def is_full(self) -> bool:
        """True when all 13 boxes are filled: the game is over for this card."""
        return None not in self.scores

    @property
    def turns_played(self) -> int:
        """How many boxes are filled."""
        return sum(s is not None for s in self.scores)

    @property
    def upper_subtotal(self) -> int:
        """Sum of the filled upper boxes."""
        return sum(s or 0 for s in self.scores[: len(UPPER)])

    @property
    def upper_bonus(self) -> int:
        """35 once the upper boxes total 63 or more, else 0."""
        return UPPER_BONUS if self.upper_subtotal >= UPPER_BONUS_THRESHOLD else 0

    @property
    def upper_done(self) -> bool:
        """True once all six upper boxes are filled (the bonus is then earned or missed)."""
        return None not in self.scores[: len(UPPER)]

    @property
    def upper_needed(self) -> int:
        """Points still missing from the upper boxes for the bonus (0 once earned)."""
        return max(0, UPPER_BONUS_THRESHOLD - self.upper_subtotal)

    @property
    def lower_subtotal(self) -> int:
        """Sum of the filled lower boxes (Yahtzee bonuses not included)."""
        return sum(s or 0 for s in self.scores[len(UPPER) :])

    @property
    def total(self) -> int:
        """Upper boxes + upper bonus + lower boxes + Yahtzee bonuses."""
        return self.upper_subtotal + self.upper_bonus + self.lower_subtotal + self.yahtzee_bonus

    def score_of(self, box: str) -> int | None:
        """Points in ``box``, or None while it is open."""
        return self.scores[CATEGORIES.index(check_box(box))]

    def joker_applies(self, dice: Sequence[int]) -> bool:
        """True when these dice are a Yahtzee that must be played by the forced joker rule."""
        return (
            self.multiple_yahtzees
            and is_yahtzee(dice)
            and self.scores[CATEGORIES.index("yahtzee")] is not None
        )

    def bonus_for(self, dice: Iterable[int]) -> int:
        """The Yahtzee bonus these dice earn when scored now: 100 or 0."""
        dice = check_dice(dice)
        earns = self.joker_applies(dice) and self.score_of("yahtzee") == YAHTZEE_POINTS
        return YAHTZEE_BONUS if earns else 0

    def options(self, dice: Iterable[int]) -> dict[str, int]:
        """``{box: points}`` for every box these dice may go in now; {} when the card is full.

        The joker rule is applied; the 100-point Yahtzee bonus is not included (see ``bonus_for``).

        >>> card = Scorecard.from_boxes({"yahtzee": 50})
        >>> card.options([4, 4, 4, 4, 4])
        {'fours': 20}
        """
        dice = check_dice(dice)
        open_boxes = self.open_boxes
        if not self.joker_applies(dice):
            return {box: box_score(box, dice) for box in open_boxes}
        face_box = UPPER[dice[0] - 1]
        if face_box in open_boxes:
            return {face_box: box_score(face_box, dice)}
        open_lower = [box for box in open_boxes if box in LOWER]
        if open_lower:
            return {box: joker_score(box, dice) for box in open_lower}
        return {box: 0 for box in open_boxes}

    def fill(self, box: str, dice: Iterable[int]) -> Scorecard:
        """Score ``dice`` in ``box`` and return the new card; raise IllegalMove if not allowed."""
        box = check_box(box)
        dice = check_dice(dice)
        if self.score_of(box) is not None:
            raise IllegalMove(_("%(box)s is already filled."), box=LABELS[box])
        options = self.options(dice)
        if box not in options:
            raise self._joker_violation(dice)
        index = CATEGORIES.index(box)
        scores = self.scores[:index] + (options[box],) + self.scores[index + 1 :]
        return Scorecard(self.multiple_yahtzees, scores, self.yahtzee_bonus + self.bonus_for(dice))

    def _joker_violation(self, dice: tuple[int, ...]) -> IllegalMove:
        face_box = UPPER[dice[0] - 1]
        if face_box in self.open_boxes:
            return IllegalMove(
                _("Joker rule: this Yahtzee must go in %(box)s while that box is open."),
                box=LABELS[face_box],
            )
        return IllegalMove(_("Joker rule: this Yahtzee must go in an open lower box."))
