"""The win-probability bar: on every page of a two-player game that may show it, with figures
that add up to 100 and follow the model; in the replay, the analysis chart and the pushes."""

from __future__ import annotations

import random
import re
import time

import pytest

from core.socket_messages import GameChanged
from engine.analysis import Decision, points_vs_win
from engine.flow import GameState
from engine.rules import CATEGORIES, Scorecard
from engine.rulesets import MAXI_YATZY, YAHTZEE, YATZY
from engine.strategy import storage
from games import advice, services, winchance
from games.events import Change
from games.live.redraws import render_context
from games.models import Game, Seat
from games.presenters.analysis import grade_of
from games.presenters.parts import redrawn
from games.presenters.winbar import position_chances
from tests.clients import client_for, online_game
from tests.factories import VISITOR, act, make_game, play_out
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db

SHARE = re.compile(r'<span class="who seat-(\d)">([^<]*?) (\d+)\s?%</span>')


def bar(page: str) -> list[tuple[str, int]]:
    """The names and percents the bar shows, first seat first ([] when there is no bar)."""
    block = page.split('id="winbar"', 1)[1].split("</div>", 1)[0] if 'id="winbar"' in page else ""
    return [(name, int(percent)) for _, name, percent in SHARE.findall(block)]


def computer_game(strength: str = "optimal") -> Game:
    return services.start_game(VISITOR, ["", ""], mode=Game.Mode.COMPUTER, bots={1: strength})


def expected(game: Game, model) -> int:
    state = game.state()
    dice = tuple(sorted(state.turn.dice)) or None
    return round(100 * model.chances(state.cards, state.current, dice, state.turn.rolls_left)[0])


def test_a_game_against_the_computer_shows_both_chances_adding_up_to_100(win_models):
    game = computer_game()
    page = client_for().get(f"/game/{game.id}/").text
    shares = bar(page)
    assert [name for name, _ in shares] == ["You", "Computer (perfect)"]
    assert sum(percent for _, percent in shares) == 100
    assert shares[0][1] == expected(game, win_models[game.rules])
    assert '<a class="winbar-title" href="/guide/#win-chance"' in page  # it says what it is
    assert ">Chance to win:</a>" in page
    guide = client_for().get("/guide/").text
    assert '<dt id="win-chance">What is the chance to win?</dt>' in guide
    assert "as if both played perfectly for points from here" in guide
    spanish = client_for().get("/guide/", headers={"Accept-Language": "es"}).text
    assert "¿Qué es la probabilidad de ganar?" in spanish
    assert (
        "así que empieza cerca del 50% juegue quien juegue" in spanish
    )  # its % as the tag looks it up
    assert "css/winbar" in page  # its styles, linked by the pages that can show it
    # A drawn bar too, its two parts as wide as the figures, without a style attribute (CSP).
    drawn = page.split('class="winbar-bar"', 1)[1].split("</svg>", 1)[0]
    assert f'width="{shares[0][1]}"' in drawn and f'width="{shares[1][1]}"' in drawn
    assert "style=" not in drawn


def test_the_bar_follows_each_roll_and_not_a_hold(win_models):
    game = computer_game()
    before = bar(client_for().get(f"/game/{game.id}/").text)
    act(game, "roll", dice=[6, 6, 6, 6, 6])
    game.refresh_from_db()
    after = bar(client_for().get(f"/game/{game.id}/").text)
    assert after[0][1] > before[0][1]  # a Yahtzee on the first roll
    assert after[0][1] == expected(game, win_models[game.rules])
    act(game, "hold", die=0, held=True)
    assert bar(client_for().get(f"/game/{game.id}/").text) == after


def test_the_bar_in_spanish(win_models):
    game = computer_game()
    client = client_for()
    client.cookies["django_language"] = "es"
    page = client.get(f"/game/{game.id}/", headers={"Accept-Language": "es"}).text
    assert "Probabilidad de ganar:" in page
    assert [name for name, _ in bar(page)] == ["Tú", "Máquina (perfecta)"]


def test_a_pass_the_phone_game_of_two_shows_it_and_of_three_does_not(win_models):
    two = services.start_game(VISITOR, ["Ana", "Bo"], mode=Game.Mode.LOCAL)
    shares = bar(client_for().get(f"/game/{two.id}/").text)
    assert [name for name, _ in shares] == ["Ana", "Bo"]
    assert sum(percent for _, percent in shares) == 100
    three = services.start_game(VISITOR, ["Ana", "Bo", "Cy"], mode=Game.Mode.LOCAL)
    assert bar(client_for().get(f"/game/{three.id}/").text) == []


def test_no_bar_in_a_solo_game(win_models):
    game = make_game()
    act(game, "roll", dice=[1, 2, 3, 4, 6])
    page = client_for().get(f"/game/{game.id}/").text
    assert bar(page) == [] and "Chance to win" not in page
    assert "css/winbar" not in page  # nor its styles: the page weighs what it did


