"""Every action through the test client, on the htmx path and the plain (no JavaScript) path."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from core.appendonly import AppendOnly
from engine.rules import CATEGORIES
from games import services
from games.models import Action, Game
from tests.clients import FORM_POST, HTMX, client_for, online, refusal_text, url
from tests.factories import VISITOR, act, fill_all_but, make_game, play_out

pytestmark = pytest.mark.django_db


def snapshot(game: Game) -> tuple:
    """Everything stored about a game: its row, its cards, its log."""
    game.refresh_from_db()
    seats = [(s.scores, s.yahtzee_bonus) for s in game.seats.order_by("position")]
    log = list(game.actions.values_list("seq", "kind", "payload"))
    return (game.step, game.dice, game.held, game.rolls, game.status, seats, log)


def test_home_offers_a_new_game_and_then_continue():
    client = Client()
    response = client.get("/")
    assert response.status_code == 200
    assert "Start a new game" in response.text
    assert "Continue" not in response.text
    response = client.post("/new/", {"multiple_yahtzees": "on"})
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/game/{game.id}/"
    assert game.rules_key == "official"
    assert "Continue: Solo · round 1" in client.get("/").text


def test_new_game_with_multiple_yahtzees_off():
    Client().post("/new/", {"mode": "solo", "variant": "no-multiple"})
    assert Game.objects.get().rules_key == "no-multiple"


def test_plain_roll_redirects_and_the_page_shows_the_dice():
    game = make_game()
    client = client_for()
    response = client.post(url(game, "roll"), {"step": 0, "held": "00000"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert len(game.dice) == 5 and all(1 <= d <= 6 for d in game.dice)
    page = client.get(response["Location"]).text
    for number, face in enumerate(game.dice, start=1):
        assert f'aria-label="Die {number}: {face}"' in page
    assert "Roll again (2 left)" in page


def test_htmx_roll_swaps_dice_card_status_and_messages():
    game = make_game()
    response = client_for().post(url(game, "roll"), {"step": 0, "held": "00000"}, headers=HTMX)
    assert response.status_code == 200
    swapped = re.findall(r'id="(\w+)"[^>]*hx-swap-oob="innerHTML"', response.text)
    assert swapped == ["dice", "coach", "card", "status", "messages"]
    game.refresh_from_db()
    assert f"Rolled {' '.join(map(str, game.dice))}. 2 rolls left." in response.text


def test_hold_and_release_a_die():
    game = make_game()
    act(game, "roll", dice=[3, 3, 1, 5, 3])
    client = client_for()
    response = client.post(url(game, "hold"), {"step": 1, "die": 4, "held": "1"}, headers=HTMX)
    assert response.status_code == 200
    assert re.findall(r'id="(\w+)"[^>]*hx-swap-oob', response.text) == ["dice", "coach", "messages"]
    assert re.search(r'id="die-4"[^>]*aria-pressed="true"', response.text, re.S)
    game.refresh_from_db()
    assert game.held == [False, False, False, False, True]
    response = client.post(url(game, "hold"), {"step": 1, "die": 4, "held": "0"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.held == [False] * 5


def test_roll_keeps_held_dice():
    game = make_game()
    act(game, "roll", dice=[6, 6, 1, 2, 6])
    for die in (0, 1, 4):
        act(game, "hold", die=die, held=True)
    act(game, "roll", dice=[6, 5])
    game.refresh_from_db()
    assert game.dice == [6, 6, 6, 5, 6]


def test_select_then_confirm_a_box():
    game = make_game()
    act(game, "roll", dice=[2, 2, 2, 5, 5])
    client = client_for()
    page = client.get(f"/game/{game.id}/?select=full_house").text
    assert "Score 25 points in Full house?" in page
    assert "Score 25</button>" in page
    fragment = client.get(f"/game/{game.id}/?select=full_house", headers=HTMX)
    assert 'id="card" class="card" aria-labelledby="card-title" hx-swap-oob' in fragment.text
    response = client.post(url(game, "score"), {"step": 1, "box": "full_house"}, headers=HTMX)
    assert response.status_code == 200
    assert 'id="game"' in response.text
    assert "Scored 25 points in Full house." in response.text
    game.refresh_from_db()
    assert game.seats.get().scores[8] == 25
    assert game.dice == [] and game.rolls == 0


def test_a_box_chosen_on_a_page_whose_dice_are_old_brings_the_whole_game():
    """A second tab showed the first roll; the first tab rolled again. Choosing a box in the
    second tab must not preview (and offer to score) dice it does not show: its pick sends the
    step its dice were drawn at, and an old one brings the dice too."""
    game = make_game()
    act(game, "roll", dice=[2, 2, 2, 5, 5])
    client = client_for()
    page = client.get(f"/game/{game.id}/").text
    assert 'hx-include="#dice-step"' in page and 'id="dice-step"' in page
    game.refresh_from_db()
    old_step = game.step
    act(game, "roll", dice=[6, 6, 6, 6, 6])  # another tab
    game.refresh_from_db()
    stale = client.get(f"/game/{game.id}/?select=chance&step={old_step}", headers=HTMX).text
    assert 'id="dice"' in stale and 'id="card"' in stale
    assert "Score 30 points in Chance?" in stale
    assert all(f'aria-label="Die {n}: 6"' in stale for n in range(1, 6))
    fresh = client.get(f"/game/{game.id}/?select=chance&step={game.step}", headers=HTMX).text
    assert (
        'id="card"' in fresh and 'id="dice"' not in fresh
    )  # the page is up to date: the card only


def test_selecting_a_zero_box_says_what_else_would_score():
    game = make_game()
    act(game, "roll", dice=[2, 2, 2, 5, 5])
    page = client_for().get(f"/game/{game.id}/?select=yahtzee").text
    assert "This box scores 0 now; Full house would score 25." in page


def test_select_of_a_box_that_cannot_be_scored_is_ignored():
    game = make_game([((1, 2, 3, 4, 5), "chance")])
    act(game, "roll", dice=[2, 2, 2, 5, 5])
    page = client_for().get(f"/game/{game.id}/?select=chance").text
    assert "Score" not in re.sub(r"Scorecard|Score sheet|score[ds]? ", "", page.split("<main")[1])


def test_open_boxes_show_what_they_would_score_and_the_bonus_distance():
    game = make_game([((3, 3, 3, 1, 2), "threes"), ((6, 6, 6, 6, 1), "sixes")])
    act(game, "roll", dice=[5, 5, 5, 2, 2])
    page = client_for().get(f"/game/{game.id}/").text
    assert "Fives: would score 15" in page
    assert "Full house: would score 25" in page
    assert "Three of a kind: would score 19" in page
    assert "30 to go" in page  # 63 - 9 - 24, shown in the bonus row


def test_a_whole_game_over_http_and_the_log_replays_to_the_stored_state():
    game = make_game()
    client = client_for()
    boxes = ["chance", *CATEGORIES[:-1]]
    for turn, box in enumerate(boxes):
        step = game.step
        assert client.post(url(game, "roll"), {"step": step, "held": "00000"}).status_code == 302
        if turn % 2:
            client.post(url(game, "hold"), {"step": step + 1, "die": 2, "held": "1"}, headers=HTMX)
            assert (
                client.post(url(game, "roll"), {"step": step + 1, "held": "00100"}).status_code
                == 302
            )
        game.refresh_from_db()
        assert client.post(url(game, "score"), {"step": game.step, "box": box}).status_code == 302
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    state = game.state()
    assert game.replayed_state() == state
    page = client.get(f"/game/{game.id}/").text
    assert "Game over" in page
    assert f'<td id="total-0">{state.cards[0].total}</td>' in page
    assert "New game" in page


REFUSALS = [
    # (setup turns-before, rolls-before, kind, data, status, message)
    pytest.param(0, 3, "roll", {"held": "00000"}, 400, "No rolls left", id="fourth roll"),
    pytest.param(
        0, 0, "score", {"box": "chance"}, 400, "Roll the dice first", id="score before roll"
    ),
    pytest.param(
        0, 0, "hold", {"die": 0, "held": "1"}, 400, "Roll the dice first", id="hold before roll"
    ),
    pytest.param(
        1, 1, "score", {"box": "chance"}, 400, "Chance is already filled", id="filled box"
    ),
    pytest.param(0, 1, "hold", {"die": 7, "held": "1"}, 400, "no such die", id="bad die index"),
    pytest.param(
        0, 1, "hold", {"die": "x", "held": "1"}, 400, "no such die", id="die not a number"
    ),
    pytest.param(0, 1, "hold", {"die": 1, "held": "maybe"}, 400, "hold or release", id="bad hold"),
    pytest.param(0, 1, "hold", {"die": 1, "held": "0"}, 400, "not held", id="release a free die"),
    pytest.param(0, 1, "score", {"box": "sevens"}, 400, "no box called", id="unknown box"),
    pytest.param(0, 1, "score", {"box": "<b>x</b>"}, 400, "no box called", id="markup box"),
    pytest.param(0, 1, "roll", {"held": "0x000"}, 400, "hold or release", id="bad held mask"),
]


@pytest.mark.parametrize(("turns", "rolls", "kind", "data", "status", "message"), REFUSALS)
@pytest.mark.parametrize("headers", [{}, FORM_POST, HTMX], ids=["script", "form", "htmx"])
def test_illegal_actions_are_refused_and_change_nothing(
    turns, rolls, kind, data, status, message, headers
):
    game = make_game([((1, 2, 3, 4, 6), "chance")] * turns)
    for _ in range(rolls):
        act(game, "roll", dice=[1, 1, 2, 3, 4])
        game.refresh_from_db()
    before = snapshot(game)
    client = client_for()
    response = client.post(url(game, kind), {"step": game.step, **data}, headers=headers)
    shown = refusal_text(client, response, status)
    assert message in shown
    assert 'role="alert"' in shown
    assert "&lt;b&gt;" in shown or "<b>x</b>" not in shown
    assert snapshot(game) == before


def test_joker_violation_is_refused():
    game = make_game([((4, 4, 4, 4, 4), "yahtzee")])
    act(game, "roll", dice=[5, 5, 5, 5, 5])
    game.refresh_from_db()
    before = snapshot(game)
    client = client_for()
    response = client.post(url(game, "score"), {"step": game.step, "box": "full_house"})
    joker = "Joker rule: this Yahtzee must go in Fives while that box is open."
    assert joker in refusal_text(client, response, 400)
    assert snapshot(game) == before
    response = client_for().post(url(game, "score"), {"step": game.step, "box": "fives"})
    assert response.status_code == 302
    card = Game.objects.get(pk=game.pk).state().cards[0]
    assert card.boxes == {"yahtzee": 50, "fives": 25}
    assert card.yahtzee_bonus == 100


def test_joker_lower_boxes_offered_at_full_value():
    game = fill_all_but(["full_house", "large_straight", "chance"])
    act(game, "roll", dice=[3, 3, 3, 3, 3])
    page = client_for().get(f"/game/{game.id}/").text
    assert "Joker!" in page
    assert "Full house: would score 25" in page
    assert "Large straight: would score 40" in page
    assert "Chance: would score 15" in page


@pytest.mark.parametrize("headers", [{}, FORM_POST, HTMX], ids=["script", "form", "htmx"])
def test_stale_page_and_double_click_apply_once(headers):
    game = make_game()
    client = client_for()
    first = client.post(url(game, "roll"), {"step": 0, "held": "00000"}, headers=headers)
    second = client.post(url(game, "roll"), {"step": 0, "held": "00000"}, headers=headers)
    assert first.status_code in (200, 302)
    assert "moved on" in refusal_text(client, second, 409)
    game.refresh_from_db()
    assert game.rolls == 1
    assert game.actions.count() == 1


def test_double_click_on_a_hold_applies_once():
    game = make_game()
    act(game, "roll", dice=[1, 2, 3, 4, 5])
    client = client_for()
    assert client.post(url(game, "hold"), {"step": 1, "die": 0, "held": "1"}).status_code == 302
    again = client.post(url(game, "hold"), {"step": 1, "die": 0, "held": "1"})
    assert "already held" in refusal_text(client, again, 400)
    assert game.actions.count() == 2


def test_roll_from_a_tab_that_shows_other_holds_is_stale():
    game = make_game()
    act(game, "roll", dice=[1, 2, 3, 4, 5])
    act(game, "hold", die=0, held=True)  # done in another tab
    game.refresh_from_db()
    before = snapshot(game)
    response = client_for().post(url(game, "roll"), {"step": 1, "held": "00000"}, headers=HTMX)
    assert response.status_code == 409
    assert "held dice changed" in response.text
    assert snapshot(game) == before


def test_missing_step_is_stale():
    game = make_game()
    client = client_for()
    response = client.post(url(game, "roll"), {}, headers=HTMX)
    assert response.status_code == 409
    refusal_text(client, client.post(url(game, "roll"), {}), 409)
    assert snapshot(game)[-1] == []


@pytest.mark.parametrize("headers", [{}, FORM_POST, HTMX], ids=["script", "form", "htmx"])
def test_someone_elses_game_is_refused(headers):
    """A solo game is its browser's own: a stranger's move is refused on every path with the
    private game's page (no redirect to a page they may not see), and shows nothing of it."""
    game = make_game()
    before = snapshot(game)
    stranger = client_for("someone-else")
    response = stranger.post(url(game, "roll"), {"step": 0, "held": "00000"}, headers=headers)
    assert response.status_code == 403 and "This game is private" in response.text
    nobody = Client()
    no_session = nobody.post(url(game, "roll"), {"step": 0}, headers=headers)
    assert no_session.status_code == 403 and "This game is private" in no_session.text
    assert snapshot(game) == before
    page = stranger.get(f"/game/{game.id}/")
    assert page.status_code == 403 and 'id="roll-button"' not in page.text


