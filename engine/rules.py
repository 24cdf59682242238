"""The rules of a game of Yahtzee: a player's card under a rule set. Pure Python, no Django, no I/O.

A ``Scorecard`` carries its ``RuleSet`` (``engine.rulesets``: the official rules by default) and
asks it how many dice, which boxes, the bonuses and the joker. Everything else in the project
(views, bots, the strategy engine, tests) scores dice through these two modules, so there is
exactly one definition of every box.

>>> card = Scorecard()
>>> card.options([3, 3, 3, 5, 5])["full_house"]
25
>>> card = card.fill("full_house", [3, 3, 3, 5, 5])
>>> card.total
25
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _

UPPER = YAHTZEE.upper
"""The official card's upper boxes (a game's own are ``rules.upper``)."""
LOWER = YAHTZEE.lower
"""The official card's lower boxes."""
CATEGORIES = YAHTZEE.keys
"""The official card's 13 boxes in scorecard order (a game's own are ``rules.keys``)."""
LABELS: Mapping[str, str] = YAHTZEE.labels
"""The printed name of each box (English; the site translates them)."""


class IllegalMove(ValueError):
    """A move the rules do not allow; ``str(exc)`` is a sentence a player can read.

    ``template`` and ``params`` keep the untranslated parts so that a front end can translate them.
    """

    def __init__(self, template: str, **params: str) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


def check_dice(dice: Iterable[int], rules: RuleSet = YAHTZEE) -> tuple[int, ...]:
    """Return the dice as a sorted tuple, or raise IllegalMove if they are not the rule set's
    number of faces 1-6.

    >>> check_dice([6, 1, 3, 1, 2])
    (1, 1, 2, 3, 6)
    """
    try:
        values = tuple(dice)
    except TypeError:
        raise wrong_dice(rules) from None
    if len(values) != rules.dice or not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values
    ):
        raise wrong_dice(rules)
    return tuple(sorted(values))


def wrong_dice(rules: RuleSet = YAHTZEE) -> IllegalMove:
    """The refusal of dice that are not the rule set's number of faces 1-6."""
    if rules.dice == 5:
        return IllegalMove(_("Dice must be five numbers from 1 to 6."))
    return IllegalMove(_("Dice must be %(count)s numbers from 1 to 6."), count=str(rules.dice))


def check_box(box: object, rules: RuleSet = YAHTZEE) -> str:
    """Return ``box`` if it names one of the rule set's boxes, else raise IllegalMove."""
    if not rules.has_box(box):
        raise IllegalMove(_("There is no box called “%(box)s”."), box=str(box)[:40])
    return box  # type: ignore[return-value]


def is_yahtzee(dice: Sequence[int]) -> bool:
    """True when all the dice show the same face."""
    return len(set(dice)) == 1


def box_score(box: str, dice: Sequence[int], rules: RuleSet = YAHTZEE) -> int:
    """Points these dice score in ``box`` by the plain rules (no joker).

    >>> box_score("small_straight", (1, 2, 3, 4, 6))
    30
    >>> box_score("full_house", (4, 4, 4, 4, 4))
    0
    """
    return rules.box(check_box(box, rules)).score(dice)


