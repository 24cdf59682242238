"""A missing or damaged strategy table: never built in a request, built beside the server.

Each test copies the session's good tables into a directory of its own and damages the copy, or
starts from an empty one (an upgrade to a new table format, a first start).
"""

from __future__ import annotations

import io
import logging
import time
from pathlib import Path

import numpy as np
import pytest
from django.core.management import call_command

from engine.rulesets import YAHTZEE, RuleSet
from engine.rulesets import YAHTZEE_NO_BONUS as NO_BONUS
from engine.strategy import Advisor, storage, table_path
from engine.strategy.points import TABLE_SHAPE
from engine.strategy.spread import MOMENTS, moment_path
from games import advice
from games.management.commands import solve as solve_command
from games.models import Game
from tests.clients import HTMX, client_for, url
from tests.factories import act, make_game

pytestmark = pytest.mark.django_db

GETTING_READY = "The coach is getting ready"


# ----- damages ---------------------------------------------------------------------------------


def nan_values(file: Path, good: np.ndarray) -> None:
    storage.save_table(np.full(TABLE_SHAPE, np.nan), file)


def an_infinite_value(file: Path, good: np.ndarray) -> None:
    table = good.copy()
    table[0, 0, 0] = np.inf
    storage.save_table(table, file)


def a_negative_value(file: Path, good: np.ndarray) -> None:
    table = good.copy()
    table[1000, 10, 0] = -3.0
    storage.save_table(table, file)


def a_value_no_game_can_reach(file: Path, good: np.ndarray) -> None:
    table = good.copy()
    table[1000, 10, 0] = 5000.0  # more than the 1575 points of the best possible game
    storage.save_table(table, file)


def _edit(file: Path, change) -> None:
    data = bytearray(file.read_bytes())
    change(data)
    file.write_bytes(bytes(data))


def a_damaged_magic(file: Path, good: np.ndarray) -> None:
    _edit(file, lambda data: data.__setitem__(slice(1, 6), b"NUMPZ"))


def a_header_in_the_wrong_order(file: Path, good: np.ndarray) -> None:
    """Still a valid .npy header of the right shape, but the values would be read transposed."""

    def swap(data: bytearray) -> None:
        at = data.index(b"'fortran_order': False")
        data[at : at + 22] = b"'fortran_order': True "

    _edit(file, swap)


def truncated(file: Path, good: np.ndarray) -> None:
    file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])


def a_zeroed_tail(file: Path, good: np.ndarray) -> None:
    """The right size, but the end never reached the disk (zeros, as after a crash)."""
    _edit(file, lambda data: data.__setitem__(slice(-(1 << 20), None), bytes(1 << 20)))