def test_online_players_go_without_it_and_watchers_see_it(win_models):
    game, ana, bo = online_game()
    page = ana.get(f"/game/{game.id}/").text
    assert bar(page) == [] and "css/winbar" not in page
    assert bar(bo.get(f"/game/{game.id}/").text) == []
    shares = bar(client_for("stranger").get(f"/game/{game.id}/").text)
    assert [name for name, _ in shares] == ["Ana", "Bo"]
    assert sum(percent for _, percent in shares) == 100


def test_no_bar_for_a_berserk_tournament_seat(win_models):
    game = computer_game()
    Seat.objects.filter(game=game, position=0).update(berserk=True)
    assert bar(client_for().get(f"/game/{game.id}/").text) == []


def test_no_chances_for_a_rule_set_without_a_win_model(win_models):
    assert position_chances(GameState.new(2, rules=MAXI_YATZY)) is None  # six dice: none
    assert winchance.model(YATZY, wait=True) is not None  # five: every other game has one
    assert position_chances(GameState.new(2, rules=YATZY)) == pytest.approx((0.5, 0.5), abs=0.01)
    assert position_chances(GameState.new(2, rules=YAHTZEE)) == pytest.approx((0.5, 0.5), abs=0.01)


def test_no_bar_while_the_models_moments_are_missing(win_models, tmp_path, monkeypatch):
    table = storage.table_path(YAHTZEE)
    (tmp_path / table.name).symlink_to(table)  # the points table, not yet the moments
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    game = computer_game()
    page = client_for().get(f"/game/{game.id}/").text
    assert "Computer (perfect)" in page and bar(page) == [] and "css/winbar" not in page


def test_a_page_drawn_while_the_model_loads_goes_without_the_bar(win_models, tmp_path, monkeypatch):
    for file in storage.cache_dir().glob(f"{storage.table_path(YAHTZEE).stem}*.npy"):
        (tmp_path / file.name).symlink_to(file.resolve())
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))  # a process that has not loaded it yet
    game = computer_game()
    started = time.monotonic()
    first = client_for().get(f"/game/{game.id}/").text
    assert bar(first) == []
    assert time.monotonic() - started < 1  # it did not wait for the load
    assert "css/winbar" in first  # the bar a push brings once it is loaded has its styles
    wait_until(lambda: winchance.model(YAHTZEE) is not None, "the model to load", timeout=60)
    assert len(bar(client_for().get(f"/game/{game.id}/").text)) == 2


def test_a_watchers_push_after_a_roll_carries_the_new_chances(win_models):
    game, ana, _ = online_game()
    first = game.ordered_seats()[game.state().current].visitor
    act(game, "roll", visitor=first, dice=[6, 6, 6, 6, 6])
    game = Game.objects.prefetch_related("seats").get(pk=game.pk)
    parts, onlookers = redrawn(Change(action="roll"), game)
    message = GameChanged(parts=list(parts), onlookers=list(onlookers), mover=first)
    html = render_context(game, None, {"language": "en", "csrf_token": "x"}, message)
    assert 'id="winbar" class="winbar" hx-swap-oob="innerHTML"' in html
    shares = bar(html)
    assert sum(percent for _, percent in shares) == 100
    assert shares[0][1] == expected(game, win_models[game.rules])
    # A hold changes no chance: it is not pushed again.
    parts, onlookers = redrawn(Change(action="hold"), game)
    assert "winbar" not in onlookers


@pytest.fixture
def two_player_game(win_models) -> Game:
    game = services.start_game(VISITOR, ["Ana", "Bo"], mode=Game.Mode.LOCAL)
    return play_out(game)


def test_the_replay_shows_the_chances_at_every_step(two_player_game):
    game = two_player_game
    client = client_for()
    first = bar(client.get(f"/game/{game.id}/replay/?at=0").text)
    assert [name for name, _ in first] == ["Ana", "Bo"]
    assert sum(percent for _, percent in first) == 100
    last_page = client.get(f"/game/{game.id}/replay/").text
    last = re.search(r'max="(\d+)"', last_page)[1]
    end = bar(client.get(f"/game/{game.id}/replay/?at={last}").text)
    state = game.state()
    winner = max(range(2), key=lambda seat: state.cards[seat].total)
    tie = state.cards[0].total == state.cards[1].total
    assert end[winner][1] == (50 if tie else 100)


def test_the_game_page_of_a_finished_game_shows_the_result_not_the_bar(two_player_game):
    assert bar(client_for().get(f"/game/{two_player_game.id}/").text) == []


