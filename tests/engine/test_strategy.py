"""The optimal-strategy engine: exact values, legal advice, bots, odds and simulation.

The whole-game checks need the full table. It is built once per session into a temporary
directory (about 10 s per variant), or read from $YAHTZEE_STRATEGY_DIR when that is set.
Endgames are checked against a brute force written here from the rules alone: it plays the
remaining turns through ``Scorecard`` and enumerates every dice outcome, sharing nothing with the
engine's matrices.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from engine.rules import CATEGORIES, LOWER, UPPER, Scorecard, box_score
from engine.rulesets import YAHTZEE, YAHTZEE_IN_ORDER, YATZY_IN_ORDER, RuleSet
from engine.rulesets import YAHTZEE_NO_BONUS as NO_BONUS
from engine.strategy import Advisor, build, odds, state_of, storage, table_exists, table_path
from engine.strategy import dice as D
from engine.strategy.bots import BOTS, CLUB_MAX_LOSS, choose_move
from engine.strategy.points import TABLE_SHAPE
from engine.strategy.simulate import draw_dice, play_bot, play_optimal, simulate
from engine.strategy.solver import score_values, solve

OFFICIAL_VALUE = 254.5877
NO_MULTIPLE_VALUE = 245.8708


# ----- fixtures -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def strategy_dir(tmp_path_factory: pytest.TempPathFactory) -> str | None:
    """The configured cache (reused, or built once into) if set, else a fresh temporary one."""
    if os.environ.get(storage.ENV_VAR):
        return None
    return str(tmp_path_factory.mktemp("strategy"))


def _full_advisor(rules: RuleSet, directory: str | None) -> Advisor:
    if table_exists(rules, directory):
        return Advisor.load(rules, directory, build_if_missing=False)
    return build(rules, directory)


@pytest.fixture(scope="session")
def official(strategy_dir: str | None) -> Advisor:
    return _full_advisor(YAHTZEE, strategy_dir)


@pytest.fixture(scope="session")
def no_multiple(strategy_dir: str | None) -> Advisor:
    return _full_advisor(NO_BONUS, strategy_dir)


@pytest.fixture(scope="session")
def endgame() -> dict[bool, Advisor]:
    """Advisors whose tables are solved only for positions with at most two open boxes."""
    return {r: Advisor(solve(r, min_filled=11), r) for r in (YAHTZEE, NO_BONUS)}


# ----- an independent brute force ------------------------------------------------------------


def sub_multisets(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every distinct sorted sub-multiset of the dice, from the positions (not from the engine)."""
    return {
        tuple(sorted(dice[i] for i in chosen))
        for n in range(len(dice) + 1)
        for chosen in itertools.combinations(range(len(dice)), n)
    }


class BruteForce:
    """Expected final totals by exhaustive enumeration, playing the rules through Scorecard."""

    def __init__(self) -> None:
        self.futures: dict[tuple, float] = {}
        self.turns: dict[Scorecard, Turn] = {}

    def key(self, card: Scorecard) -> tuple:
        # The future depends on the open boxes, the upper subtotal and the Yahtzee box only.
        return (
            card.rules,
            card.open_boxes,
            card.upper_subtotal,
            card.score_of("yahtzee"),
        )

    def expected_total(self, card: Scorecard) -> float:
        return card.total + self.future(card)

    def future(self, card: Scorecard) -> float:
        if card.is_full:
            return 0.0
        key = self.key(card)
        if key not in self.futures:
            turn = self.turn(card)
            self.futures[key] = turn.reroll((), 2) - card.total
        return self.futures[key]

    def turn(self, card: Scorecard) -> Turn:
        if card not in self.turns:
            self.turns[card] = Turn(self, card)
        return self.turns[card]


BRUTE = BruteForce()  # shared: the endgames below revisit the same positions


