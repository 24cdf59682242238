"""Making and playing every variant through the pages: the home page's choice, the game page's
card and dice for any rule set, and the refusals of what a variant has not (each 4xx, in words,
nothing changed)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from engine.rulesets import (
    MAXI_YATZY,
    MAXI_YATZY_SAVED,
    RULE_SETS,
    YAHTZEE,
    YAHTZEE_NO_BONUS,
    YATZY,
    YATZY_IN_ORDER,
)
from games import advice
from games.models import Game
from tests.clients import FORM_POST, HTMX, client_for, refusal_text, url
from tests.factories import act, make_game, play_out

pytestmark = pytest.mark.django_db


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    seats = [(s.scores, s.saved_rolls) for s in game.seats.order_by("position")]
    return (game.step, game.dice, game.held, game.rolls, game.log_length, seats)


def test_the_home_page_offers_every_variant_in_each_form():
    page = Client().get("/").text
    for form in ("solo_variant", "computer_variant", "id_variant"):
        select = re.search(rf'<select name="variant" id="{form}">(.*?)</select>', page, re.S)
        assert select, form
        assert re.findall(r'value="([^"]+)"', select.group(1)) == list(RULE_SETS)
    with translation.override("es"):
        page = Client(headers={"Accept-Language": "es"}).get("/").text
    assert "Maxi Yatzy, tiradas guardadas" in page and "Yatzy, en orden" in page


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
@pytest.mark.parametrize("mode", ["solo", "local"])
def test_each_variant_is_made_and_its_page_shows_its_card(mode, rules):
    client = client_for()
    data = {"mode": mode, "variant": rules.key}
    if mode == "local":
        data |= {"name_1": "Ana", "name_2": "Bo"}
    response = client.post("/new/", data)
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.rules is rules and game.mode == mode
    page = client.get(response["Location"]).text
    assert f"Round 1 of {rules.turns}" in page
    assert page.count('id="die-') == rules.dice
    boxes = re.findall(r'<tr id="box-([a-z_]+)"', page)
    assert boxes == list(rules.keys)
    bonus = rules.upper_bonus
    assert f"Bonus {bonus.points} ({bonus.threshold} or more)" in page
    assert ('id="yahtzee-bonus"' in page) is rules.joker


def test_a_computer_game_of_a_variant_plays_it():
    client = client_for()
    client.post("/new/", {"mode": "computer", "strength": "beginner", "variant": MAXI_YATZY.key})
    game = Game.objects.get()
    assert game.rules is MAXI_YATZY and game.ordered_seats()[1].bot == "beginner"


@pytest.mark.usefixtures("maxi_unsolved")
@pytest.mark.parametrize("strength", ["optimal", "club"])
def test_a_strong_computer_of_a_variant_with_no_table_is_refused(strength):
    rules = MAXI_YATZY
    data = {"mode": "computer", "strength": strength, "variant": rules.key}
    response = client_for().post("/new/", data)
    assert response.status_code == 400
    assert (
        f"The computer plays {rules.name} only as the beginner: choose the beginner."
        in response.text
    )
    local = {"mode": "local", "variant": rules.key, "name_1": "Ana", "kind_2": strength}
    assert client_for().post("/new/", local).status_code == 400
    assert not Game.objects.exists()


@pytest.mark.parametrize("key", ["chess", "maxi-saved-rolls", ""])
def test_an_unknown_variant_is_refused_in_words(key):
    if not key:  # no choice at all: a form from before the choice, Yahtzee
        client_for().post("/new/", {"mode": "solo"})
        assert Game.objects.get().rules is YAHTZEE
        return
    response = client_for().post("/new/", {"mode": "solo", "variant": key})
    assert response.status_code == 400
    assert f"Choose a game from the list: “{key}” is not one of them." in response.text
    assert not Game.objects.exists()


def test_multiple_yahtzees_off_is_a_choice_of_its_own():
    client_for().post("/new/", {"mode": "solo", "variant": "no-multiple"})
    assert Game.objects.get().rules is YAHTZEE_NO_BONUS


def test_in_order_the_card_offers_only_the_next_box_and_says_so():
    game = make_game([((1, 1, 2, 3, 4), "ones")], rules=YATZY_IN_ORDER)
    act(game, "roll", dice=(2, 2, 5, 5, 6))
    page = client_for().get(f"/game/{game.id}/").text
    assert "In order: each turn scores the next box down the card." in page
    assert re.findall(r'href="\?select=([a-z_]+)"', page) == ["twos"]


def test_saved_rolls_are_shown_and_counted_down():
    game = make_game([((1, 2, 3, 4, 5, 6), "chance")], rules=MAXI_YATZY_SAVED)
    page = client_for().get(f"/game/{game.id}/").text
    assert "Saved rolls: the rolls a turn leaves unused" in page
    assert "2 saved rolls" in page
    for _ in range(4):
        act(game, "roll", dice=(6, 6, 6, 6, 6, 6))
    page = client_for().get(f"/game/{game.id}/").text
    assert "1 saved roll<" in page and "Roll again (1 left)" in page


@pytest.mark.parametrize("headers", [HTMX, FORM_POST], ids=["htmx", "form"])
@pytest.mark.parametrize(
    ("rules", "kind", "data", "message"),
    [
        (YAHTZEE, "score", {"box": "castle"}, "There is no box called “castle”."),
        (YATZY, "score", {"box": "yahtzee"}, "There is no box called “yahtzee”."),
        (MAXI_YATZY, "score", {"box": "yatzy"}, "There is no box called “yatzy”."),
        (
            YAHTZEE,
            "hold",
            {"die": "5", "held": "1"},
            "There is no such die: choose one of the five",
        ),
        (
            MAXI_YATZY,
            "hold",
            {"die": "6", "held": "1"},
            "There is no such die: choose one of the six",
        ),
        (YAHTZEE, "roll", {"held": "000000"}, "There is no such die: choose one of the five."),
        (YAHTZEE, "roll", {"held": "0000000"}, "There is no such die: a game has five or six."),
        (YAHTZEE, "roll", {"held": "00x00"}, "Say whether to hold or release the die."),
        (MAXI_YATZY, "roll", {"held": "00000"}, "There is no such die: choose one of the six."),
        (MAXI_YATZY, "roll", {}, "No rolls left: choose a box to score."),
    ],
)
def test_what_a_variant_has_not_is_refused_and_changes_nothing(rules, kind, data, message, headers):
    game = make_game(rules=rules)
    for _ in range(3 if data == {} else 1):
        act(game, "roll", dice=(1, 2, 3, 4, 5, 6)[: rules.dice])
    before = snapshot(game)
    client = client_for()
    response = client.post(url(game, kind), {"step": game.step, **data}, headers=headers)
    assert message in refusal_text(client, response, 400)
    assert snapshot(game) == before


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_the_blank_sheet_of_each_variant_has_its_boxes_and_bonus(rules):
    sheet = Client().get("/sheet/", {"variant": rules.key}).text
    totals = 3 + rules.joker  # upper total, bonus, (Yahtzee bonus), total
    assert sheet.count('<td class="cell">') == 6 * (rules.turns + totals)
    bonus = rules.upper_bonus
    assert f"{bonus.threshold} or more: {bonus.points}" in sheet
    assert (f'<p class="print-title">{rules.name}</p>') in sheet


def test_a_games_sheet_follows_its_variant_and_an_unknown_one_is_refused():
    game = make_game([((2, 2, 5, 5, 6, 6), "three_pairs")], rules=MAXI_YATZY_SAVED)
    sheet = client_for().get(f"/game/{game.id}/sheet/").text
    assert "Three pairs" in sheet and '<td class="cell">26</td>' in sheet
    assert "Saved rolls: the rolls a turn leaves unused" in sheet
    response = Client().get("/sheet/", {"variant": "chess"})
    assert response.status_code == 400
    assert "Choose a game from the list: “chess” is not one of them." in response.text


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Castle", "Two sets of three alike: the sum of all six dice.", "50 points when"]),
        ("es", ["Castillo", "Dos tríos de caras distintas", "50 puntos cuando"]),
    ],
)
def test_the_guide_has_a_section_per_variant(language, words):
    guide = Client().get("/guide/", headers={"Accept-Language": language}).text
    for key in RULE_SETS:
        assert f'id="rules-{key}"' in guide
    for word in words:
        assert word in guide
    maxi = guide[guide.index('id="rules-maxi"') : guide.index('id="in-order"')]
    assert re.search(r"<td>21</td>", maxi)  # the full straight's example, scored by the rules
    assert "84" in maxi and "<td>100</td>" in maxi  # six alike: Maxi Yatzy's 100


@pytest.mark.usefixtures("maxi_unsolved")
def test_the_coach_is_offered_only_where_the_perfect_player_knows_the_rules():
    rules = MAXI_YATZY
    game = make_game(rules=rules)
    act(game, "roll", dice=(1, 2, 3, 4, 5, 6)[: rules.dice])
    client = client_for()
    page = client.get(f"/game/{game.id}/").text
    assert 'class="button hint-button"' not in page and 'class="odds"' not in page
    before = snapshot(game)
    response = client.get(f"/game/{game.id}/?hint=1")
    assert response.status_code == 404
    assert f"{rules.name} has no coach yet" in response.text
    assert snapshot(game) == before
    over = play_out(make_game(rules=rules))
    response = client.get(f"/game/{over.id}/analysis/")
    assert response.status_code == 404
    assert f"{rules.name} has no coach yet" in response.text
    assert "Analyse my game" not in client.get(f"/game/{over.id}/").text
    assert "Analysis" not in client.get(f"/game/{over.id}/replay/").text


def test_a_coach_that_is_not_exact_says_so():
    inexact = [
        rules
        for rules in RULE_SETS.values()
        if advice.offered(rules) and advice.is_ready(rules) and not advice.exact(rules)
    ]
    if not inexact:
        pytest.skip("no coach here answers a rule set from another's table")
    game = make_game(rules=inexact[0])
    act(game, "roll", dice=(1, 2, 3, 4, 5, 6)[: inexact[0].dice])
    page = client_for().get(f"/game/{game.id}/?hint=1").text
    assert "is strong but not exact" in page


@pytest.mark.usefixtures("maxi_unsolved")
def test_the_home_page_names_a_games_variant_and_the_games_only_the_beginner_plays():
    make_game(rules=MAXI_YATZY)
    home = client_for().get("/").text
    assert "Continue: Solo · Maxi Yatzy · round 1" in home
    names = ", ".join(rules.name for rules in (MAXI_YATZY, MAXI_YATZY_SAVED))
    assert f"whose perfect strategy is worked out, not yet {names}." in home


@pytest.mark.parametrize("rules", [YATZY, MAXI_YATZY_SAVED], ids=lambda rules: rules.key)
def test_the_replay_and_the_card_of_a_finished_variant(rules):
    game = play_out(make_game(rules=rules))
    client = client_for()
    beyond = client.get(f"/game/{game.id}/replay/", {"at": 100_000}).text
    last = int(re.search(r"choose one from 0 to (\d+)", beyond)[1])
    for at in (0, 1, last // 2, last):
        page = client.get(f"/game/{game.id}/replay/", {"at": at})
        assert page.status_code == 200
        assert rules.labels[rules.keys[-1]] in page.text  # its card's last box
        assert ("Analysis" in page.text) is advice.offered(rules)
    sheet = client.get(f"/game/{game.id}/sheet/").text
    total = game.state().cards[0].total
    assert f'<td class="cell">{total}</td>' in sheet


def test_the_coach_of_yatzy_and_of_play_in_order(strategy_tables):
    game = make_game(rules=YATZY)
    act(game, "roll", dice=(5, 5, 5, 2, 3))
    client = client_for()
    page = client.get(f"/game/{game.id}/").text
    odds = re.search(r'<div class="odds">(.*?)</div>', page, re.S)[1]
    assert "Yatzy <strong>" in odds and "One pair <strong>" in odds
    assert "Yahtzee" not in odds and "Chance" not in odds
    hint = client.get(f"/game/{game.id}/?hint=1", headers=HTMX).text
    assert "Best moves now" in hint and "Keep 5 5 5 and roll" in hint
    in_order = make_game([((1, 1, 2, 3, 4), "ones")], rules=YATZY_IN_ORDER)
    act(in_order, "roll", dice=(2, 2, 5, 5, 6))
    page = client.get(f"/game/{in_order.id}/").text
    odds = re.search(r'<div class="odds">(.*?)</div>', page, re.S)[1]
    assert re.findall(r"<li>(\w+) <strong>", odds) == ["Twos"]


def test_the_analysis_and_the_replays_coach_of_a_yatzy_game(strategy_tables):
    game = play_out(make_game(rules=YATZY_IN_ORDER))
    client = client_for()
    page = client.get(f"/game/{game.id}/analysis/")
    assert page.status_code == 200
    worth = round(strategy_tables[YATZY_IN_ORDER].new_game_value, 1)
    assert f"A new game is worth {worth} points on average with perfect play." in page.text
    assert "is strong but not exact" not in page.text
    replay = client.get(f"/game/{game.id}/replay/", {"at": 1}).text  # the first roll, graded
    assert "Chosen: " in replay and " expected)." in replay


def test_the_perfect_computer_plays_yatzy_by_its_table(strategy_tables):
    client = client_for()
    data = {"mode": "computer", "strength": "optimal", "variant": YATZY.key}
    assert client.post("/new/", data).status_code == 302
    game = Game.objects.get()
    act(game, "roll", dice=(6, 6, 6, 6, 6))
    act(game, "score", box="yatzy")
    game.refresh_from_db()
    computer = game.state().cards[1]
    assert game.current_seat == 0 and computer.turns_played == 1
    assert set(computer.boxes) <= set(YATZY.keys)


@pytest.mark.parametrize(
    ("language", "maxi", "yatzy"),
    [("en", "<td>Maxi Yatzy</td><td>361.97</td>", "<td>Yatzy</td><td>248.44</td>"),
     ("es", "<td>Maxi Yatzy</td><td>361,97</td>", "<td>Yatzy</td><td>248,44</td>")],
)  # fmt: skip
def test_the_guide_states_what_perfect_play_scores_in_every_game(language, maxi, yatzy):
    guide = Client().get("/guide/", headers={"Accept-Language": language}).text
    table = guide[guide.index('id="perfect-scores"') : guide.index('id="rules-maxi-saved"')]
    assert maxi in table and yatzy in table
    assert table.count("<tr><td>") == 6  # every game with its own table: saved rolls has none


@pytest.mark.parametrize("rules", [MAXI_YATZY, MAXI_YATZY_SAVED], ids=lambda rules: rules.key)
def test_the_computer_playing_to_win_plays_no_six_dice_game(rules):
    """Win chances are worked out for five dice: the strength is refused in words for Maxi
    Yatzy, with or without its table, never a wait that does not end (409)."""
    assert not advice.bot_offered("to-win", rules) and advice.bot_offered("beginner", rules)
    data = {"mode": "computer", "strength": "to-win", "variant": rules.key}
    response = client_for().post("/new/", data)
    assert response.status_code == 400
    if advice.offered(rules):  # its table built here: only this strength is refused
        assert "The computer plays to win in five-dice games only: choose another." in response.text
    else:
        assert f"The computer plays {rules.name} only as the beginner: choose the beginner." in (
            response.text
        )
    assert not Game.objects.exists()


@pytest.mark.parametrize("path", ["/sheet/?variant=", "/me/games/?game="])
def test_an_unknown_game_is_quoted_short_and_printable(path):
    """An edited address or form sent a key of thousands of characters (and a NUL): it was
    quoted whole, pushing a phone's page sideways. The first 24 printable ones are quoted."""
    answer = client_for().get(path + "x" * 3000 + "%00y")
    assert answer.status_code == 400
    assert f"Choose a game from the list: “{'x' * 24}…” is not one of them." in answer.text
    main = answer.text[answer.text.index("<main") : answer.text.index("</main>")]
    assert "x" * 25 not in main and "\0" not in main


def test_an_unknown_game_posted_on_the_home_page_is_quoted_short():
    answer = client_for().post("/new/", {"mode": "solo", "variant": "maxi\0" + "z" * 5000})
    assert answer.status_code == 400
    assert f"“maxi{'z' * 20}…” is not one of them." in answer.text
    main = answer.text[answer.text.index("<main") : answer.text.index("</main>")]
    assert "z" * 21 not in main and "\0" not in main
    assert not Game.objects.exists()


def test_the_end_of_a_game_names_its_game():
    """ "Game over / Final score: 199 points" did not say it was Yatzy (a first-time player)."""
    game = play_out(make_game(rules=YATZY))
    page = client_for().get(f"/game/{game.id}/").text
    end = page[page.index('id="game-over"') : page.index("final-total")]
    assert '<a href="/guide/#rules-yatzy">Yatzy</a>' in end
    yahtzee = client_for().get(f"/game/{play_out(make_game()).id}/").text
    assert "variant-name" not in yahtzee  # the site's own game goes unnamed
