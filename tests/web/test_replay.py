"""The replay of a finished game with the coach, who may see it, sharing it, and practice."""

from __future__ import annotations

import re

import pytest

from engine.analysis import analyse, classify, decision_point
from engine.rulesets import YAHTZEE
from games.models import Game
from games.presenters.coach import move_words
from games.presenters.replay import Positions
from history.models import Summary
from tests.clients import HTMX, client_for, online_game
from tests.factories import VISITOR, finished_table, make_game, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(strategy_tables) -> Game:
    return finished_table()


def positions_of(game: Game) -> Positions:
    return Positions.of(list(game.actions.order_by("seq").values_list("seat", "kind", "payload")))


def heading(page: str) -> str:
    return re.search(r'<h2 id="decision-title">([^<]*)</h2>', page)[1]


def test_positions_are_the_rolls_and_scores_with_the_holds_folded_in(table):
    actions = list(table.actions.order_by("seq"))
    positions = Positions.of([(a.seat, a.kind, a.payload) for a in actions])
    assert any(a.kind == "hold" for a in actions)
    assert positions.last == sum(a.kind != "hold" for a in actions)
    assert all(actions[start].kind != "hold" for start in positions.starts[:-1])
    assert positions.starts[-1] == len(actions)


def test_each_step_shows_the_decision_valued_as_the_analysis_values_it(table, strategy_tables):
    """Every person's decision in the replay says what the analysis page says of it."""
    log = [(a.seat, a.kind, a.payload) for a in table.actions.order_by("seq")]
    client = client_for()
    analysis = {
        seat: analyse(log, seats=3, seat=seat, rules=YAHTZEE, advisor=strategy_tables[YAHTZEE])
        for seat in (0, 1)
    }
    decisions = {seat: iter(result.decisions) for seat, result in analysis.items()}
    actions = list(table.actions.order_by("seq"))
    positions = positions_of(table)
    checked = 0
    for at, start in enumerate(positions.starts[:40]):
        action = actions[start]
        page = client.get(f"/game/{table.id}/replay/?at={at}", headers=HTMX).text
        assert f"Position {at} of {positions.last}" in page
        if action.seat == 2:
            assert "The computer's move." in page
            continue
        first_roll = action.kind == "roll" and (start == 0 or actions[start - 1].kind == "score")
        if first_roll:
            assert heading(page) == f"{['Ana', 'Bo'][action.seat]}: First roll"
            continue
        decision = next(decisions[action.seat])
        assert f"({decision.value:.1f} expected)" in page
        if decision.loss > 1e-9:
            assert f"Points lost: {decision.loss:.1f}." in page
            assert f'<span class="grade {decision.grade}">{decision.grade}</span>' in page
        else:
            assert "The best move." in page
        checked += 1
    assert checked > 10


def test_the_last_position_is_the_game_as_it_ended(table):
    last = positions_of(table).last
    page = client_for().get(f"/game/{table.id}/replay/?at={last}").text
    assert "Game over" in page
    assert 'id="decision-title"' not in page
    for seat in table.ordered_seats():
        assert f'<td id="total-{seat.position}">{seat.card().total}</td>' in page
    assert 'aria-keyshortcuts="End" aria-disabled="true"' in page


def test_no_js_links_and_slider_go_to_their_positions(table):
    page = client_for().get(f"/game/{table.id}/replay/?at=3").text
    url = f"/game/{table.id}/replay/"
    assert f'id="replay-first" href="{url}?at=0"' in page
    assert f'id="replay-previous" href="{url}?at=2"' in page
    assert f'id="replay-next" href="{url}?at=4"' in page
    assert f'id="replay-last" href="{url}?at={positions_of(table).last}"' in page
    assert f'<form class="replay-slider" method="get" action="{url}"' in page
    assert 'type="range" id="replay-at" name="at" min="0"' in page
    assert "js/replay.js" in page


def test_htmx_gets_the_replay_area_only(table):
    page = client_for().get(f"/game/{table.id}/replay/?at=3", headers=HTMX).text
    assert page.lstrip().startswith('<div id="replay"')
    assert "<html" not in page