class Turn:
    """One turn of a card: the best expected final total from any dice and rolls left."""

    def __init__(self, brute: BruteForce, card: Scorecard) -> None:
        self.brute = brute
        self.card = card
        self.best = cache(self._best)
        self.reroll = cache(self._reroll)

    def score(self, box: str, dice: tuple[int, ...]) -> float:
        return self.brute.expected_total(self.card.fill(box, dice))

    def _best(self, dice: tuple[int, ...], rolls_left: int) -> float:
        value = max(self.score(box, dice) for box in self.card.options(dice))
        if rolls_left:
            value = max(value, *(self.reroll(k, rolls_left - 1) for k in sub_multisets(dice)))
        return value

    def _reroll(self, keep: tuple[int, ...], rolls_left: int) -> float:
        """Mean over all 6**n ordered outcomes of the rerolled dice."""
        n = 5 - len(keep)
        outcomes = itertools.product(range(1, 7), repeat=n)
        return sum(self.best(tuple(sorted(keep + o)), rolls_left) for o in outcomes) / 6**n


def card_with_open(
    open_boxes: tuple[str, ...], rules: RuleSet = YAHTZEE, **points: int
) -> Scorecard:
    """A card with every box filled except ``open_boxes`` (given points, else a typical score)."""
    typical = {"three_of_a_kind": 22, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30}
    typical |= {"large_straight": 40, "yahtzee": 0, "chance": 21}
    typical |= {box: 3 * (i + 1) for i, box in enumerate(UPPER)}
    boxes = {box: points.get(box, typical[box]) for box in CATEGORIES if box not in open_boxes}
    return Scorecard.from_boxes(boxes, rules=rules)


ENDGAMES = [
    pytest.param(("chance",), YAHTZEE, {}, id="chance-only"),
    pytest.param(
        ("sixes", "chance"),
        YAHTZEE,
        {"ones": 3, "twos": 6, "fours": 16, "fives": 20},
        id="bonus-in-reach",
    ),
    pytest.param(
        ("fours", "fives"), YAHTZEE, {"sixes": 24, "threes": 12}, id="two-upper-for-bonus"
    ),
    pytest.param(("full_house", "fours"), YAHTZEE, {"yahtzee": 50}, id="joker-with-bonus"),
    pytest.param(("large_straight", "threes"), YAHTZEE, {"yahtzee": 0}, id="joker-no-bonus"),
    pytest.param(("ones", "twos"), YAHTZEE, {"yahtzee": 50}, id="joker-only-upper-open"),
    pytest.param(("yahtzee", "small_straight"), YAHTZEE, {}, id="yahtzee-open"),
    pytest.param(("full_house", "fours"), NO_BONUS, {"yahtzee": 50}, id="no-multiple-no-joker"),
    pytest.param(("yahtzee", "chance"), NO_BONUS, {}, id="no-multiple-yahtzee-open"),
    pytest.param(("sixes",), NO_BONUS, {"fives": 20, "fours": 16}, id="no-multiple-bonus"),
]


# ----- exact values ----------------------------------------------------------------------------


@pytest.mark.parametrize(("open_boxes", "rules", "points"), ENDGAMES)
def test_endgame_values_match_brute_force(endgame, open_boxes, rules, points):
    card = card_with_open(open_boxes, rules, **points)
    assert endgame[rules].expected_total(card) == pytest.approx(
        BRUTE.expected_total(card), abs=1e-9
    )


@pytest.mark.parametrize(("open_boxes", "rules", "points"), ENDGAMES[1:6:2])
@pytest.mark.parametrize(
    "dice", [(6, 6, 6, 6, 6), (2, 3, 4, 5, 5), (1, 1, 4, 4, 4), (4, 4, 4, 4, 2)]
)
@pytest.mark.parametrize("rolls_left", [0, 1, 2])
def test_every_option_value_matches_brute_force(
    endgame, open_boxes, rules, points, dice, rolls_left
):
    card = card_with_open(open_boxes, rules, **points)
    turn = BRUTE.turn(card)
    for (kind, what), value in endgame[rules].options(card, dice, rolls_left):
        expected = turn.score(what, dice) if kind == "score" else turn.reroll(what, rolls_left - 1)
        assert value == pytest.approx(expected, abs=1e-9), (kind, what)