def test_unknown_game_is_404_not_500():
    client = client_for()
    missing = client.get("/game/nope/")
    assert missing.status_code == 404
    assert "There is nothing at this address." in missing.text
    response = client.post("/game/nope/roll/", {"step": 0})
    assert response.status_code == 404
    assert "There is no such game." in response.text


def test_actions_only_by_post():
    game = make_game()
    response = client_for().get(url(game, "roll"))
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert "takes a button press, not a visit" in response.text


def test_finished_game_refuses_more_actions():
    game = fill_all_but(["chance"])
    act(game, "roll", dice=[1, 2, 3, 4, 6])
    act(game, "score", box="chance")
    game.refresh_from_db()
    client = client_for()
    response = client.post(url(game, "roll"), {"step": game.step, "held": "00000"})
    assert "The game is over." in refusal_text(client, response, 400)


def test_csrf_is_enforced_on_actions():
    game = make_game()
    client = Client(enforce_csrf_checks=True)
    session = client.session
    session["visitor"] = VISITOR
    session.save()
    refused = client.post(url(game, "roll"), {"step": 0})
    assert refused.status_code == 403
    assert "This page has expired" in refused.text
    page = client.get(f"/game/{game.id}/").text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(
        url(game, "roll"), {"step": 0, "held": "00000"}, headers=HTMX | {"X-CSRFToken": token}
    )
    assert response.status_code == 200