def a_flipped_bit(file: Path, good: np.ndarray) -> None:
    """One bit in the middle of the values: a tiny, plausible change that only a checksum sees."""

    def flip(data: bytearray) -> None:
        data[len(data) // 2] ^= 0x01

    _edit(file, flip)


DAMAGES = [
    nan_values,
    an_infinite_value,
    a_negative_value,
    a_value_no_game_can_reach,
    a_damaged_magic,
    a_header_in_the_wrong_order,
    truncated,
    a_zeroed_tail,
    a_flipped_bit,
]


# ----- fixtures ----------------------------------------------------------------------------------


@pytest.fixture
def table_dir(tmp_path, monkeypatch, strategy_tables, win_models) -> Path:
    """A strategy directory of this test's own, with good copies of both tables, in use (and
    the win models' tables, which ``solve`` builds when they are missing)."""
    link_win_models(tmp_path)
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    for rules, good in strategy_tables.items():
        storage.save_table(good.table, table_path(rules, tmp_path))
    return tmp_path


def link_win_models(directory: Path) -> None:
    """The win models' tables of the configured directory, linked into ``directory``."""
    for rules in (YAHTZEE, NO_BONUS):
        for k in range(2, MOMENTS + 1):
            file = moment_path(rules, k)
            (directory / file.name).symlink_to(file.resolve())


@pytest.fixture
def rebuilds(monkeypatch) -> list:
    """Background rebuilds asked for, recorded instead of run (one real rebuild is tested below)."""
    asked: list = []
    monkeypatch.setattr(
        advice, "_solve_in_background", lambda *args: asked.append(args), raising=False
    )
    return asked


def hint(game) -> str:
    response = client_for().get(f"/game/{game.id}/?hint=1", headers=HTMX)
    assert response.status_code == 200
    return response.text.split('id="coach"')[1]


def rolled_game(rules: RuleSet = YAHTZEE):
    game = make_game(rules=rules)
    act(game, "roll", dice=[5, 5, 5, 5, 5])
    game.refresh_from_db()
    return game


# ----- tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda damage: damage.__name__)
def test_a_damaged_table_is_refused_on_load(table_dir, strategy_tables, rebuilds, damage):
    damage(table_path(YAHTZEE, table_dir), strategy_tables[YAHTZEE].table)
    # A ValueError, not FileNotFoundError: the site tells a damaged table from a missing one.
    with pytest.raises(ValueError):
        Advisor.load(YAHTZEE, table_dir, build_if_missing=False)
    assert not advice.is_ready(YAHTZEE)


@pytest.mark.parametrize(
    "damage",
    [nan_values, a_damaged_magic, truncated, a_flipped_bit],
    ids=lambda damage: damage.__name__,
)
def test_a_hint_with_a_damaged_table_says_getting_ready(
    table_dir, strategy_tables, rebuilds, caplog, damage
):
    file = table_path(YAHTZEE, table_dir)
    damage(file, strategy_tables[YAHTZEE].table)
    damaged = file.read_bytes()
    game = rolled_game()
    with caplog.at_level(logging.WARNING, logger="games.advice"):
        for _ in range(3):
            coach = hint(game)
            assert GETTING_READY in coach
            assert "nan" not in coach.lower()
            assert 'class="hint"' not in coach  # no expected totals at all
    assert file.read_bytes() == damaged  # no request built (or rebuilt) the table
    assert len([r for r in caplog.records if r.name == "games.advice"]) == 1  # logged once
    assert rebuilds == [(YAHTZEE, table_dir)]  # and one rebuild asked of the background


def ask_for_a_hint(client) -> str:
    return hint(rolled_game())


def look_at_the_home_page(client) -> str:
    return client.get("/").text


def start_a_computer_game(client) -> str:
    response = client.post("/new/", {"mode": "computer", "strength": "optimal"})
    assert response.status_code == 409
    return response.content.decode()


FIRST_REQUESTS = [ask_for_a_hint, look_at_the_home_page, start_a_computer_game]


@pytest.mark.parametrize("first", FIRST_REQUESTS, ids=lambda request: request.__name__)
def test_a_missing_table_is_built_in_the_background_once(
    tmp_path, monkeypatch, strategy_tables, rebuilds, first
):
    """After an upgrade to a new table format (or on a first start without scripts/serve) the
    first request that needs the table has it built beside the server; none builds it itself."""
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))  # no table of this format here
    client = client_for()
    assert "getting ready" in first(client)
    assert rebuilds == [(YAHTZEE, tmp_path)]
    for request in FIRST_REQUESTS:
        assert "getting ready" in request(client)
    assert rebuilds == [(YAHTZEE, tmp_path)]  # once, however many requests ask
    assert list(tmp_path.iterdir()) == []  # no request built (or began) the table
    game = rolled_game()
    storage.save_table(
        strategy_tables[YAHTZEE].table, table_path(YAHTZEE, tmp_path)
    )  # the solve's end
    best = strategy_tables[YAHTZEE].options(game.state().cards[0], (5, 5, 5, 5, 5), 2)[0]
    assert f"<strong>{best[1]:.1f}</strong>" in hint(game)  # used without a restart
    assert "getting ready" not in client.get("/").text
    assert client.post("/new/", {"mode": "computer", "strength": "optimal"}).status_code == 302
    assert rebuilds == [(YAHTZEE, tmp_path)]


def test_each_rules_variant_has_its_missing_table_built_once(tmp_path, monkeypatch, rebuilds):
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    for _ in range(2):
        assert GETTING_READY in hint(rolled_game(NO_BONUS))
    assert rebuilds == [(NO_BONUS, tmp_path)]
    assert GETTING_READY in hint(rolled_game(YAHTZEE))
    assert rebuilds == [(NO_BONUS, tmp_path), (YAHTZEE, tmp_path)]


def test_with_a_damaged_table_the_computer_waits_as_for_a_missing_one(
    table_dir, strategy_tables, rebuilds
):
    nan_values(table_path(YAHTZEE, table_dir), strategy_tables[YAHTZEE].table)
    client = client_for()
    assert "getting ready" in client.get("/").text
    refused = client.post("/new/", {"mode": "computer", "strength": "optimal"})
    assert refused.status_code == 409
    assert "still getting ready" in refused.content.decode()


def test_a_rebuilt_table_is_used_without_a_restart(table_dir, strategy_tables, rebuilds):
    good = strategy_tables[YAHTZEE]
    file = table_path(YAHTZEE, table_dir)
    a_flipped_bit(file, good.table)
    game = rolled_game()
    assert GETTING_READY in hint(game)
    storage.save_table(good.table, file)  # what the background solve ends with: an atomic replace
    best = good.options(game.state().cards[0], (5, 5, 5, 5, 5), 2)[0]
    assert f"Score Yahtzee now (50 points): <strong>{best[1]:.1f}</strong>" in hint(game)