def test_new_game_value_official(official):
    assert round(official.expected_total(Scorecard()), 4) == OFFICIAL_VALUE


def test_new_game_value_without_multiple_yahtzees(no_multiple):
    assert round(no_multiple.expected_total(Scorecard(NO_BONUS)), 4) == NO_MULTIPLE_VALUE


def test_advisor_picks_the_table_of_the_cards_variant(official, no_multiple):
    assert official.expected_total(Scorecard(NO_BONUS)) == pytest.approx(no_multiple.new_game_value)


def test_more_upper_points_never_hurt(official):
    # A sanity property of the solved table: counting the bonus once banked at 63, the value
    # never drops as the upper subtotal grows.
    banked = official.table + np.where(np.arange(64) == 63, 35.0, 0.0)[None, :, None]
    assert np.all(np.diff(banked, axis=1) >= -1e-9)
    assert np.all(official.table[:, :, 1] >= official.table[:, :, 0] - 1e-9)


def test_full_card_is_worth_its_total(official):
    card = card_with_open((), yahtzee=50)
    assert official.expected_total(card) == card.total
    assert official.options(card, (1, 2, 3, 4, 5), 2) == []


# ----- dice combinatorics ---------------------------------------------------------------------


def test_partial_solve_reports_progress():
    calls = []
    solve(YAHTZEE, progress=lambda done, total: calls.append((done, total)), min_filled=11)
    assert calls and calls[-1][0] == calls[-1][1]
    assert all(a[0] < b[0] for a, b in itertools.pairwise(calls))


def test_dice_tables():
    assert (len(D.KEEPS), len(D.ROLLS)) == (462, 252)
    assert D.KEEPS[D.ROLL_OFFSET :] == D.ROLLS
    assert np.allclose(D.TRANSITION.sum(axis=1), 1.0)
    assert D.ROLL_PROBS[D.ROLL_INDEX[(1, 2, 3, 4, 5)]] == pytest.approx(120 / 6**5)
    for roll, subs in zip(D.ROLLS, D.SUB_KEEPS, strict=True):
        assert {D.KEEPS[k] for k in subs} == sub_multisets(roll)


def test_keep_values_equal_the_transition_product():
    final = np.random.default_rng(3).random((252, 17))
    assert np.allclose(D.keep_values(final), D.TRANSITION @ final, rtol=0, atol=1e-12)


def test_lattice_equals_max_over_sub_keeps():
    values = np.random.default_rng(4).random((462, 9))
    expected = values[D.SUB_KEEPS_PADDED].max(axis=1)
    assert np.array_equal(D.best_keep_inplace(values.copy()), expected)


# ----- the engine's joker encoding against Scorecard.options -----------------------------------


def random_card(rng: random.Random, rules: RuleSet) -> Scorecard:
    """A card with a random set of boxes filled with scores a game could give."""
    fill_rate = rng.random()
    boxes: dict[str, int] = {}
    for i, box in enumerate(CATEGORIES):
        if len(boxes) < 12 and rng.random() < fill_rate:
            if box in UPPER:
                boxes[box] = (i + 1) * rng.randint(0, 5)
            elif box == "yahtzee":
                boxes[box] = rng.choice((0, 50))
            else:
                dice = [rng.randint(1, 6) for _ in range(5)]
                boxes[box] = box_score(box, dice)
    bonus = 100 * rng.randint(0, 2) if rules.joker and boxes.get("yahtzee") == 50 else 0
    return Scorecard.from_boxes(boxes, rules=rules, yahtzee_bonus=bonus)