def test_action_log_is_append_only():
    game = make_game([((1, 2, 3, 4, 5), "chance")])
    action = game.actions.first()
    with pytest.raises(AppendOnly):
        action.save()
    with pytest.raises(AppendOnly):
        action.delete()
    with pytest.raises(AppendOnly):
        Action.objects.filter(game=game).update(kind="x")
    with pytest.raises(AppendOnly):
        Action.objects.filter(game=game).delete()
    assert game.actions.count() == 2


def test_the_log_records_rolls_holds_and_scores():
    game = make_game()
    act(game, "roll", dice=[6, 6, 1, 2, 6])
    act(game, "hold", die=0, held=True)
    act(game, "roll", dice=[2, 3, 4, 5])
    act(game, "score", box="sixes")
    log = list(game.actions.values_list("seq", "seat", "kind", "payload"))
    assert log == [
        (1, 0, "roll", {"dice": [6, 6, 1, 2, 6]}),
        (2, 0, "hold", {"die": 0, "held": True}),
        (3, 0, "roll", {"dice": [6, 2, 3, 4, 5]}),
        (4, 0, "score", {"box": "sixes", "points": 6}),
    ]
    game.refresh_from_db()
    assert game.replayed_state() == game.state()


def test_spanish_from_the_browser_and_the_switcher():
    game = make_game()
    act(game, "roll", dice=[2, 2, 2, 5, 5])
    client = client_for()
    page = client.get(f"/game/{game.id}/", headers={"Accept-Language": "es"}).text
    assert 'lang="es"' in page
    for word in ["Unos", "Doses", "Treses", "Cuatros", "Cincos", "Seises", "Trío", "Póquer", "Full",
                 "Escalera corta", "Escalera larga", "Suerte"]:  # fmt: skip
        assert f'<th scope="row">{word}</th>' in page
    # The menu and the card's title call the score card by the same name.
    assert '<h2 id="card-title">Hoja de puntuación</h2>' in page
    assert ">Hoja de puntuación</a>" in page and "Hoja de puntos" not in page
    response = client.post("/i18n/setlang/", {"language": "en", "next": f"/game/{game.id}/"},
                           headers={"Accept-Language": "es"})  # fmt: skip
    assert response.status_code == 302
    page = client.get(f"/game/{game.id}/", headers={"Accept-Language": "es"}).text
    assert 'lang="en"' in page and "Full house" in page


