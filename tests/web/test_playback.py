"""How fast the computer's turns play back: the browser's choice, its pauses, Skip (issue 16)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game
from games.presenters.page import STEP_PAUSE_MS
from tests.clients import HTMX, client_for, url

pytestmark = pytest.mark.django_db

NEXT_STEP = re.compile(r'hx-get="([^"]+\?at=(\d+))" hx-trigger="load delay:(\d+)ms"')
VERSION = re.compile(r'data-version="(\d+)"')


def start(client: Client, **data) -> Game:
    response = client.post("/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.get(pk=response["Location"].split("/")[2])


def against_the_computer(client: Client) -> Game:
    return start(client, mode="computer", strength="beginner")  # the beginner needs no table


def score_a_turn(client: Client, game: Game) -> str:
    """Roll once and score Chance (or the first open box): the htmx answer."""
    game.refresh_from_db()
    client.post(url(game, "roll"), {"step": game.step, "held": "00000"}, headers=HTMX)
    game.refresh_from_db()
    box = "chance" if "chance" in game.state().options() else sorted(game.state().options())[0]
    return client.post(url(game, "score"), {"step": game.step, "box": box}, headers=HTMX).text


def choose(client: Client, game: Game, speed: str, headers: dict | None = None):
    return client.post(f"/game/{game.id}/speed/", {"speed": speed}, headers=headers or {})


def chosen(page: str) -> str | None:
    """The speed the game page's control shows as chosen."""
    found = re.search(r'name="speed" value="(\w+)" checked', page)
    return found and found.group(1)


def pauses(client: Client, answer: str) -> list[tuple[int, int]]:
    """Follow a playback from a score's answer: (step, pause in ms) of each step asked for."""
    steps = []
    while found := NEXT_STEP.search(answer):
        steps.append((int(found.group(2)), int(found.group(3))))
        answer = client.get(found.group(1).replace("&amp;", "&"), headers=HTMX).text
    return steps


def test_quick_is_the_default_a_third_of_the_watch_pauses(settings):
    settings.PLAYBACK_SPEED = 1
    client = client_for()
    game = against_the_computer(client)
    assert chosen(client.get(f"/game/{game.id}/").text) == "quick"
    quick = pauses(client, score_a_turn(client, game))
    assert choose(client, game, "watch").status_code == 302
    watch = pauses(client, score_a_turn(client, game))
    game.refresh_from_db()
    assert quick[-1][0] < watch[0][0] and watch[-1][0] == game.log_length  # to the present
    kinds = list(game.actions.order_by("seq").values_list("kind", flat=True))
    # Step n is asked for after the pause of the action that step n - 1 showed, the log's n-1st.
    assert [pause for _, pause in quick] == [
        round(STEP_PAUSE_MS[kinds[at - 2]] / 3) for at, _ in quick
    ]
    assert [pause for _, pause in watch] == [STEP_PAUSE_MS[kinds[at - 2]] for at, _ in watch]


def test_the_choice_is_kept_for_the_browser_in_its_next_game():
    client = client_for()
    game = against_the_computer(client)
    assert choose(client, game, "watch", HTMX).status_code == 200
    other = start(client, mode="local", name_1="Ana", kind_2="club")
    assert chosen(client.get(f"/game/{other.id}/").text) == "watch"
    assert chosen(client_for("someone-else").get(f"/game/{other.id}/").text) is None  # a watcher


def test_the_htmx_answer_redraws_only_the_status_line():
    client = client_for()
    game = against_the_computer(client)
    answer = choose(client, game, "instant", HTMX).text
    assert 'id="speed-status"' in answer and 'hx-swap-oob="innerHTML"' in answer
    assert "Saved." in answer
    assert 'name="speed"' not in answer  # the radios stay as they are, the focus with them
    assert chosen(client.get(f"/game/{game.id}/").text) == "instant"


@pytest.mark.parametrize("data", [{"speed": "turbo"}, {"speed": ""}, {}])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_bad_speed_is_refused_and_changes_nothing(data, htmx):
    client = client_for()
    game = against_the_computer(client)
    choose(client, game, "watch")
    response = client.post(f"/game/{game.id}/speed/", data, headers=HTMX if htmx else {})
    assert response.status_code == 400
    assert 'class="error"' in response.text
    assert ("Select a valid choice" in response.text) or ("This field is required" in response.text)
    assert chosen(client.get(f"/game/{game.id}/").text) == "watch"
    game.refresh_from_db()
    assert game.log_length == 0


def test_a_speed_for_an_unknown_game_is_404():
    assert client_for().post("/game/nope/speed/", {"speed": "quick"}).status_code == 404


def test_instant_answers_a_score_with_the_game_as_it_is_now():
    client = client_for()
    game = against_the_computer(client)
    choose(client, game, "instant")
    answer = score_a_turn(client, game)
    game.refresh_from_db()
    assert game.actions.filter(seat=1).exists()  # the computer has played its turn
    assert not NEXT_STEP.search(answer)  # and no step of it is played back
    assert VERSION.search(answer).group(1) == str(game.log_length)
    assert 'id="roll-button"' in answer
    # told in words
    assert "Computer (beginner) rolled" in answer and "Computer (beginner) scored" in answer


def test_instant_chosen_during_a_playback_ends_it_at_the_next_step():
    client = client_for()
    game = against_the_computer(client)
    answer = score_a_turn(client, game)
    step = NEXT_STEP.search(answer)
    choose(client, game, "instant", HTMX)
    answer = client.get(step.group(1), headers=HTMX).text
    game.refresh_from_db()
    assert not NEXT_STEP.search(answer)
    assert VERSION.search(answer).group(1) == str(game.log_length)


def test_skip_shows_the_game_as_it_is_now():
    client = client_for()
    game = against_the_computer(client)
    answer = score_a_turn(client, game)
    game.refresh_from_db()
    skip = re.search(
        r'<form class="skip"[^>]* hx-get="([^"]+)"[^>]*>\s*<input[^>]*value="(\d+)"', answer
    )
    assert skip and skip.group(2) == str(game.log_length)
    assert re.search(
        r'<button type="submit" id="skip-button" class="skip-button">Skip</button>', answer
    )
    now = client.get(skip.group(1), {"at": skip.group(2)}, headers=HTMX).text
    assert not NEXT_STEP.search(now) and "skip-button" not in now
    assert 'id="roll-button"' in now
    assert f'data-version="{game.log_length}"' in now
    # Without JavaScript the same form loads the whole page as it is now.
    page = client.get(skip.group(1), {"at": skip.group(2)})
    assert page.status_code == 200 and 'id="roll-button"' in page.text


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        ({"mode": "solo"}, False),
        ({"mode": "local", "name_1": "Ana", "name_2": "Bo"}, False),
        ({"mode": "local", "name_1": "Ana", "kind_2": "beginner"}, True),
        ({"mode": "computer", "strength": "beginner"}, True),
    ],
)
def test_the_control_is_shown_only_where_a_computer_plays(data, shown):
    client = client_for()
    game = start(client, **data)
    assert (f'action="/game/{game.id}/speed/"' in client.get(f"/game/{game.id}/").text) is shown
