"""Chat at online games and tables (issue 19): who may say what, its limits, mute and chat off,
and the panel's views with and without JavaScript."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from chat import presenters, services
from chat.models import Message
from core.appendonly import AppendOnly
from core.refusals import NotFound
from games import services as games
from games.live.pages import group_name
from games.models import Game
from lobby import services as lobby
from lobby.models import Player
from profiles import blocking
from tests.clients import FORM_POST, HTMX, client_for, online_game, refusal_text
from tests.factories import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    ana = Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    bo = Player.objects.create(visitor="bo", name="Bo", name_key="bo")
    return lobby_game([ana, bo])


def lobby_game(players: list[Player]) -> Game:
    return games.start_online_game(players)


def place(game: Game) -> services.Place:
    return services.place_of_game(game.id)


def lines(reader: str | None, game: Game) -> list[str]:
    return [f"{line['name']}: {line['text']}" for line in read(reader, game)["lines"]]


def read(reader: str | None, game: Game) -> dict:
    return presenters.chat_context(reader, place(game))["chat"]


def test_players_say_phrases_and_text_in_order(game):
    services.say("ana", place(game), phrase="luck")
    services.say("bo", place(game), text="  thanks,   you too  ")
    assert lines("ana", game) == ["Ana: Good luck!", "Bo: thanks, you too"]
    assert [m.kind for m in Message.objects.filter(game=game)] == ["phrase", "text"]


def test_a_phrase_is_read_in_each_readers_language(game):
    services.say("ana", place(game), phrase="gg")
    with translation.override("es"):
        assert lines("bo", game) == ["Ana: Buena partida"]
    assert lines("bo", game) == ["Ana: Good game"]


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("x" * 200, False),
        ("x" * 201, True),
        ("", True),
        ("   \n\t ", True),
        ("<b>hi</b>", True),
        ("<script>alert(1)</script>", True),
        ("</p>", True),
        ("<!-- hi -->", True),
        ("I <3 this & 2 > 1", False),
        ("bell\x07", True),
        ("zero\u200bwidth", True),
        ("turned \u202earound", True),  # a bidi override
        ("x < y and a > b", False),
        ("family \U0001f468\u200d\U0001f469\u200d\U0001f467 here", False),  # joined emoji
        ("\U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f", False),  # Wales
        ("flag \U0001f3f3\ufe0f\u200d\U0001f308", False),
    ],
)
def test_text_limits(game, text, refused):
    if refused:
        with pytest.raises(services.ChatRefused):
            services.say("ana", place(game), text=text)
        assert not Message.objects.exists()
    else:
        assert services.say("ana", place(game), text=text).text == text


def test_an_unknown_phrase_is_refused(game):
    with pytest.raises(services.ChatRefused):
        services.say("ana", place(game), phrase="<b>")
    assert not Message.objects.exists()


@pytest.mark.parametrize("visitor", ["watcher", None, ""])
def test_watchers_and_strangers_read_but_never_write(game, visitor):
    services.say("ana", place(game), phrase="luck")
    with pytest.raises(services.NotAPlayer) as refused:
        services.say(visitor, place(game), text="hello")
    assert refused.value.status == 403
    assert Message.objects.count() == 1
    assert lines(visitor, game) == ["Ana: Good luck!"]
    assert not read(visitor, game)["can_write"]


def test_games_of_other_modes_have_no_chat():
    solo = make_game(visitor="ana")
    assert client_for("ana").post(f"/game/{solo.id}/chat/", {"text": "hi"}).status_code == 404
    with pytest.raises(NotFound):
        services.place_of_game(solo.id)
    with pytest.raises(NotFound):
        services.place_of_game("nonesuch")


def test_after_the_end_good_game_for_an_hour_then_closed(game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    services.say("bo", place(game), phrase="gg")
    an_hour_ago = timezone.now() - services.OPEN_AFTER_END - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(updated_at=an_hour_ago)
    with pytest.raises(services.ChatClosed):
        services.say("ana", place(game), phrase="gg")
    assert Message.objects.count() == 1
    assert read("ana", game)["closed"] and not read("ana", game)["can_write"]


def test_a_burst_of_five_then_slow_down(game):
    for n in range(services.BURST):
        services.say("ana", place(game), text=f"line {n}")
    with pytest.raises(services.SlowDown) as refused:
        services.say("ana", place(game), phrase="oops")
    assert refused.value.status == 429
    assert Message.objects.count() == services.BURST
    services.say("bo", place(game), phrase="oops")  # the limit is the sender's own
    # Once the window has passed, the sender may write again.
    earlier = timezone.now() - services.BURST_WINDOW
    from django.db import connection

    with connection.cursor() as cursor:  # the log is append-only: moved back in raw SQL
        cursor.execute("UPDATE chat_message SET created_at = %s WHERE sender = 'ana'", [earlier])
    services.say("ana", place(game), phrase="thanks")


def test_messages_are_append_only(game):
    message = services.say("ana", place(game), phrase="luck")
    with pytest.raises(AppendOnly):
        message.save()
    with pytest.raises(AppendOnly):
        Message.objects.all().delete()


def test_a_muted_players_lines_are_hidden_for_the_muter_only_everywhere(game):
    bo_id = str(Player.objects.get(visitor="bo").pk)
    services.say("bo", place(game), phrase="luck")
    services.set_muted("ana", place(game), bo_id, True)
    assert services.hidden_senders("ana") == {"bo"}
    assert lines("ana", game) == []
    assert lines("watcher", game) == ["Bo: Good luck!"]
    other = lobby_game(list(Player.objects.filter(visitor__in=["ana", "bo"])))
    services.say("bo", place(other), phrase="nice")
    assert lines("ana", other) == []  # muted on every game
    services.set_muted("ana", place(game), bo_id, False)
    assert lines("ana", game) == ["Bo: Good luck!"]


def test_a_block_mid_game_stops_the_chat_between_them_and_the_game_goes_on(game):
    services.say("bo", place(game), phrase="luck")
    services.say("ana", place(game), phrase="nice")
    blocking.block("ana", Player.objects.get(visitor="bo").pk)
    # Hidden both ways, each still reads their own lines.
    assert lines("ana", game) == ["Ana: Nice roll!"] and lines("bo", game) == ["Bo: Good luck!"]
    assert lines("watcher", game) == ["Bo: Good luck!", "Ana: Nice roll!"]
    for writer in ("ana", "bo"):  # neither writes: who blocked whom is not said
        with pytest.raises(services.Blocked):
            services.say(writer, place(game), phrase="oops")
        assert read(writer, game)["blocked"] and not read(writer, game)["can_write"]
    assert Message.objects.count() == 2
    games.perform(game.id, "ana", "roll", {}, game.step)  # the game goes on
    blocking.unblock("ana", Player.objects.get(visitor="bo").pk)
    services.say("ana", place(game), phrase="thanks")
    assert lines("bo", game) == ["Bo: Good luck!", "Ana: Nice roll!", "Ana: Thanks"]


@pytest.mark.parametrize("player", ["", "abc", "999999", "²", "1" * 40])
def test_muting_nobody_of_this_place_is_refused(game, player):
    with pytest.raises(services.ChatRefused):
        services.set_muted("ana", place(game), player, True)
    with pytest.raises(services.ChatRefused):  # nor oneself
        services.set_muted("ana", place(game), str(Player.objects.get(visitor="ana").pk), True)
    assert services.hidden_senders("ana") == set()


def test_chat_off_folds_the_panel_and_refuses_writing(game):
    services.say("bo", place(game), phrase="luck")
    services.set_off("ana", True)
    assert read("ana", game)["off"] and read("ana", game)["lines"] == []
    with pytest.raises(services.ChatRefused):
        services.say("ana", place(game), phrase="luck")
    services.set_off("ana", False)
    assert lines("ana", game) == ["Bo: Good luck!"]


def test_table_chat_is_for_its_players():
    Player.objects.create(visitor="ana", name="Ana", name_key="ana")
    Player.objects.create(visitor="bo", name="Bo", name_key="bo")
    table = lobby.create_table("ana")
    at = services.place_of_table(table.code)
    services.say("ana", at, phrase="moment")
    with pytest.raises(services.NotAPlayer):
        services.say("bo", at, text="let me in")
    lobby.join_table("bo", table.code)
    services.say("bo", services.place_of_table(table.code), text="here")
    table_lines = presenters.chat_context("bo", services.place_of_table(table.code))["chat"]
    assert [line["text"] for line in table_lines["lines"]] == ["One moment", "here"]


def test_the_group_is_the_live_layers_group_of_the_game(game):
    assert place(game).group == group_name(game.id)


# Views: the game page's panel, htmx and plain posts, refusals as 4xx, never a 500.


def test_the_game_page_shows_the_panel_to_players_and_watchers():
    game, ana, bo = online_game()
    page = ana.get(f"/game/{game.id}/").text
    assert 'id="chat-log"' in page and 'aria-live="polite"' in page
    assert 'id="chat-text"' in page and 'value="luck"' in page
    watcher = client_for("watcher").get(f"/game/{game.id}/").text
    assert 'id="chat-log"' in watcher and 'id="chat-text"' not in watcher
    assert "only the players write" in watcher


def test_no_js_post_redirects_back_to_the_panel():
    game, ana, bo = online_game()
    response = ana.post(f"/game/{game.id}/chat/", {"text": "hello Bo"}, headers=FORM_POST)
    assert response.status_code == 302
    assert response["Location"] == f"/game/{game.id}/#chat"
    assert "Ana:</span> hello Bo" in bo.get(f"/game/{game.id}/").text


@pytest.mark.parametrize("data", [{"phrase": "nice"}, {"text": "Nice roll!"}])
def test_htmx_post_answers_the_log_and_the_error_line_not_the_box(data):
    """The box is not drawn again under someone typing the next line (issue 29)."""
    game, ana, bo = online_game()
    response = ana.post(f"/game/{game.id}/chat/", data, headers=HTMX)
    assert response.status_code == 200
    assert 'id="chat-log"' in response.text and "Nice roll!" in response.text
    assert '<div id="chat-error" hx-swap-oob="innerHTML"></div>' in response.text  # cleared
    assert "chat-write" not in response.text and "chat-text" not in response.text


def test_markup_is_refused_and_text_with_brackets_shown_escaped():
    game, ana, bo = online_game()
    refused = ana.post(
        f"/game/{game.id}/chat/", {"text": "<img src=x onerror=alert(1)>"}, headers=HTMX
    )
    assert refused.status_code == 400
    assert "plain text" in refused.text and "<img" not in refused.text
    assert "chat-text" not in refused.text  # the box keeps it, to be mended (game.js)
    ana.post(f"/game/{game.id}/chat/", {"text": "I <3 dice & you"}, headers=HTMX)
    page = bo.get(f"/game/{game.id}/").text
    assert "I &lt;3 dice &amp; you" in page and "I <3 dice" not in page


@pytest.mark.parametrize(
    ("who", "data", "status", "says"),
    [
        ("ana", {"text": "x" * 201}, 400, "at most 200"),
        ("ana", {"text": ""}, 400, "empty"),
        ("ana", {"phrase": "nope"}, 400, "no such quick phrase"),
        ("watcher", {"text": "hi"}, 403, "only the players"),
    ],
)
@pytest.mark.parametrize("headers", [HTMX, FORM_POST, {}])
def test_bad_input_is_a_clear_4xx_that_changes_nothing(who, data, status, says, headers):
    game, ana, bo = online_game()
    client = ana if who == "ana" else client_for("watcher")
    response = client.post(f"/game/{game.id}/chat/", data, headers=headers)
    if response.status_code == 303:  # a plain form post: told on the page it goes back to
        assert response["Location"] == f"/game/{game.id}/#chat"
    text = refusal_text(client, response, status)
    assert says in text.lower()
    assert not Message.objects.exists()


def test_a_flood_over_post_is_slowed_down():
    game, ana, bo = online_game()
    answers = [
        ana.post(f"/game/{game.id}/chat/", {"phrase": "oops"}, headers=HTMX).status_code
        for _ in range(8)
    ]
    assert answers == [200] * 5 + [429] * 3
    assert Message.objects.count() == 5
    last = ana.post(f"/game/{game.id}/chat/", {"phrase": "oops"}, headers=HTMX)
    assert "Slow down" in last.text


def test_mute_and_chat_off_from_the_page():
    game, ana, bo = online_game()
    bo.post(f"/game/{game.id}/chat/", {"phrase": "luck"}, headers=HTMX)
    bo_id = Player.objects.get(visitor="bo").pk
    muted = ana.post(f"/game/{game.id}/chat/mute/", {"player": bo_id, "muted": "1"}, headers=HTMX)
    assert muted.status_code == 200 and "Unmute Bo" in muted.text
    assert "Bo:</span> Good luck!" not in muted.text
    assert "Bo:</span> Good luck!" in client_for("watcher").get(f"/game/{game.id}/").text
    off = ana.post(f"/game/{game.id}/chat/off/", {"off": "1"}, headers=FORM_POST)
    assert off.status_code == 302
    page = ana.get(f"/game/{game.id}/").text
    assert "Chat is off" in page and 'id="chat-text"' not in page
    on = ana.post(f"/game/{game.id}/chat/off/", {"off": "0"}, headers=HTMX)
    assert 'id="chat-log"' in on.text


@pytest.mark.parametrize(
    "path",
    ["/game/nonesuch/chat/", "/game/nonesuch/chat/mute/", "/t/NOSUCH/chat/", "/t/NOSUCH/chat/off/"],
)
def test_no_such_place_is_a_404(path):
    response = client_for("ana").post(path, {"text": "hi"}, headers=HTMX)
    assert response.status_code == 404


def test_get_is_not_allowed():
    game, ana, bo = online_game()
    assert ana.get(f"/game/{game.id}/chat/").status_code == 405


def test_the_table_page_has_its_chat():
    ana = client_for("ana")
    ana.post("/online/name/", {"name": "Ana"})
    ana.post("/table/new/")
    from lobby.models import Table

    code = Table.objects.get().code
    response = ana.post(f"/t/{code}/chat/", {"text": "who's coming?"}, headers=FORM_POST)
    assert response["Location"] == f"/t/{code}/#chat"
    assert "Ana:</span> who&#x27;s coming?" in ana.get(f"/t/{code}/").text