def test_spanish_refusal_message():
    game = make_game([((1, 2, 3, 4, 6), "chance")])
    act(game, "roll", dice=[1, 2, 3, 4, 6])
    game.refresh_from_db()
    client = client_for()
    for headers in ({}, HTMX):
        response = client.post(url(game, "score"), {"step": game.step, "box": "chance"},
                               headers={"Accept-Language": "es", **headers})  # fmt: skip
        assert "Suerte ya está ocupada." in refusal_text(client, response, 400)


def test_the_guide_says_what_the_game_does_with_the_dice_and_the_keys():
    """The guide had the dice from the operating system's generator (they come from the game's
    committed seed: docs/fair-dice.md) and Tab moving between the boxes (the page and page.js
    use the arrow keys)."""
    client = client_for()
    game = make_game()
    for language, arrows, seed, check in (
        ("en", "the up and down arrows move between the boxes", "secret seed", "Check the dice"),
        ("es", "las flechas arriba y abajo pasan", "semilla secreta", "Comprobar los dados"),
    ):
        headers = {"Accept-Language": language}
        guide = client.get("/guide/", headers=headers).text
        assert arrows in guide and seed in guide and check in guide
        assert "operating system" not in guide and "sistema operativo" not in guide
        assert "Tab moves between" not in guide and "Tab pasa de una casilla" not in guide
        page = client.get(f"/game/{game.id}/", headers=headers).text
        assert "↑ ↓" in page  # the game page's own line about the keys says the same