def test_a_damaged_table_is_rebuilt_in_the_background(table_dir, strategy_tables):
    """The real thing: `manage.py solve --if-missing` in a process of its own (about 10 s)."""
    good = strategy_tables[NO_BONUS]
    file = table_path(NO_BONUS, table_dir)
    a_flipped_bit(file, good.table)
    damaged = file.read_bytes()
    game = rolled_game(NO_BONUS)
    coach = hint(game)
    assert GETTING_READY in coach
    deadline = time.monotonic() + 150
    while GETTING_READY in coach:
        assert time.monotonic() < deadline, "the damaged table was not rebuilt"
        time.sleep(0.5)
        coach = hint(game)
    assert file.read_bytes() != damaged
    assert np.array_equal(
        Advisor.load(NO_BONUS, table_dir, build_if_missing=False).table, good.table
    )
    best = good.options(game.state().cards[0], (5, 5, 5, 5, 5), 2)[0]
    assert f"<strong>{best[1]:.1f}</strong>" in coach


@pytest.fixture
def fake_build(monkeypatch, strategy_tables) -> list:
    """`manage.py solve` writes a copy of the good table instead of solving (seconds saved)."""
    built: list = []

    def build(rules, directory=None, progress=None):
        built.append(rules.key)
        storage.save_table(strategy_tables[rules].table, table_path(rules, directory))
        return strategy_tables[rules]

    monkeypatch.setattr(solve_command, "build", build)
    return built


def test_solve_if_missing_rebuilds_a_damaged_table(table_dir, strategy_tables, fake_build):
    a_flipped_bit(table_path(YAHTZEE, table_dir), strategy_tables[YAHTZEE].table)
    call_command("solve", "--if-missing", "--dir", str(table_dir), stdout=io.StringIO())
    assert fake_build == ["official"]  # the damaged one; the good one is kept
    assert advice.is_ready(YAHTZEE)
    call_command("solve", "--if-missing", "--dir", str(table_dir), stdout=io.StringIO())
    assert fake_build == ["official"]


def test_a_table_from_before_checksums_is_built_anew(
    tmp_path, monkeypatch, strategy_tables, win_models, fake_build, rebuilds
):
    link_win_models(tmp_path)
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    for rules, good in strategy_tables.items():
        np.save(tmp_path / f"yahtzee-v1-{rules.key}.npy", good.table)
    assert not advice.is_ready(YAHTZEE)  # "getting ready" until solve --if-missing has run
    call_command("solve", "--if-missing", "--dir", str(tmp_path), stdout=io.StringIO())
    assert sorted(fake_build) == sorted(rules.key for rules in strategy_tables)
    assert advice.is_ready(YAHTZEE) and advice.is_ready(NO_BONUS)


def test_a_computer_game_waits_while_its_table_is_damaged(
    table_dir, strategy_tables, rebuilds, tmp_path_factory, monkeypatch
):
    client = client_for()
    started = client.post("/new/", {"mode": "computer", "strength": "optimal"})
    game = Game.objects.get(pk=started["Location"].split("/")[2])
    # The server restarts with a damaged table where the good one was.
    restarted = tmp_path_factory.mktemp("restarted")
    monkeypatch.setenv(storage.ENV_VAR, str(restarted))
    file = table_path(YAHTZEE, restarted)
    nan_values(file, strategy_tables[YAHTZEE].table)
    client.post(url(game, "roll"), {"step": 0, "held": "00000"})
    game.refresh_from_db()
    before = game.step
    refused = client.post(url(game, "score"), {"step": before, "box": "chance"}, headers=HTMX)
    assert refused.status_code == 503
    assert "still getting ready" in refused.text
    game.refresh_from_db()
    assert game.step == before  # the person's score is not written without the computer's turn
    storage.save_table(strategy_tables[YAHTZEE].table, file)  # rebuilt
    client.post(url(game, "score"), {"step": before, "box": "chance"})
    game.refresh_from_db()
    assert [card.turns_played for card in game.state().cards] == [1, 1]


def test_solve_if_missing_builds_the_win_models_tables_beside_a_table(
    table_dir, strategy_tables, win_models, fake_build, monkeypatch
):
    from engine.strategy import winning

    for rules in (YAHTZEE, NO_BONUS):
        for k in range(2, MOMENTS + 1):
            moment_path(rules, k, table_dir).unlink()
    # The moments as the engine computes them, handed over rather than worked out again.
    monkeypatch.setattr(winning, "build_moments", lambda table, rules: win_models[rules].moments)
    points_only = io.StringIO()  # what the build benchmark times against other solvers
    call_command(
        "solve", "--if-missing", "--points-only", "--dir", str(table_dir), stdout=points_only
    )
    assert "win model" not in points_only.getvalue()
    assert not any(winning.WinModel.exists(rules, table_dir) for rules in (YAHTZEE, NO_BONUS))
    out = io.StringIO()
    call_command("solve", "--if-missing", "--dir", str(table_dir), stdout=out)
    assert fake_build == []  # the points tables were sound
    assert "Built the official win model" in out.getvalue()
    assert "Built the no-multiple win model" in out.getvalue()
    assert all(winning.WinModel.exists(rules, table_dir) for rules in (YAHTZEE, NO_BONUS))