@pytest.mark.parametrize("rules", [YAHTZEE, NO_BONUS])
@pytest.mark.parametrize("seed", range(4))
def test_engine_scoring_matches_scorecard_options(rules, seed):
    """With an arbitrary (random) table, the engine's best box per roll is Scorecard's."""
    rng = random.Random(seed)
    table = np.random.default_rng(seed).random(TABLE_SHAPE) * 100
    table[-1] = 0.0  # a full card has no future (expected_total relies on it)
    advisor = Advisor(table, rules)
    forced = [r for r in range(252) if len(set(D.ROLLS[r])) == 1]
    for _ in range(40):
        card = random_card(rng, rules)
        mask, u, y = state_of(card)
        best_box = np.empty((252, 1), dtype=np.int8)
        values = score_values(mask, np.array([u]), np.array([y]), table, rules, best_box=best_box)
        for r in forced + rng.sample(range(252), 12):
            dice = D.ROLLS[r]
            options = card.options(dice)
            gains = {
                box: advisor.expected_total(card.fill(box, dice)) - card.total for box in options
            }
            assert values[r, 0] == pytest.approx(max(gains.values()), abs=1e-9)
            chosen = CATEGORIES[best_box[r, 0]]
            assert chosen in options
            assert gains[chosen] == pytest.approx(values[r, 0], abs=1e-9)


# ----- options: legal, complete, sorted, consistent ------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_options_cover_exactly_the_legal_moves(official, seed):
    rng = random.Random(seed)
    for _ in range(60):
        card = random_card(rng, YAHTZEE)
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
        rolls_left = rng.randint(0, 2)
        options = official.options(card, dice, rolls_left)
        values = [v for _, v in options]
        assert all(a >= b - 1e-9 for a, b in itertools.pairwise(values))
        keeps = [what for (kind, what), _ in options if kind == "keep"]
        boxes = [what for (kind, what), _ in options if kind == "score"]
        assert len(keeps) == len(set(keeps))
        assert set(keeps) == (sub_multisets(dice) if rolls_left else set())
        assert sorted(boxes) == sorted(card.options(dice))
        for box in boxes:
            value = dict(options)[("score", box)]
            assert value == pytest.approx(official.expected_total(card.fill(box, dice)), abs=1e-9)
        if rolls_left == 1:  # keeping all five with one roll left = scoring the best box now
            best_score = max(v for (kind, _), v in options if kind == "score")
            assert dict(options)[("keep", dice)] == pytest.approx(best_score, abs=1e-9)


def test_options_best_first_on_a_yahtzee(official):
    card = Scorecard()
    (best, value), *_ = official.options(card, (6, 6, 6, 6, 6), 2)
    assert best == ("score", "yahtzee")
    assert value == pytest.approx(official.expected_total(card.fill("yahtzee", (6,) * 5)))


def test_options_reject_bad_input(official):
    with pytest.raises(ValueError):
        official.options(Scorecard(), (1, 2, 3, 4, 5), 3)
    with pytest.raises(ValueError):
        official.options(Scorecard(), (1, 2, 3, 4), 1)


# ----- bots ------------------------------------------------------------------------------------


@pytest.mark.parametrize("bot_id", list(BOTS))
def test_bots_only_make_legal_moves(official, bot_id):
    rng = random.Random(bot_id)
    for _ in range(150):
        card = random_card(rng, YAHTZEE if rng.random() < 0.8 else NO_BONUS)
        dice = [rng.randint(1, 6) for _ in range(5)]
        rolls_left = rng.randint(0, 2)
        kind, what = choose_move(bot_id, official, card, dice, rolls_left, rng)
        if kind == "keep":
            assert rolls_left > 0
            assert what == tuple(sorted(what))
            assert not Counter(what) - Counter(dice)  # a sub-multiset of the dice
        else:
            assert kind == "score"
            assert what in card.options(dice)


