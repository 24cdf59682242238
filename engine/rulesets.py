"""Rule sets as values: the dice, the boxes and how each scores, the bonuses, the joker.

A ``RuleSet`` is an immutable value that the rest of the code asks (how many dice, which boxes,
what the upper bonus is, what an extra Yahtzee does, whether boxes fill in order) instead of
testing a flag, as python-chess's variants are. Each kind of box has one scoring function here,
so there is exactly one place that knows what a full house is.

>>> YAHTZEE.box("full_house").score((3, 3, 3, 5, 5))
25
>>> YAHTZEE.upper_bonus, YAHTZEE_NO_BONUS.extra_yahtzee
(UpperBonus(threshold=63, points=35), <ExtraYahtzee.NOTHING: 'nothing'>)
>>> rule_set("no-multiple") is YAHTZEE_NO_BONUS
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from types import MappingProxyType

from engine.words import _

FACES = 6
"""Faces of a die, 1-6: the same in every rule set."""


class Section(Enum):
    """The half of the card a box sits in: the upper boxes count towards the upper bonus."""

    UPPER = "upper"
    LOWER = "lower"


class ExtraYahtzee(Enum):
    """What a Yahtzee rolled once the Yahtzee box is filled does."""

    BONUS_AND_JOKER = "bonus-and-joker"
    """The official rules: a bonus (when the box holds its points) and the forced joker."""
    NOTHING = "nothing"
    """It scores as any other roll: no bonus, no joker."""


# ----- how each kind of box scores: one function per kind -------------------------------------


def count_face(box: Box, dice: Sequence[int]) -> int:
    """An upper box: the sum of the dice showing its face (``box.size``)."""
    return box.size * sum(1 for d in dice if d == box.size)


def alike_sum(box: Box, dice: Sequence[int]) -> int:
    """Three or four of a kind: the sum of all dice when ``box.size`` of them show one face."""
    return sum(dice) if max(Counter(dice).values()) >= box.size else 0


def full_house(box: Box, dice: Sequence[int]) -> int:
    """Three of one face and two of another: ``box.points``."""
    return box.points if sorted(Counter(dice).values()) == [2, 3] else 0


def _longest_run(faces: set[int]) -> int:
    best = run = 0
    for face in range(1, FACES + 1):
        run = run + 1 if face in faces else 0
        best = max(best, run)
    return best


def straight(box: Box, dice: Sequence[int]) -> int:
    """``box.size`` faces in a row: ``box.points``."""
    return box.points if _longest_run(set(dice)) >= box.size else 0


def all_alike(box: Box, dice: Sequence[int]) -> int:
    """Every die alike (a Yahtzee): ``box.points``."""
    return box.points if len(set(dice)) == 1 else 0


def chance(box: Box, dice: Sequence[int]) -> int:
    """Anything: the sum of the dice."""
    return sum(dice)


def groups(box: Box, dice: Sequence[int]) -> int:
    """Groups of alike dice, each of another face (``box.shape``: (2,) one pair, (2, 2) two
    pairs, (3,) three of a kind, (3, 2) Yatzy's full house, (4, 2) a tower ...): the sum of the
    dice in those groups, the best such choice, or 0 when the dice hold no such groups.

    Scandinavian Yatzy's way of scoring: only the dice that make the hand count.
    """
    counts = Counter(dice)
    return _best_groups(box.shape, tuple(sorted(counts, reverse=True)), counts)


def _best_groups(shape: tuple[int, ...], faces: tuple[int, ...], counts: Counter) -> int:
    if not shape:
        return 0
    need, rest = shape[0], shape[1:]
    best = 0
    for face in faces:
        if counts[face] >= need:
            others = tuple(f for f in faces if f != face)
            tail = _best_groups(rest, others, counts) if rest else 0
            if tail or not rest:
                best = max(best, need * face + tail)
    return best


def run(box: Box, dice: Sequence[int]) -> int:
    """Scandinavian straights: every face of ``box.shape`` shows (1-5, 2-6, 1-6): ``box.points``."""
    return box.points if set(box.shape) <= set(dice) else 0


@dataclass(frozen=True)
class Box:
    """One box of a card: its key, printed name (English, translated by the site), section and
    scoring function (``count_face`` ... ``chance``), with that function's two numbers."""

    key: str
    name: str
    section: Section
    scorer: Callable[[Box, Sequence[int]], int] = field(repr=False)
    size: int = 0  # the face an upper box counts, or how many dice alike or in a row
    points: int = 0  # what a made hand (full house, straight, Yahtzee) scores
    shape: tuple[int, ...] = ()  # ``groups``: dice in each group; ``run``: the faces needed

    def score(self, dice: Sequence[int]) -> int:
        """Points these dice score here by the plain rules (no joker)."""
        return self.scorer(self, dice)

    def joker_score(self, dice: Sequence[int]) -> int:
        """Points a Yahtzee scores here as a joker: a made hand scores its points in full."""
        return self.points or self.score(dice)


@dataclass(frozen=True)
class UpperBonus:
    """The upper bonus: ``points`` once the upper boxes total ``threshold`` or more."""

    threshold: int
    points: int


@dataclass(frozen=True)
class RuleSet:
    """A game's rules as one value; ``key`` is stable (storage, table files), ``name`` is
    English marked for translation."""

    key: str
    name: str
    dice: int
    boxes: tuple[Box, ...] = field(repr=False)
    upper_bonus: UpperBonus
    extra_yahtzee: ExtraYahtzee
    yahtzee_bonus: int = 0  # points of each extra Yahtzee, with ExtraYahtzee.BONUS_AND_JOKER
    in_order: bool = False  # boxes must be filled in card order
    saved_rolls: bool = False  # rolls not used in a turn carry over to the player's later turns

    def __post_init__(self) -> None:
        sections = [box.section for box in self.boxes]
        if sections != sorted(sections, key=lambda s: s is Section.LOWER):
            raise ValueError("a card lists its upper boxes before its lower ones")
        if len(set(self.keys)) != len(self.boxes):
            raise ValueError("two boxes of a card have the same key")
        if self.joker and self.yahtzee_box is None:
            raise ValueError("the joker rule needs a Yahtzee box")

    def __hash__(self) -> int:
        # Equal rule sets have equal keys; hashing the key alone keeps caches keyed on it cheap.
        return hash(self.key)

    @cached_property
    def keys(self) -> tuple[str, ...]:
        """The boxes' keys in card order."""
        return tuple(box.key for box in self.boxes)

    @cached_property
    def upper(self) -> tuple[str, ...]:
        """The upper boxes' keys, in card order."""
        return tuple(box.key for box in self.boxes if box.section is Section.UPPER)

    @cached_property
    def lower(self) -> tuple[str, ...]:
        """The lower boxes' keys, in card order."""
        return tuple(box.key for box in self.boxes if box.section is Section.LOWER)

    @cached_property
    def labels(self) -> Mapping[str, str]:
        """``{key: printed name}`` of every box (English; the site translates them)."""
        return MappingProxyType({box.key: box.name for box in self.boxes})

    @cached_property
    def _by_key(self) -> Mapping[str, Box]:
        return MappingProxyType({box.key: box for box in self.boxes})

    @property
    def turns(self) -> int:
        """Turns in a game: one a box."""
        return len(self.boxes)

    @property
    def joker(self) -> bool:
        """True when an extra Yahtzee earns the bonus and is played by the forced joker rule."""
        return self.extra_yahtzee is ExtraYahtzee.BONUS_AND_JOKER

    @cached_property
    def yahtzee_box(self) -> str | None:
        """The key of the box that scores every die alike (a Yahtzee), if the card has one."""
        return next((box.key for box in self.boxes if box.scorer is all_alike), None)

    def has_box(self, key: object) -> bool:
        """True when ``key`` names one of the boxes."""
        return key in self._by_key

    def box(self, key: str) -> Box:
        """The box called ``key``; KeyError if there is none."""
        return self._by_key[key]

    def index(self, key: str) -> int:
        """The place of box ``key`` on the card, from 0."""
        return self.keys.index(key)

    def face_box(self, face: int) -> str | None:
        """The key of the upper box counting ``face``, if the card has one."""
        return next((b.key for b in self.boxes if b.scorer is count_face and b.size == face), None)

    def but(self, **changes: object) -> RuleSet:
        """A copy with some fields changed (a variant built from this one)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def upper_box(key: str, name: str, face: int) -> Box:
    """An upper box counting ``face``."""
    return Box(key, name, Section.UPPER, count_face, size=face)


def lower_box(
    key: str, name: str, scorer: Callable, size: int = 0, points: int = 0, shape: tuple = ()
) -> Box:
    """A lower box scored by ``scorer`` with its numbers."""
    return Box(key, name, Section.LOWER, scorer, size=size, points=points, shape=shape)


UPPER_BOXES = (
    upper_box("ones", _("Ones"), 1),
    upper_box("twos", _("Twos"), 2),
    upper_box("threes", _("Threes"), 3),
    upper_box("fours", _("Fours"), 4),
    upper_box("fives", _("Fives"), 5),
    upper_box("sixes", _("Sixes"), 6),
)
"""Ones to sixes: the upper section of every card."""

YAHTZEE_BOXES = (
    *UPPER_BOXES,
    lower_box("three_of_a_kind", _("Three of a kind"), alike_sum, size=3),
    lower_box("four_of_a_kind", _("Four of a kind"), alike_sum, size=4),
    lower_box("full_house", _("Full house"), full_house, points=25),
    lower_box("small_straight", _("Small straight"), straight, size=4, points=30),
    lower_box("large_straight", _("Large straight"), straight, size=5, points=40),
    lower_box("yahtzee", _("Yahtzee"), all_alike, points=50),
    lower_box("chance", _("Chance"), chance),
)
"""The 13 boxes of Yahtzee in card order."""

YAHTZEE = RuleSet(
    key="official",
    name=_("Yahtzee"),
    dice=5,
    boxes=YAHTZEE_BOXES,
    upper_bonus=UpperBonus(threshold=63, points=35),
    extra_yahtzee=ExtraYahtzee.BONUS_AND_JOKER,
    yahtzee_bonus=100,
)
"""The official rules: 35 points at 63 upper, 100 for each extra Yahtzee and the forced joker."""

YAHTZEE_NO_BONUS = YAHTZEE.but(
    key="no-multiple",
    name=_("Yahtzee, multiple Yahtzees off"),
    extra_yahtzee=ExtraYahtzee.NOTHING,
    yahtzee_bonus=0,
)
"""Yahtzee with multiple Yahtzees off: an extra Yahtzee earns no bonus and is no joker."""

YAHTZEE_IN_ORDER = YAHTZEE.but(key="official-in-order", name=_("Yahtzee, in order"), in_order=True)
"""Yahtzee with the boxes filled from top to bottom, one a turn."""

SCANDINAVIAN = {
    box.key: box
    for box in (
        lower_box("one_pair", _("One pair"), groups, shape=(2,)),
        lower_box("two_pairs", _("Two pairs"), groups, shape=(2, 2)),
        lower_box("three_pairs", _("Three pairs"), groups, shape=(2, 2, 2)),
        lower_box("three_of_a_kind", _("Three of a kind"), groups, shape=(3,)),
        lower_box("four_of_a_kind", _("Four of a kind"), groups, shape=(4,)),
        lower_box("five_of_a_kind", _("Five of a kind"), groups, shape=(5,)),
        lower_box("small_straight", _("Small straight"), run, points=15, shape=(1, 2, 3, 4, 5)),
        lower_box("large_straight", _("Large straight"), run, points=20, shape=(2, 3, 4, 5, 6)),
        lower_box("full_straight", _("Full straight"), run, points=21, shape=(1, 2, 3, 4, 5, 6)),
        lower_box("full_house", _("Full house"), groups, shape=(3, 2)),
        lower_box("castle", _("Castle"), groups, shape=(3, 3)),
        lower_box("tower", _("Tower"), groups, shape=(4, 2)),
        lower_box("chance", _("Chance"), chance),
        lower_box("yatzy", _("Yatzy"), all_alike, points=50),
        lower_box("maxi_yatzy", _("Maxi Yatzy"), all_alike, points=100),
    )
}
"""The lower boxes of Yatzy and Maxi Yatzy, each defined once, by key."""


def scandinavian(*keys: str) -> tuple[Box, ...]:
    """A Scandinavian card: ones to sixes, then these lower boxes in this order."""
    return (*UPPER_BOXES, *(SCANDINAVIAN[key] for key in keys))


YATZY_BOXES = scandinavian(
    "one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind", "small_straight",
    "large_straight", "full_house", "chance", "yatzy",
)  # fmt: skip
"""The 15 boxes of Scandinavian Yatzy in card order."""

YATZY = RuleSet(
    key="yatzy",
    name=_("Yatzy"),
    dice=5,
    boxes=YATZY_BOXES,
    upper_bonus=UpperBonus(threshold=63, points=50),
    extra_yahtzee=ExtraYahtzee.NOTHING,
)
"""Scandinavian Yatzy: 50 points at 63 upper, hands scored by the dice that make them, no joker."""

YATZY_IN_ORDER = YATZY.but(key="yatzy-in-order", name=_("Yatzy, in order"), in_order=True)
"""Yatzy with the boxes filled from top to bottom, one a turn."""

MAXI_BOXES = scandinavian(
    "one_pair", "two_pairs", "three_pairs", "three_of_a_kind", "four_of_a_kind",
    "five_of_a_kind", "small_straight", "large_straight", "full_straight", "full_house",
    "castle", "tower", "chance", "maxi_yatzy",
)  # fmt: skip
"""The 20 boxes of Maxi Yatzy in card order."""

MAXI_YATZY = RuleSet(
    key="maxi",
    name=_("Maxi Yatzy"),
    dice=6,
    boxes=MAXI_BOXES,
    upper_bonus=UpperBonus(threshold=84, points=50),
    extra_yahtzee=ExtraYahtzee.NOTHING,
)
"""Maxi Yatzy: six dice, 20 boxes, 50 points at 84 upper."""

MAXI_YATZY_SAVED = MAXI_YATZY.but(
    key="maxi-saved", name=_("Maxi Yatzy, saved rolls"), saved_rolls=True
)
"""Maxi Yatzy where the rolls a turn leaves unused carry over to the player's later turns."""

RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(
    {
        rules.key: rules
        for rules in (
            YAHTZEE,
            YAHTZEE_NO_BONUS,
            YAHTZEE_IN_ORDER,
            YATZY,
            YATZY_IN_ORDER,
            MAXI_YATZY,
            MAXI_YATZY_SAVED,
        )
    }
)
"""Every rule set the site knows, by key."""


def rule_set(key: str) -> RuleSet:
    """The rule set stored as ``key``; KeyError when there is none."""
    return RULE_SETS[key]
