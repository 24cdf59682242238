"""The analysis, the replay's coach and the history do not grade the moves the server played for a
player whose time ran out (the rest of a timed-out turn, its score marked ``timed_out``)."""

from __future__ import annotations

import pytest

from engine.analysis import analyse, by_player, decision_point, is_decision
from engine.flow import GameState
from engine.rulesets import YAHTZEE
from games import services, timeouts
from games.models import Action, Game
from games.presenters.replay import Positions
from history.models import Summary
from history.summaries import accuracy, fill_missing
from tests.clients import client_for
from tests.factories import BO, at, play_out, timed_game

pytestmark = pytest.mark.django_db


def log_of(game: Game) -> list[tuple[int, str, dict]]:
    return [(a.seat, a.kind, a.payload) for a in Action.objects.filter(game=game).order_by("seq")]


def decision_seqs(log, seat: int) -> list[int]:
    """The places in the log of every roll and score of ``seat`` that would be a decision."""
    state = GameState.new(2, rules=YAHTZEE)
    found = []
    for number, (actor, kind, payload) in enumerate(log):
        if actor == seat and is_decision(state, actor, kind):
            found.append(number)
        state = state.apply(actor, kind, payload)
    return found


@pytest.fixture
def timed_out_game(strategy_tables) -> Game:
    """A finished game whose first turn ran out after Bo's first roll: the server played it."""
    game = timed_game()
    game.refresh_from_db()
    services.perform(game.id, BO, "roll", {"held": [False] * 5}, game.step)
    with at(game, 61):
        assert timeouts.enforce(game.id)
    return play_out(game)


def test_the_server_played_moves_are_not_decisions(timed_out_game, strategy_tables):
    log = log_of(timed_out_game)
    start = log.index((0, "timeout", {}))
    end = next(i for i, a in enumerate(log) if a[1] == "score" and a[2].get("timed_out"))
    served = [n for n in decision_seqs(log, 0) if start < n <= end]
    assert served  # the server kept dice and scored a box for Bo: those would have been graded
    result = analyse(log, seats=2, seat=0, rules=YAHTZEE, advisor=strategy_tables[YAHTZEE])
    assert len(result.decisions) == len(decision_seqs(log, 0)) - len(served)
    assert all(d.round > 1 for d in result.decisions)  # none from Bo's timed-out first turn
    assert [own for _, own in by_player(log)][start : end + 1] == [False] * (end + 1 - start)
    # Al's decisions are all his: his analysis counts them all.
    al = analyse(log, seats=2, seat=1, rules=YAHTZEE, advisor=strategy_tables[YAHTZEE])
    assert len(al.decisions) == len(decision_seqs(log, 1))
    # The practice positions count the same decisions as the analysis: the first is Bo's own.
    state, number, _ = decision_point(log, seats=2, seat=0, index=0, rules=YAHTZEE)
    assert number > end and state.round == 2


def test_the_summary_counts_only_the_players_own_decisions(timed_out_game, strategy_tables):
    log = log_of(timed_out_game)
    own = analyse(log, seats=2, seat=0, rules=YAHTZEE, advisor=strategy_tables[YAHTZEE])
    start = log.index((0, "timeout", {}))
    end = next(i for i, a in enumerate(log) if a[1] == "score" and a[2].get("timed_out"))
    served = [n for n in decision_seqs(log, 0) if start < n <= end]
    fill_missing(BO)  # as My games does before showing it
    summary = Summary.objects.get(game=timed_out_game, visitor=BO)
    assert summary.decisions == len(own.decisions) == len(decision_seqs(log, 0)) - len(served)
    assert summary.accuracy == pytest.approx(
        sum(accuracy(d.loss) for d in own.decisions) / len(own.decisions)
    )
    assert summary.loss == pytest.approx(own.total_loss)
    assert {c["index"] for c in summary.costliest} <= set(range(len(own.decisions)))


def test_the_replay_says_the_server_played_the_move_and_grades_it_not(timed_out_game):
    log = log_of(timed_out_game)
    positions = Positions.of(log)
    end = next(i for i, a in enumerate(log) if a[1] == "score" and a[2].get("timed_out"))
    served_score = positions.starts.index(end)
    page = client_for(BO).get(f"/game/{timed_out_game.id}/replay/?at={served_score}").text
    assert "Played for the player by the server (their time ran out): not graded." in page
    assert "Chosen:" not in page
    own = positions.starts.index(decision_seqs(log, 0)[-1])  # Bo's last score, his own
    page = client_for(BO).get(f"/game/{timed_out_game.id}/replay/?at={own}").text
    assert "Chosen:" in page and "not graded" not in page