def test_beginner_scores_the_most_points_now():
    rng = random.Random(9)
    for _ in range(200):
        card = random_card(rng, YAHTZEE)
        dice = [rng.randint(1, 6) for _ in range(5)]
        kind, box = choose_move("beginner", None, card, dice, 0, rng)
        assert kind == "score"
        assert card.options(dice)[box] == max(card.options(dice).values())


@pytest.mark.parametrize("rules", [YAHTZEE_IN_ORDER, YATZY_IN_ORDER], ids=lambda r: r.key)
def test_in_order_the_beginner_plays_for_the_next_box(rules):
    """Ones next: it kept three sixes and rerolled the one (a timed-out turn, played as the
    beginner, scored 0 in Ones so)."""
    card = Scorecard(rules=rules)
    assert choose_move("beginner", None, card, (1, 6, 6, 6, 3), 2, random.Random(1)) == (
        "keep",
        (1,),
    )
    assert choose_move("beginner", None, card, (2, 4, 5, 4, 5), 1, random.Random(1)) == (
        "keep",
        (),
    )
    card = Scorecard(rules=rules)
    for box in rules.keys[: rules.index("chance")]:
        card = card.fill(box, (1, 1, 1, 1, 1))
    assert choose_move("beginner", None, card, (1, 6, 2, 4, 3), 2, random.Random(1)) == (
        "keep",
        (4, 6),
    )


def test_optimal_bot_plays_the_best_option_and_club_stays_close(official):
    rng = random.Random(5)
    for _ in range(100):
        card = random_card(rng, YAHTZEE)
        dice = [rng.randint(1, 6) for _ in range(5)]
        rolls_left = rng.randint(0, 2)
        options = official.options(card, dice, rolls_left)
        assert choose_move("optimal", official, card, dice, rolls_left, rng) == options[0][0]
        club = choose_move("club", official, card, dice, rolls_left, rng)
        assert club in [move for move, _ in options[:3]]
        assert options[0][1] - dict(options)[club] <= CLUB_MAX_LOSS + 1e-9


def test_bot_metadata():
    assert list(BOTS) == ["optimal", "to-win", "club", "beginner"]
    for bot in BOTS.values():
        assert bot.name and bot.description and "\n" not in bot.description


# ----- odds ------------------------------------------------------------------------------------


def yahtzee_chance_keeping_most_common_face() -> Fraction:
    """Exact chance of a Yahtzee in 3 rolls keeping the most common face, by enumeration."""

    @cache
    def chance(kept: int, rolls: int) -> Fraction:
        # ``kept`` dice show the same face (0 = nothing kept); ``rolls`` rolls still to make.
        total = Fraction(0)
        n = 5 - kept
        for outcome in itertools.product(range(1, 7), repeat=n):
            counts = Counter(outcome)
            # By symmetry the kept dice show 1s; a larger group of another face replaces them.
            best = max([kept + counts[1]] + [counts[f] for f in range(2, 7)])
            total += 1 if best == 5 else (chance(best, rolls - 1) if rolls > 1 else 0)
        return total / 6**n

    return chance(0, 3)


def test_yahtzee_odds_from_scratch():
    exact = Fraction(2783176, 60466176)
    assert yahtzee_chance_keeping_most_common_face() == exact
    # The box-maximising policy of the odds module reaches the same figure.
    assert abs(odds.chance("yahtzee", (), 3) - float(exact)) < 1e-12


@pytest.mark.parametrize(
    "held", [(1, 2, 3, 4, 5), (6, 6, 6, 6, 6), (2, 2, 3, 3, 3), (1, 1, 2, 5, 6)]
)
@pytest.mark.parametrize("rolls", [0, 1, 2, 3])
def test_odds_with_all_five_held_are_certain(held, rolls):
    for box, p in odds.box_odds(held, rolls).items():
        assert p == (1.0 if box_score(box, held) > 0 else 0.0)