def test_guide_and_sheets():
    client = client_for()
    guide = client.get("/guide/").text
    assert "6 in 7,776, that is 1 in 1,296" in guide
    assert "254.6" in guide
    sheet = client.get("/sheet/").text
    assert sheet.count('<td class="cell">') == 6 * 17  # 13 boxes and 4 totals
    game = make_game([((1, 2, 3, 4, 6), "chance")])
    filled = client.get(f"/game/{game.id}/sheet/").text
    assert '<td class="cell">16</td>' in filled


def test_upper_bonus_line_once_the_upper_boxes_are_done():
    game = make_game([((1, 2, 3, 4, 6), box) for box in CATEGORIES[:6]])
    act(game, "roll", dice=[1, 2, 3, 4, 6])
    page = client_for().get(f"/game/{game.id}/").text
    assert "to go" not in page  # 21 points: the bonus is missed, not "42 to go"
    assert re.search(r"Bonus 35 \(63 or more\)</th>\s*<td>0</td>", page)


def test_a_watcher_is_not_told_it_played():
    game = fill_all_but(["chance"])
    act(game, "roll", dice=(1, 2, 3, 4, 6))
    act(game, "score", box="chance")
    client_for().post(f"/game/{game.id}/replay/share/", {"share": "1"})  # now open to others
    page = client_for("stranger").get(f"/game/{game.id}/").text
    assert "The player scored 16 points in Chance." in page
    assert "Scored 16" not in page