def test_the_analysis_draws_the_first_players_chances_through_the_game(two_player_game):
    game = two_player_game
    page = client_for().get(f"/game/{game.id}/analysis/").text
    assert "Chances to win through the game" in page
    assert '<span class="who seat-0">Ana</span>' in page
    assert '<span class="who seat-1">Bo</span>' in page
    chart = page.split('class="chart win-chart"', 1)[1].split("</svg>", 1)[0]
    positions = sum(a.kind != "hold" for a in game.actions.all()) + 1
    assert chart.count("<circle") == positions
    percents = [int(p) for p in re.findall(r"<title>(\d+)%</title>", chart)]
    assert percents[0] == 50  # two empty cards: even, whoever starts
    assert all(0 <= p <= 100 for p in percents) and len(set(percents)) > 3
    ana, bo = (card.total for card in game.state().cards)
    end = 100 if ana > bo else 50 if ana == bo else 0
    assert percents[-1] == end
    assert f"Ana {end}%, Bo {100 - end}%" in chart  # what a screen reader says of it


def test_no_chances_chart_for_a_solo_game(win_models, strategy_tables):
    game = play_out(make_game())
    page = client_for().get(f"/game/{game.id}/analysis/").text
    assert "win-chart" not in page


def test_the_form_offers_the_computer_playing_to_win(win_models):
    page = client_for().get("/").text
    assert "Computer playing to win" in page
    assert 'value="to-win"' in page


def test_the_computer_playing_to_win_plays_the_models_best_moves(win_models):
    response = client_for().post("/new/", {"mode": "computer", "strength": "to-win"})
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    assert [seat.bot for seat in game.ordered_seats()] == ["", "to-win"]
    rng = random.Random(11)
    while game.status != Game.Status.FINISHED:
        act(game, "roll", dice=[rng.randint(1, 6) for _ in range(5)])
        game.refresh_from_db()
        act(game, "score", box=rng.choice(sorted(game.state().options())))
        game.refresh_from_db()
    model = win_models[game.rules]
    state, checked = GameState.new(2, rules=game.rules), 0
    for seat, kind, payload in game.actions.order_by("seq").values_list("seat", "kind", "payload"):
        if seat == 1 and kind in ("roll", "score") and state.turn.dice:
            turn = state.turn
            best = model.best_move(state.cards, 1, turn.dice, turn.rolls_left)
            if best[0] == "keep" and len(best[1]) == len(turn.dice):
                best = model.best_move(state.cards, 1, turn.dice, 0)  # no roll of nothing
            played = ("keep", turn.kept) if kind == "roll" else ("score", payload["box"])
            assert played == best
            checked += 1
        state = state.apply(seat, kind, payload)
    assert checked >= 13


def test_no_game_against_it_while_its_model_is_missing(win_models, tmp_path, monkeypatch):
    table = storage.table_path(YAHTZEE)
    (tmp_path / table.name).symlink_to(table.resolve())  # the points table only
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    response = client_for().post("/new/", {"mode": "computer", "strength": "to-win"})
    assert response.status_code == 409
    assert "The computer is still getting ready" in response.text
    assert not Game.objects.exists()


def test_the_hint_says_when_the_best_move_for_points_is_not_the_best_to_win(win_models):
    # Bo first, then Ana, around one phone; Ana, far behind with Chance and Yahtzee left, has
    # 6 6 6 5 4 and one roll left: Chance scores most, a Yahtzee is what could still win.
    game = services.start_game(VISITOR, ["Bo", "Ana"], mode=Game.Mode.LOCAL)
    bo_boxes = [box for box in CATEGORIES if box != "yahtzee"]
    ana_boxes = [box for box in CATEGORIES if box not in ("yahtzee", "chance")]
    strong = {"sixes"}  # Bo 52 before his last box: Ana, at 17, needs more than Chance
    for turn in range(12):
        bo = bo_boxes[turn]
        act(game, "roll", dice=[6, 6, 6, 6, 5] if bo in strong else [1, 2, 3, 5, 6])
        act(game, "score", box=bo)
        if turn < 11:
            act(game, "roll", dice=[1, 2, 3, 5, 6])
            act(game, "score", box=ana_boxes[turn])
    act(game, "roll", dice=[6, 6, 6, 5, 4])
    act(game, "roll", dice=[6, 6, 6, 5, 4])
    game.refresh_from_db()
    state = game.state()
    advisor = advice.advisor(game.rules)
    split = points_vs_win(win_models[game.rules], advisor, state.cards, 1, state.turn.dice, 1)
    assert split == (("score", "chance"), ("keep", (6, 6, 6)))
    page = client_for().get(f"/game/{game.id}/?hint=1").text
    assert "For points: Score Chance now (27 points); to win: Keep 6 6 6 and roll." in page
    spanish = client_for().get(f"/game/{game.id}/?hint=1", headers={"Accept-Language": "es"})
    assert (
        "Para sumar puntos: Anotar en Suerte ahora (27 puntos); para ganar: Guardar 6 6 6 y "
        "tirar." in spanish.text
    )
    # Not where both agree: at the start of the game.
    first = services.start_game(VISITOR, ["Bo", "Ana"], mode=Game.Mode.LOCAL)
    act(first, "roll", dice=[6, 6, 6, 5, 4])
    assert "For points:" not in client_for().get(f"/game/{first.id}/?hint=1").text