@pytest.mark.parametrize("at", ["-1", "abc", "1.5", "99999", "", "²"])
def test_a_position_out_of_range_or_not_a_number_is_refused(table, at):
    response = client_for().get(f"/game/{table.id}/replay/", {"at": at})
    assert response.status_code == 400
    last = positions_of(table).last
    assert f"There is no such position: choose one from 0 to {last}." in response.text
    htmx = client_for().get(f"/game/{table.id}/replay/", {"at": at}, headers=HTMX)
    assert htmx.status_code == 400
    assert htmx.headers["HX-Reswap"] == "none"  # the board stays; the message line says why


def test_an_unfinished_game_cannot_be_replayed_yet():
    game = make_game([((1, 2, 3, 4, 6), "chance")])
    response = client_for().get(f"/game/{game.id}/replay/")
    assert response.status_code == 409
    assert "A game can be replayed once it is over" in response.text


def test_a_solo_game_is_its_browsers_own_until_shared(table):
    stranger = client_for("stranger")
    for address in (f"/game/{table.id}/replay/", f"/game/{table.id}/analysis/"):
        response = stranger.get(address)
        assert response.status_code == 403, address
        assert "This game is private" in response.text
    owner = client_for()
    page = owner.get(f"/game/{table.id}/replay/?at=4", headers=HTMX).text
    assert "Share this replay" in page  # in each step's area, with the position it shows
    assert '<input type="hidden" name="at" value="4">' in page
    response = owner.post(f"/game/{table.id}/replay/share/", {"share": "1", "at": "4"})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/game/{table.id}/replay/?at=4"
    table.refresh_from_db()
    assert table.shared
    page = owner.get(f"/game/{table.id}/replay/").text
    assert f'value="http://testserver/game/{table.id}/replay/"' in page
    assert "Stop sharing" in page
    assert stranger.get(f"/game/{table.id}/replay/").status_code == 200
    assert stranger.get(f"/game/{table.id}/analysis/").status_code == 200
    # A stranger may look but not share or unshare.
    assert "Stop sharing" not in stranger.get(f"/game/{table.id}/replay/").text
    assert stranger.post(f"/game/{table.id}/replay/share/", {"share": "0"}).status_code == 403
    # Stopping twice (a double click, a stale page) is stopping once.
    for _ in range(2):
        assert owner.post(f"/game/{table.id}/replay/share/", {"share": "0"}).status_code == 303
    table.refresh_from_db()
    assert not table.shared
    assert stranger.get(f"/game/{table.id}/replay/").status_code == 403


def test_sharing_is_refused_for_bad_values_and_changes_nothing(table):
    owner = client_for()
    updated = table.updated_at
    for value in ("", "yes", "2"):
        assert owner.post(f"/game/{table.id}/replay/share/", {"share": value}).status_code == 400
    table.refresh_from_db()
    assert not table.shared
    assert table.updated_at == updated
    assert owner.get(f"/game/{table.id}/replay/share/").status_code == 405


def test_online_games_are_open_to_anyone_with_the_link(strategy_tables):
    game, _, _ = online_game()
    play_out(game)
    response = client_for("stranger").get(f"/game/{game.id}/replay/")
    assert response.status_code == 200
    assert "Anyone with this page" in response.text
    assert "Share this replay" not in response.text
    # Nor may a player share an online game: it is open already.
    assert (
        client_for("ana").post(f"/game/{game.id}/replay/share/", {"share": "1"}).status_code == 400
    )


def test_the_end_screen_and_the_analysis_link_to_the_replay(table):
    owner = client_for()
    assert f'href="/game/{table.id}/replay/">Replay<' in owner.get(f"/game/{table.id}/").text
    analysis = owner.get(f"/game/{table.id}/analysis/").text
    assert f'href="/game/{table.id}/replay/">Replay<' in analysis
    # A stranger's end screen offers neither: both would refuse them.
    stranger = client_for("stranger").get(f"/game/{table.id}/").text
    assert "/replay/" not in stranger and "/analysis/" not in stranger


def test_the_replay_in_spanish(table):
    client = client_for()
    client.cookies["django_language"] = "es"
    page = client.get(f"/game/{table.id}/replay/?at=5").text
    assert "Repetición" in page
    assert "Siguiente" in page
    assert "Compartir esta repetición" in page