@dataclass(frozen=True, slots=True)
class Scorecard:
    """One player's card: an immutable value; ``fill`` returns a new card.

    ``rules`` is the card's rule set; ``scores`` holds its boxes in card order, None for an open
    box (all open when not given).
    """

    rules: RuleSet = YAHTZEE
    scores: tuple[int | None, ...] = ()
    yahtzee_bonus: int = 0

    def __post_init__(self) -> None:
        if not self.scores:
            object.__setattr__(self, "scores", (None,) * self.rules.turns)
        elif len(self.scores) != self.rules.turns:
            raise ValueError(f"a scorecard of these rules has {self.rules.turns} boxes")

    @classmethod
    def from_boxes(
        cls, boxes: Mapping[str, int], *, rules: RuleSet = YAHTZEE, yahtzee_bonus: int = 0
    ) -> Scorecard:
        """Build a card from ``{box: points}`` of its filled boxes (for storage and tests)."""
        for box in boxes:
            check_box(box, rules)
        scores = tuple(boxes.get(box) for box in rules.keys)
        return cls(rules, scores, yahtzee_bonus)

    @property
    def boxes(self) -> dict[str, int]:
        """``{box: points}`` of the filled boxes, in card order."""
        keys = self.rules.keys
        return {box: s for box, s in zip(keys, self.scores, strict=True) if s is not None}

    @property
    def open_boxes(self) -> tuple[str, ...]:
        """The boxes still open, in card order."""
        return tuple(box for box, s in zip(self.rules.keys, self.scores, strict=True) if s is None)

    @property
    def is_full(self) -> bool:
        """True when every box is filled: the game is over for this card."""
        return None not in self.scores

    @property
    def turns_played(self) -> int:
        """How many boxes are filled."""
        return sum(s is not None for s in self.scores)

    @property
    def upper_subtotal(self) -> int:
        """Sum of the filled upper boxes."""
        return sum(s or 0 for s in self.scores[: len(self.rules.upper)])

    @property
    def upper_bonus(self) -> int:
        """The upper bonus (35) once the upper boxes reach its threshold (63), else 0."""
        bonus = self.rules.upper_bonus
        return bonus.points if self.upper_subtotal >= bonus.threshold else 0

    @property
    def upper_done(self) -> bool:
        """True once all the upper boxes are filled (the bonus is then earned or missed)."""
        return None not in self.scores[: len(self.rules.upper)]

    @property
    def upper_needed(self) -> int:
        """Points still missing from the upper boxes for the bonus (0 once earned)."""
        return max(0, self.rules.upper_bonus.threshold - self.upper_subtotal)

    @property
    def lower_subtotal(self) -> int:
        """Sum of the filled lower boxes (Yahtzee bonuses not included)."""
        return sum(s or 0 for s in self.scores[len(self.rules.upper) :])

    @property
    def total(self) -> int:
        """Upper boxes + upper bonus + lower boxes + Yahtzee bonuses."""
        return self.upper_subtotal + self.upper_bonus + self.lower_subtotal + self.yahtzee_bonus

    @property
    def yahtzees(self) -> int:
        """Yahtzees scored as such: 50 in the Yahtzee box, and one per Yahtzee bonus earned."""
        rules = self.rules
        if rules.yahtzee_box is None:
            return 0
        made = self.score_of(rules.yahtzee_box) == rules.box(rules.yahtzee_box).points
        return made + (self.yahtzee_bonus // rules.yahtzee_bonus if rules.yahtzee_bonus else 0)

    def score_of(self, box: str) -> int | None:
        """Points in ``box``, or None while it is open."""
        return self.scores[self.rules.index(check_box(box, self.rules))]

    def joker_applies(self, dice: Sequence[int]) -> bool:
        """True when these dice are a Yahtzee that must be played by the forced joker rule."""
        rules = self.rules
        return (
            rules.joker
            and is_yahtzee(dice)
            and self.scores[rules.index(rules.yahtzee_box)] is not None  # type: ignore[arg-type]
        )

    def bonus_for(self, dice: Iterable[int]) -> int:
        """The Yahtzee bonus these dice earn when scored now: 100 or 0."""
        rules = self.rules
        dice = check_dice(dice, rules)
        if not self.joker_applies(dice):
            return 0
        yahtzee = rules.box(rules.yahtzee_box)  # type: ignore[arg-type]
        return rules.yahtzee_bonus if self.score_of(yahtzee.key) == yahtzee.points else 0

    @property
    def next_box(self) -> str | None:
        """The first open box in card order (the only one a rule set that fills in order allows)."""
        return next((box for box in self.open_boxes), None)

    def options(self, dice: Iterable[int]) -> dict[str, int]:
        """``{box: points}`` for every box these dice may go in now; {} when the card is full.

        The joker rule is applied; the 100-point Yahtzee bonus is not included (see ``bonus_for``).
        A rule set that fills in order offers only the next box, scored by the plain rules.

        >>> card = Scorecard.from_boxes({"yahtzee": 50})
        >>> card.options([4, 4, 4, 4, 4])
        {'fours': 20}
        """
        rules = self.rules
        dice = check_dice(dice, rules)
        open_boxes = self.open_boxes
        if rules.in_order:
            return {box: rules.box(box).score(dice) for box in open_boxes[:1]}
        if not self.joker_applies(dice):
            return {box: rules.box(box).score(dice) for box in open_boxes}
        face_box = rules.face_box(dice[0])
        if face_box in open_boxes:
            return {face_box: rules.box(face_box).score(dice)}
        open_lower = [box for box in open_boxes if box in rules.lower]
        if open_lower:
            return {box: rules.box(box).joker_score(dice) for box in open_lower}
        return {box: 0 for box in open_boxes}

    def fill(self, box: str, dice: Iterable[int]) -> Scorecard:
        """Score ``dice`` in ``box`` and return the new card; raise IllegalMove if not allowed."""
        rules = self.rules
        box = check_box(box, rules)
        dice = check_dice(dice, rules)
        if self.score_of(box) is not None:
            raise IllegalMove(_("%(box)s is already filled."), box=rules.labels[box])
        if rules.in_order and box != self.next_box:
            raise IllegalMove(
                _("Boxes are filled in order: the next one is %(box)s."),
                box=rules.labels[self.next_box],  # type: ignore[index]
            )
        options = self.options(dice)
        if box not in options:
            raise self._joker_violation(dice)
        index = rules.index(box)
        scores = self.scores[:index] + (options[box],) + self.scores[index + 1 :]
        return Scorecard(rules, scores, self.yahtzee_bonus + self.bonus_for(dice))

    def _joker_violation(self, dice: tuple[int, ...]) -> IllegalMove:
        face_box = self.rules.face_box(dice[0])
        if face_box in self.open_boxes:
            return IllegalMove(
                _("Joker rule: this Yahtzee must go in %(box)s while that box is open."),
                box=self.rules.labels[face_box],  # type: ignore[index]
            )
        return IllegalMove(_("Joker rule: this Yahtzee must go in an open lower box."))