def decision(loss: float, chance_lost: float | None, best_chance: float | None) -> Decision:
    """A decision that lost these points and this much of its best chance to win."""
    chance = None if chance_lost is None else best_chance - chance_lost
    position = (0, 1, Scorecard(), (1, 2, 3, 4, 6), (False,) * 5, 2)
    return Decision(*position, ("keep", ()), 200 - loss, ("keep", (1, 2, 3, 4)), 200,
                    chance, best_chance)  # fmt: skip


@pytest.mark.parametrize(
    ("loss", "chance_lost", "best_chance", "grade"),
    [
        (0.0, 0.016, 0.5, "inaccuracy"),  # best for points, not to win
        (12.0, 0.0, 0.5, "fine"),  # the move that wins most often, whatever its points
        (0.0, 0.04, 0.5, "mistake"),
        (0.0, 0.07, 0.9, "blunder"),
        (12.0, 0.004, 0.005, "blunder"),  # a decided game: the points alone
        (12.0, 0.0, 0.999, "blunder"),
        (2.0, None, None, "inaccuracy"),  # not a game of two: the points
    ],
)
def test_a_decision_of_a_game_of_two_is_graded_by_the_chance_it_gave_away(
    loss, chance_lost, best_chance, grade
):
    assert grade_of(decision(loss, chance_lost, best_chance)) == grade


def game_with_a_keep_for_points_not_to_win() -> Game:
    """Bo, then Ana around one phone; in round 12 Ana, ahead with Chance and Yahtzee left, keeps
    1 1 1 for the points where keeping nothing wins more often; then both finish."""
    game = services.start_game(VISITOR, ["Bo", "Ana"], mode=Game.Mode.LOCAL)
    bo_boxes = [box for box in CATEGORIES if box != "yahtzee"] + ["yahtzee"]
    ana_boxes = [box for box in CATEGORIES if box not in ("yahtzee", "chance")]
    for turn in range(13):
        act(game, "roll", dice=[1, 2, 3, 5, 6])
        act(game, "score", box=bo_boxes[turn])
        if turn < 11:
            act(game, "roll", dice=[1, 2, 3, 5, 6])
            act(game, "score", box=ana_boxes[turn])
        elif turn == 11:
            act(game, "roll", dice=[1, 1, 1, 2, 3])
            act(game, "roll", dice=[1, 1, 1, 2, 3])
            for die in range(3):
                act(game, "hold", die=die, held=True)
            act(game, "roll", dice=[4, 5])
            act(game, "score", box="chance")
        else:
            act(game, "roll", dice=[2, 3, 4, 5, 6])
            act(game, "score", box="yahtzee")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_the_analysis_of_a_game_of_two_shows_the_chance_lost_and_grades_by_it(win_models):
    game = game_with_a_keep_for_points_not_to_win()
    page = client_for().get(f"/game/{game.id}/analysis/?seat=1").text
    assert "Chance to win lost" in page and "graded by the chance to win" in page
    rows = re.findall(r'<tr class="(\w+)">(.*?)</tr>', page.split('class="decisions"')[1], re.S)
    twelfth = [(grade, row) for grade, row in rows if "<td>12</td>" in row]
    # Holding nothing first: 3 points lost, yet the best chance to win; then 1 1 1 held: no
    # point lost, 1.6 in a hundred of the chance to win.
    assert [grade for grade, _ in twelfth[:2]] == ["fine", "inaccuracy"]
    lost = r'<span class="grade \w+">([\d.]+%?)</span>'
    assert re.findall(lost, twelfth[0][1]) == ["3.0", "0.0%"]
    assert re.findall(lost, twelfth[1][1]) == ["0.0", "1.6%"]
    spanish = (
        client_for()
        .get(f"/game/{game.id}/analysis/?seat=1", headers={"Accept-Language": "es"})
        .text
    )
    assert "Probabilidad de ganar perdida" in spanish and "se juega para ganar" in spanish
    assert re.search(r"Probabilidad de ganar perdida: \d+,\d\u00a0%\.", spanish)  # costliest


def test_the_analysis_of_a_solo_game_grades_by_points_alone(win_models, strategy_tables):
    game = play_out(make_game())
    page = client_for().get(f"/game/{game.id}/analysis/").text
    assert "Chance to win lost" not in page and "graded by the chance to win" not in page