# Learn from your mistakes.


def practice_position(client, n: int = 0) -> tuple[str, dict]:
    """The practice page at position ``n`` and the hidden fields naming its position."""
    page = client.get(f"/me/practice/?n={n}").text
    fields = dict(
        re.findall(r'<input type="hidden" name="(game|seat|decision)" value="([^"]*)"', page)
    )
    return page, fields


def test_practice_offers_the_costliest_decisions_worst_first(table):
    page = client_for().get("/me/practice/").text  # values the games' decisions (history)
    summaries = list(Summary.objects.of_visitor(VISITOR))
    losses = sorted((e["loss"] for s in summaries for e in s.costliest), reverse=True)[:10]
    assert losses  # the first-box strategy of the factory loses points
    assert f"Position 1 of {len(losses)}" in page
    assert "What would you do?" in page
    assert len(losses) > 1
    assert 'href="/me/practice/?n=1">Next position<' in page


def test_practice_grades_an_answer_with_the_advisors_own_numbers(table, strategy_tables):
    client = client_for()
    for n in range(3):
        page, fields = practice_position(client, n)
        game = Game.objects.get(pk=fields["game"])
        state, _, _ = decision_point(
            [(a.seat, a.kind, a.payload) for a in game.actions.order_by("seq")],
            seats=3,
            seat=int(fields["seat"]),
            index=int(fields["decision"]),
            rules=YAHTZEE,
        )
        turn, card = state.turn, state.cards[int(fields["seat"])]
        options = strategy_tables[YAHTZEE].options(card, turn.dice, turn.rolls_left)
        best_move, best_value = options[0]
        # Answer with the worst box there is: graded as the advisor values it.
        scores = [(move, value) for move, value in options if move[0] == "score"]
        worst, worst_value = scores[-1]
        answer = client.post("/me/practice/", fields | {"choice": f"box:{worst[1]}"})
        assert answer.status_code == 200
        text = answer.text
        assert f"({worst_value:.1f} expected)" in text
        loss = best_value - worst_value
        assert f"Points lost: {loss:.1f}." in text
        assert f'<span class="grade {classify(loss)}">' in text
        assert move_words(best_move, card, turn.dice) in text
        # Answering with the advisor's own best move is graded the best move.
        if best_move[0] == "keep":
            keep, wanted = [], list(best_move[1])
            for i, face in enumerate(turn.dice):
                if face in wanted:
                    wanted.remove(face)
                    keep.append(str(i))
            best_answer = {"choice": "roll", "keep": keep}
        else:
            best_answer = {"choice": f"box:{best_move[1]}"}
        best = client.post("/me/practice/", fields | best_answer)
        assert "The best move!" in best.text
        assert f"({best_value:.1f} expected)" in best.text


@pytest.mark.parametrize(
    "change",
    [
        {"decision": "999"},
        {"seat": "2"},
        {"seat": "x"},
        {"choice": "box:nope"},
        {"choice": ""},
        {"choice": "roll", "keep": ["7"]},
        {"choice": "roll", "keep": ["0", "0"]},
    ],
)
def test_practice_refuses_tampered_answers(table, change):
    client = client_for()
    _, fields = practice_position(client)
    response = client.post("/me/practice/", fields | {"choice": "box:chance"} | change)
    assert 400 <= response.status_code < 500
    assert '<p class="error" role="alert">' in response.text


def test_practice_refuses_someone_elses_positions(table):
    _, fields = practice_position(client_for())
    response = client_for("stranger").post("/me/practice/", fields | {"choice": "box:chance"})
    assert response.status_code == 403
    assert "not one of your positions" in response.text
    gone = client_for().post(
        "/me/practice/", fields | {"game": "nosuchgame", "choice": "box:chance"}
    )
    assert gone.status_code == 404
    empty = client_for().post("/me/practice/", {})
    assert empty.status_code == 400 and "which position" in empty.text


def test_practice_out_of_range_and_empty():
    stranger = client_for("nobody-yet")
    page = stranger.get("/me/practice/")
    assert page.status_code == 200
    assert "No positions to practise yet" in page.text
    table = finished_table()
    client = client_for()
    assert client.get("/me/practice/?n=99").status_code == 400
    assert client.get("/me/practice/?n=-1").status_code == 400
    assert table.status == Game.Status.FINISHED


