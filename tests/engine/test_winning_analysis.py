"""The analysis of a two-player game by the chance to win, and the coach's points-or-win hint."""

from __future__ import annotations

import random

import pytest

from engine.analysis import analyse, points_vs_win
from engine.flow import GameState
from engine.rules import Scorecard
from engine.rulesets import YAHTZEE
from engine.strategy.winning import WinModel

BOXES = YAHTZEE.keys


@pytest.fixture(scope="module")
def model(strategy_tables):
    return WinModel.load(YAHTZEE)


def careless_game(seed: int) -> list[tuple[int, str, dict]]:
    """A two-player log: each turn one roll, then seat 0 scores its first open box, seat 1 the
    box with the most points now."""
    rng = random.Random(seed)
    state = GameState.new(2, rules=YAHTZEE)
    log = []
    while not state.finished:
        seat = state.current
        action = (seat, "roll", {"dice": [rng.randint(1, 6) for _ in range(5)]})
        state = state.apply(*action)
        log.append(action)
        card = state.cards[seat]
        options = card.options(state.turn.dice)
        box = next(iter(options)) if seat == 0 else max(options, key=options.get)
        action = (seat, "score", {"box": box})
        state = state.apply(*action)
        log.append(action)
    return log


def test_decisions_of_a_two_player_game_lose_chances_to_win(model, strategy_tables):
    log = careless_game(3)
    advisor = strategy_tables[YAHTZEE]
    careless = analyse(log, seats=2, seat=0, rules=YAHTZEE, advisor=advisor, model=model)
    assert len(careless.decisions) == 13
    for decision in careless.decisions:
        assert 0 <= decision.chance <= decision.best_chance <= 1
        assert decision.chance_lost == pytest.approx(decision.best_chance - decision.chance)
    assert careless.total_chance_lost > 0.2  # scoring boxes in card order throws games away
    greedy = analyse(log, seats=2, seat=1, rules=YAHTZEE, advisor=advisor, model=model)
    assert all(d.chance_lost is not None for d in greedy.decisions)
    # Without the model, only points are graded.
    plain = analyse(log, seats=2, seat=0, rules=YAHTZEE, advisor=advisor)
    assert plain.decisions[0].chance_lost is None and plain.total_chance_lost is None
    assert [d.loss for d in plain.decisions] == [d.loss for d in careless.decisions]


def test_the_hint_says_when_points_and_winning_differ(model, strategy_tables):
    advisor = strategy_tables[YAHTZEE]
    # Only Chance left, 24 behind a finished opponent, 25 showing and one reroll left: for points
    # reroll the 3, to win take the 25 now.
    mine = Scorecard.from_boxes({box: 0 for box in BOXES if box != "chance"})
    theirs = Scorecard.from_boxes({**{box: 0 for box in BOXES}, "chance": 24})
    hint = points_vs_win(model, advisor, [mine, theirs], 0, (3, 4, 6, 6, 6), 1)
    assert hint == (("keep", (4, 6, 6, 6)), ("score", "chance"))
    # At the start of a game the two agree.
    cards = [Scorecard(), Scorecard()]
    assert points_vs_win(model, advisor, cards, 0, (6, 6, 6, 6, 6), 2) is None
    assert points_vs_win(model, advisor, cards, 1, (1, 2, 3, 4, 5), 2) is None


def test_no_chance_is_graded_once_the_opponent_has_left(model, strategy_tables):
    """After a forfeit the game is decided: the abandoned card is no opponent to weigh."""
    log = careless_game(5)[:4]  # a turn each
    log += [(0, "forfeit", {"seat": 1}), *careless_game(5)[4:6]]  # seat 0 plays on alone
    advisor = strategy_tables[YAHTZEE]
    alone = analyse(log, seats=2, seat=0, rules=YAHTZEE, advisor=advisor, model=model)
    before, after = alone.decisions[0], alone.decisions[-1]
    assert before.chance is not None and after.chance is None and after.loss is not None