@pytest.mark.parametrize(
    ("filled", "rules", "expected"),
    [
        ({"sixes": 30, "yahtzee": 50}, YAHTZEE, 1 / 6),  # the fifth six is a joker straight
        ({"sixes": 30, "yahtzee": 0}, YAHTZEE, 1 / 6),  # a zeroed Yahtzee box still makes jokers
        ({"yahtzee": 50}, YAHTZEE, 0.0),  # Sixes open: five sixes must go there
        ({"sixes": 30, "yahtzee": 50}, NO_BONUS, 0.0),  # no joker without multiple Yahtzees
    ],
)
def test_odds_count_the_joker_of_the_card(filled, rules, expected):
    card = Scorecard.from_boxes(filled, rules=rules)
    # Four sixes held, one roll: only a six could make a large straight, and only as a joker.
    assert odds.chance("large_straight", (6, 6, 6, 6), 1, card) == pytest.approx(expected)
    assert odds.chance("large_straight", (6, 6, 6, 6), 1) == 0.0  # on a fresh card, never


def test_odds_sanity():
    assert odds.chance("large_straight", (1, 2, 3, 4), 1) == pytest.approx(1 / 6, abs=1e-12)
    assert odds.chance("small_straight", (1, 2, 3, 4), 1) == 1.0
    assert odds.chance("yahtzee", (6, 6, 6, 6), 1) == pytest.approx(1 / 6, abs=1e-12)
    assert odds.chance("yahtzee", (6, 6, 6, 6), 2) == pytest.approx(11 / 36, abs=1e-12)
    for box in odds.ODDS_BOXES:
        one, two, three = (odds.chance(box, (2, 5), rolls) for rolls in (1, 2, 3))
        assert 0 <= one <= two <= three <= 1
    assert set(odds.box_odds((), 3)) == set(odds.ODDS_BOXES) <= set(LOWER)


# ----- storage ---------------------------------------------------------------------------------


def test_table_round_trip_and_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    assert table_path(YAHTZEE).parent == tmp_path
    assert not table_exists(YAHTZEE) and not Advisor.is_ready(YAHTZEE)
    with pytest.raises(FileNotFoundError):
        Advisor.load(YAHTZEE, build_if_missing=False)
    table = np.random.default_rng(0).random(TABLE_SHAPE)
    storage.save_table(table, table_path(YAHTZEE))
    assert table_exists(YAHTZEE) and not table_exists(NO_BONUS)
    assert np.array_equal(Advisor.load(YAHTZEE).table, table)
    assert [p.name for p in tmp_path.iterdir()] == [table_path(YAHTZEE).name]  # no temp file left


def test_a_truncated_table_is_not_ready(tmp_path):
    path = table_path(YAHTZEE, tmp_path)
    path.write_bytes(b"\x93NUMPY" + b"\0" * 100)
    assert not table_exists(YAHTZEE, tmp_path)


# ----- simulation ------------------------------------------------------------------------------


def test_simulated_games_replay_through_scorecard(official):
    dice = draw_dice(np.random.default_rng(11), 200)
    totals, boxes, rolls = play_optimal(official, dice)
    for g in range(len(dice)):
        card = Scorecard()
        for turn in range(13):
            card = card.fill(CATEGORIES[boxes[g, turn]], D.ROLLS[rolls[g, turn]])
        assert card.total == totals[g]
    # Same dice through the generic per-move path (bots.choose_move + Scorecard): same games.
    generic = play_bot("optimal", official, dice[:40], random.Random(0))
    assert np.array_equal(generic, totals[:40])


def test_ten_thousand_optimal_games_average_the_solved_value(official):
    totals = simulate("optimal", 10_000, seed=2024, advisor=official)
    assert len(totals) == 10_000
    assert abs(totals.mean() - 254.59) <= 1.2


def test_weaker_bots_score_less(official):
    optimal = simulate("optimal", 300, seed=1, advisor=official).mean()
    beginner = simulate("beginner", 300, seed=1).mean()
    assert beginner < optimal - 20