def test_practice_links_its_position_in_the_replay(table):
    client = client_for()
    page, fields = practice_position(client)
    at = re.search(rf'href="/game/{fields["game"]}/replay/\?at=(\d+)"', page)[1]
    replay = client.get(f"/game/{fields['game']}/replay/?at={at}").text
    # The replay shows the same decision: the practice's position is the replay's there.
    dice = re.findall(r'<span class="mini-die(?: held)?">(\d)</span>', page)
    shown = re.findall(r'aria-label="Die \d: (\d)', replay)
    assert dice == shown


def test_practice_in_spanish(table):
    client = client_for()
    client.cookies["django_language"] = "es"
    page = client.get("/me/practice/").text
    assert "Aprende de tus errores" in page
    assert "¿Qué harías?" in page
    assert "Comprobar mi respuesta" in page


def test_a_replay_step_reads_the_log_once_then_from_the_cache(table, django_assert_max_num_queries):
    """A finished game's log never changes: the next steps read it from the cache."""
    client = client_for()
    client.get(f"/game/{table.id}/replay/?at=1")
    with django_assert_max_num_queries(6) as queries:
        client.get(f"/game/{table.id}/replay/?at=2", headers=HTMX)
    assert not any("games_action" in q["sql"] for q in queries.captured_queries)


def test_the_answer_stays_ticked_beside_its_grade(table):
    client = client_for()
    page, fields = practice_position(client)
    box = re.findall(r'name="choice" value="(box:\w+)" required>', page)[-1]
    answered = client.post("/me/practice/", fields | {"choice": box}).text
    assert f'name="choice" value="{box}" required checked>' in answered
    assert len(re.findall(r'name="choice" value="[^"]*" required checked>', answered)) == 1
    # A box was the answer: no die ticked to keep, whatever was held then.
    assert not re.findall(r'type="checkbox" name="keep" value="\d" checked>', answered)


def test_the_game_page_plays_moves_back_only_to_its_player_a_stranger_sees_nothing():
    from tests.clients import HTMX, client_for
    from tests.factories import make_game

    game = make_game([((1, 2, 3, 4, 6), "chance"), ((2, 2, 2, 5, 5), "full_house")])
    own = client_for().get(f"/game/{game.id}/?at=1", headers=HTMX).content.decode()
    stranger = client_for("someone-else").get(f"/game/{game.id}/?at=1", headers=HTMX)
    shown = stranger.content.decode()
    assert 'data-version="1"' in own  # after the first action, stepping on from there
    assert stranger.status_code == 403  # an unshared solo game is its browser's own
    assert "data-version" not in shown and "This game is private" in shown


def test_the_analysis_says_you_only_to_the_players_browser_and_the_name_to_anyone_else(
    strategy_tables,
):
    game, ana, bo = online_game()
    play_out(game)
    own = ana.get(f"/game/{game.id}/analysis/?seat=0").text
    assert "decisions you gave away" in own and "You played:" in own
    for reader, seat in ((bo, 0), (client_for("stranger"), 0)):
        page = reader.get(f"/game/{game.id}/analysis/?seat={seat}").text
        assert "you gave away" not in page and "You played" not in page
        assert "decisions Ana gave away" in page and "Ana played:" in page
        assert "added to the player" in page and "your expected" not in page
    spanish = client_for("stranger").get(
        f"/game/{game.id}/analysis/?seat=1", headers={"Accept-Language": "es"}
    )
    assert "que perdió Bo en" in spanish.text and "Jugada de Bo:" in spanish.text


def test_a_shared_solo_games_analysis_names_no_one_you_to_a_stranger(strategy_tables):
    game = play_out(make_game())
    owner = client_for()
    assert "you gave away" in owner.get(f"/game/{game.id}/analysis/").text
    owner.post(f"/game/{game.id}/replay/share/", {"share": "1"})
    page = client_for("stranger").get(f"/game/{game.id}/analysis/").text
    assert "you gave away" not in page and "decisions Player gave away" in page
    assert "Game analysis: Player" in page