def test_a_new_browser_sees_no_one_elses_games():
    make_game()
    services.start_game("someone", ["", ""], mode=Game.Mode.COMPUTER, bots={1: "beginner"})
    home = Client().get("/").text
    assert "Continue" not in home and "Recent games" not in home


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy():
    response = client_for().get("/")
    policy = response["Content-Security-Policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy)[1]
    assert "script-src 'self' 'nonce-" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy
    scripts = re.findall(r"<script[^>]*>", response.text)
    assert scripts and all(f'nonce="{nonce}"' in tag and "src=" in tag for tag in scripts)
    # A new nonce for every response.
    assert nonce not in client_for().get("/")["Content-Security-Policy"]


@pytest.mark.django_db
def test_pages_answer_head_requests_as_monitors_send_them():
    client = client_for()
    assert client.head("/").status_code == 200
    assert client.head("/guide/").status_code == 200
    assert client.head("/online/").status_code == 200
    assert client.put("/").status_code == 405


def test_a_game_against_the_computer_names_its_player_you_only_to_that_player():
    """A watcher saw "You is playing" and a "You" column; the printed card said "Score".
    Such a game is its browser's own until it is over and shared: then others read "Player"."""
    game = services.start_game(VISITOR, ["", ""], mode=Game.Mode.COMPUTER, bots={1: "beginner"})
    own = client_for().get(f"/game/{game.id}/").text
    assert "Roll the dice to start." in own
    assert client_for("stranger").get(f"/game/{game.id}/").status_code == 403
    headings = r'<th scope="col" class="player">([^<]*)</th>'
    own_sheet = client_for().get(f"/game/{game.id}/sheet/").text
    assert re.findall(headings, own_sheet) == ["You", "Computer (beginner)"]
    play_out(game)
    client_for().post(f"/game/{game.id}/replay/share/", {"share": "1"})
    watched = client_for("stranger").get(f"/game/{game.id}/").text
    assert not re.search(r"\bYou\b(?! are watching)", watched)
    watched_sheet = client_for("stranger").get(f"/game/{game.id}/sheet/").text
    assert re.findall(headings, watched_sheet) == ["Player", "Computer (beginner)"]


def test_pages_of_live_state_are_never_cached():
    game = make_game()
    ana = online("ana", "Ana")
    table = ana.post("/table/new/").headers["Location"]
    pages = [
        (client_for(), "/"),
        (client_for(), f"/game/{game.id}/"),
        (ana, "/online/"),
        (ana, table),
    ]
    for client, address in pages:
        response = client.get(address)
        assert response.status_code == 200, address
        assert "no-store" in response.headers["Cache-Control"], address


DESCRIPTION = re.compile(r'<meta name="description" content="([^"]+)">')


@pytest.mark.parametrize("language", ["en", "es"])
def test_each_kind_of_page_says_what_it_is_for(strategy_tables, language):
    """Issue 29: no page had a meta description (Lighthouse's SEO audit took a point off every
    page type). Each kind has its own, in the page's language."""
    from tests.factories import play_out

    game = play_out(services.start_solo_game(VISITOR))
    client = client_for()
    paths = ["/", "/online/", "/guide/", "/sheet/", "/me/games/", "/me/practice/"]
    paths += [f"/game/{game.id}/{part}" for part in ("", "replay/", "analysis/", "verify/")]
    seen = {}
    for path in paths:
        page = client.get(path, headers={"Accept-Language": language}).text
        [description] = DESCRIPTION.findall(page)
        assert "Yahtzee" in description and len(description) <= 160, path
        seen[path] = description
    assert len(set(seen.values())) == len(paths)
    if language == "es":
        assert seen["/"].startswith("Juega al Yahtzee en el navegador")
