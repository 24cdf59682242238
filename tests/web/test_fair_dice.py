"""Provably fair dice: games roll from the seed they committed to, the check page recomputes the
rolls, and nothing shows a seed before its time."""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from collections import Counter

import pytest
from django.db import connection

from engine import dice
from engine.rules import CATEGORIES
from games import services
from games.models import Action, Game
from tests.clients import HTMX, client_for, online_game
from tests.factories import VISITOR

pytestmark = pytest.mark.django_db


def play_out(game: Game, visitor: str = VISITOR, hold_first: bool = False) -> Game:
    """Play a solo game to its end on its own dice: roll (twice, holding the first die, if
    ``hold_first``), then score the first open box."""
    for box in CATEGORIES:
        game.refresh_from_db()
        services.perform(game.id, visitor, "roll", {}, game.step)
        if hold_first:
            game.refresh_from_db()
            services.perform(game.id, visitor, "hold", {"die": 0, "held": True}, game.step)
            game.refresh_from_db()
            services.perform(game.id, visitor, "roll", {}, game.step)
        game.refresh_from_db()
        services.perform(game.id, visitor, "score", {"box": box}, game.step)
    game.refresh_from_db()
    return game


def test_a_face_is_hmac_sha256_of_the_position_its_first_byte_below_252_mod_6_plus_1():
    key = dice.key("ab" * 32, "my text")
    assert key == hashlib.sha256(("ab" * 32 + "\nmy text").encode()).digest()
    digest = hmac.new(key, b"1:4:2:3", hashlib.sha256).digest()
    byte = next(b for b in digest if b < 252)
    assert dice.face(key, 1, 4, 2, 3) == byte % 6 + 1


def test_seeded_dice_are_uniform():
    """Chi-square over 60,000 dice of random seeds and positions; fails by chance once in
    10,000 runs (p = 1e-4)."""
    rng = random.Random()
    counts = Counter()
    for _ in range(1_000):
        key = dice.key(dice.new_seed())
        for turn in range(1, 13):
            counts.update(dice.faces(key, 0, turn, rng.randint(1, 3), range(5)))
    total = sum(counts.values())
    expected = total / 6
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert set(counts) == {1, 2, 3, 4, 5, 6} and total == 60_000
    assert chi_square < 25.74  # 5 degrees of freedom, p = 1e-4


def test_a_game_commits_to_its_seed_and_rolls_from_it():
    game = services.start_solo_game(VISITOR)
    assert len(game.seed) == 64 and game.seed_hash == hashlib.sha256(game.seed.encode()).hexdigest()
    services.perform(game.id, VISITOR, "roll", {}, 0)
    first = Action.objects.get(game=game).payload["dice"]
    assert first == dice.faces(dice.key(game.seed), 0, 1, 1, range(5))
    game = play_out(Game.objects.get(pk=game.pk), hold_first=False)
    assert game.status == Game.Status.FINISHED
    actions = [(a.seq, a.seat, a.kind, a.payload) for a in game.actions.all()]
    assert dice.check(actions, 1, dice.key(game.seed)).honest
    assert not dice.check(actions, 1, dice.key(dice.new_seed())).honest


def test_the_page_shows_the_commitment_and_no_seed_while_the_game_is_on():
    game = services.start_solo_game(VISITOR)
    client = client_for()
    page = client.get(f"/game/{game.id}/").content.decode()
    assert game.seed_hash in page and game.seed not in page
    assert "Mix in your own text" in page


def test_a_player_mixes_in_text_before_the_first_roll_and_the_dice_follow_it():
    game = services.start_solo_game(VISITOR)
    client = client_for()
    response = client.post(f"/game/{game.id}/seed/", {"text": "  lucky   seven "})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.player_seed == "lucky seven"
    services.perform(game.id, VISITOR, "roll", {}, 0)
    rolled = Action.objects.get(game=game).payload["dice"]
    assert rolled == dice.faces(dice.key(game.seed, "lucky seven"), 0, 1, 1, range(5))
    page = client.get(f"/game/{game.id}/").content.decode()
    assert "lucky seven" in page and "Mix in your own text" not in page


@pytest.mark.parametrize(
    ("text", "status", "says"),
    [
        ("", 400, "Type some text"),
        ("x" * 65, 400, "at most 64"),
        ("tab\x07bell", 400, "at most 64"),
    ],
)
def test_bad_seed_text_is_refused_and_changes_nothing(text, status, says):
    game = services.start_solo_game(VISITOR)
    response = client_for().post(f"/game/{game.id}/seed/", {"text": text}, headers=HTMX)
    assert response.status_code == status and says in response.content.decode()
    game.refresh_from_db()
    assert game.player_seed == ""


def test_seed_text_after_the_first_roll_twice_or_in_another_game_is_refused():
    game = services.start_solo_game(VISITOR)
    other = client_for("someone-else")
    response = other.post(f"/game/{game.id}/seed/", {"text": "mine"}, headers=HTMX)
    assert response.status_code == 403
    client = client_for()
    assert client.post(f"/game/{game.id}/seed/", {"text": "one"}).status_code == 302
    second = client.post(f"/game/{game.id}/seed/", {"text": "two"}, headers=HTMX)
    assert second.status_code == 409 and "already added" in second.content.decode()
    fresh = services.start_solo_game(VISITOR)
    services.perform(fresh.id, VISITOR, "roll", {}, 0)
    late = client.post(f"/game/{fresh.id}/seed/", {"text": "late"}, headers=HTMX)
    assert late.status_code == 409 and "have been rolled" in late.content.decode()
    game.refresh_from_db()
    fresh.refresh_from_db()
    assert (game.player_seed, fresh.player_seed) == ("one", "")


def test_the_check_page_accepts_an_honest_game_and_finds_a_changed_roll():
    game = play_out(services.start_solo_game(VISITOR), hold_first=True)
    client = client_for()
    page = client.get(f"/game/{game.id}/verify/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "All 26 rolls of this game are exactly what the seed gives." in text
    assert game.seed in text and game.seed_hash in text
    # Someone changes a logged roll behind the log's back (the ORM refuses: append-only).
    action = game.actions.filter(kind="roll").order_by("seq")[3]
    changed = [(d % 6) + 1 for d in action.payload["dice"]]
    with connection.cursor() as cursor:
        table = Action._meta.db_table
        cursor.execute(
            f"UPDATE {table} SET payload = %s WHERE id = %s",
            [f'{{"dice": {changed}}}', action.id],
        )
    text = client.get(f"/game/{game.id}/verify/").content.decode()
    assert "1 of 26 rolls does not match the seed." in text
    assert 'class="mismatch"' in text


def test_the_check_page_explains_a_roll_die_by_die():
    game = play_out(services.start_solo_game(VISITOR), hold_first=True)
    text = client_for().get(f"/game/{game.id}/verify/?roll=2").content.decode()
    assert "Roll 2, die by die" in text
    assert "held from the roll before" in text  # the first die was held for roll 2
    assert "<code>0:1:2:1</code>" in text  # seat 0, turn 1, roll 2, die slot 1


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("?seed=" + "0" * 64, "not the seed this game committed to"),
        ("?seed=nothex", "64 hexadecimal digits"),
        ("?roll=0", "There is no roll 0"),
        ("?roll=27", "There is no roll 27"),
        ("?roll=two", "There is no roll two"),
        ("?roll=\uff15", "There is no roll \uff15"),  # a full-width 5: not a number we take
    ],
)
def test_tampered_values_on_the_check_page_are_refused(query, says):
    game = play_out(services.start_solo_game(VISITOR), hold_first=True)
    response = client_for().get(f"/game/{game.id}/verify/{query}")
    assert response.status_code == 400 and says in response.content.decode()


def test_other_text_than_the_players_gives_other_dice():
    game = services.start_solo_game(VISITOR)
    client_for().post(f"/game/{game.id}/seed/", {"text": "ours"})
    game = play_out(Game.objects.get(pk=game.pk))
    client = client_for()
    assert "exactly what the seed gives" in client.get(f"/game/{game.id}/verify/").content.decode()
    text = client.get(f"/game/{game.id}/verify/?text=theirs").content.decode()
    assert "do not match the seed" in text


def test_the_check_page_waits_for_the_end_and_keeps_private_games_private():
    game = services.start_solo_game(VISITOR)
    services.perform(game.id, VISITOR, "roll", {}, 0)
    waiting = client_for().get(f"/game/{game.id}/verify/")
    assert waiting.status_code == 409 and game.seed not in waiting.content.decode()
    play_out_rest = Game.objects.get(pk=game.pk)
    for box in CATEGORIES:
        play_out_rest.refresh_from_db()
        if play_out_rest.rolls == 0:
            services.perform(game.id, VISITOR, "roll", {}, play_out_rest.step)
            play_out_rest.refresh_from_db()
        services.perform(game.id, VISITOR, "score", {"box": box}, play_out_rest.step)
    assert client_for("someone-else").get(f"/game/{game.id}/verify/").status_code == 403
    Game.objects.filter(pk=game.pk).update(shared=True)
    assert client_for("someone-else").get(f"/game/{game.id}/verify/").status_code == 200


def test_a_game_from_before_seeds_keeps_its_dice_and_has_nothing_to_check():
    game = services.start_solo_game(VISITOR)
    Game.objects.filter(pk=game.pk).update(seed="", seed_hash="")
    game = play_out(Game.objects.get(pk=game.pk))
    assert game.status == Game.Status.FINISHED and game.actions.count() == 26
    response = client_for().get(f"/game/{game.id}/verify/")
    assert response.status_code == 404 and "from before fair dice" in response.content.decode()


def test_no_page_of_an_online_game_in_progress_shows_its_seed():
    game, ana, bo = online_game()
    watcher = client_for("watcher")
    services.perform(game.id, "ana", "roll", {}, 0)
    seen = []
    for client in (ana, bo, watcher):
        seen.append(client.get(f"/game/{game.id}/").content.decode())
        seen.append(client.get(f"/game/{game.id}/?select=chance", headers=HTMX).content.decode())
        seen.append(client.get(f"/game/{game.id}/?hint=1", headers=HTMX).content.decode())
        seen.append(client.get(f"/game/{game.id}/analysis/").content.decode())
        seen.append(client.get(f"/game/{game.id}/verify/").content.decode())
        seen.append(client.get(f"/game/{game.id}/verify/?roll=1").content.decode())
    seen.append(bo.post(f"/game/{game.id}/roll/", {"step": 1}, headers=HTMX).content.decode())
    seen.append(ana.post(f"/game/{game.id}/score/", {"step": 0}, headers=HTMX).content.decode())
    game.refresh_from_db()
    assert game.seed_hash in seen[0]
    assert not [page for page in seen if game.seed in page]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_socket_frame_of_an_online_game_in_progress_carries_its_seed():
    from channels.db import database_sync_to_async

    from tests.sockets import connect, drain, new_online_game

    game = await new_online_game()
    token = "ana" + "a" * 29
    ana = await connect(f"/ws/game/{game.id}/?tab=ana-tab", "ana", "csrftoken=" + token)
    bo = await connect(f"/ws/game/{game.id}/", "bo")
    watcher = await connect(f"/ws/game/{game.id}/", "watcher")
    frames = []
    for socket in (ana, bo, watcher):
        frames += await drain(socket)
    await ana.send_json_to(
        {"move": "roll", "step": "0", "held": "00000", "csrfmiddlewaretoken": token}
    )
    await ana.send_json_to(
        {"move": "hold", "step": "1", "die": "0", "held": "1", "csrfmiddlewaretoken": token}
    )
    await ana.send_json_to(
        {"move": "roll", "step": "9", "held": "10000", "csrfmiddlewaretoken": token}
    )
    await ana.send_json_to(
        {"move": "score", "step": "1", "box": "chance", "csrfmiddlewaretoken": token}
    )
    # Up to the score's answer, the last of the four: drain's quiet window alone ended before
    # the refusal came once, on a busy machine.
    while not re.search(r"scored \d+ points? in Chance", frames[-1] if frames else ""):
        frames.append(await ana.receive_from(timeout=10))
    for socket in (ana, bo, watcher):
        frames += await drain(socket)
    for socket in (ana, bo, watcher):
        await socket.disconnect()
    moves = await database_sync_to_async(
        lambda: list(game.actions.values_list("kind", flat=True))
    )()
    assert moves == ["roll", "hold", "score"]  # the stale roll was refused, with a message
    assert len(frames) > 6 and any("moved on" in frame for frame in frames)
    assert not [frame for frame in frames if game.seed in frame]


def test_a_log_changed_beyond_its_dice_is_said_so():
    game = play_out(services.start_solo_game(VISITOR))
    action = game.actions.filter(kind="score").order_by("seq")[1]
    first_box = game.actions.filter(kind="score").order_by("seq")[0].payload["box"]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Action._meta.db_table} SET payload = %s WHERE id = %s",
            [f'{{"box": "{first_box}"}}', action.id],
        )  # the same box scored twice
    response = client_for().get(f"/game/{game.id}/verify/")
    assert response.status_code == 409 and "does not replay" in response.content.decode()


def test_every_seat_of_an_online_game_mixes_in_its_own_text_and_the_check_shows_them():
    """Only the first player's text was ever mixed in: the second was told "already added"."""
    game, ana, bo = online_game()
    for client, text in ((ana, "ana's own"), (bo, "bo's own")):
        page = client.get(f"/game/{game.id}/").text
        assert "Mix in your own text" in page
        assert client.post(f"/game/{game.id}/seed/", {"text": text}).status_code == 302
        assert "Mix in your own text" not in client.get(f"/game/{game.id}/").text
    again = bo.post(f"/game/{game.id}/seed/", {"text": "more"}, headers=HTMX)
    assert again.status_code == 409 and "already added" in again.text
    game.refresh_from_db()
    assert game.player_seed == "ana's own\nbo's own"  # in seat order, one a line
    page = ana.get(f"/game/{game.id}/").text
    assert "Ana: <code>ana&#x27;s own</code>" in page and "Bo: <code>bo&#x27;s own</code>" in page
    first = game.ordered_seats()[0].visitor
    services.perform(game.id, first, "roll", {}, 0)
    rolled = Action.objects.get(game=game).payload["dice"]
    assert rolled == dice.faces(dice.key(game.seed, "ana's own\nbo's own"), 0, 1, 1, range(5))
    late = bo.post(f"/game/{game.id}/seed/", {"text": "late"}, headers=HTMX)
    assert late.status_code == 409  # the first roll closes it for everyone

    game = finished(game)
    verify = ana.get(f"/game/{game.id}/verify/")
    assert verify.status_code == 200 and "exactly what the seed gives" in verify.text
    assert "Ana: <code>ana&#x27;s own</code><br>Bo: <code>bo&#x27;s own</code>" in verify.text
    # A checker types the texts in the form's text area (its line breaks come as CR LF).
    typed = {"seed": game.seed, "text": "ana's own\r\nbo's own"}
    assert "exactly what the seed gives" in ana.get(f"/game/{game.id}/verify/", typed).text
    one = ana.get(f"/game/{game.id}/verify/", {"seed": game.seed, "text": "ana's own"})
    assert "do not match the seed" in one.text


def finished(game: Game) -> Game:
    from tests.factories import play_out as play_all

    return play_all(game)


def test_a_game_with_one_text_keeps_its_key_and_a_game_from_before_keeps_its_text():
    """The key of one text is the one it had when only one player could add text; a game that
    stored its one text before seats kept their own shows it and takes no second."""
    assert dice.players_text(["", "only", ""]) == "only"
    assert (
        dice.key("ab" * 32, dice.players_text(["only"]))
        == hashlib.sha256(f"{'ab' * 32}\nonly".encode()).digest()
    )
    game = services.start_solo_game(VISITOR)
    Game.objects.filter(pk=game.pk).update(player_seed="from before")
    client = client_for()
    page = client.get(f"/game/{game.id}/").text
    assert "<code>from before</code>" in page
    refused = client.post(f"/game/{game.id}/seed/", {"text": "mine"}, headers=HTMX)
    assert refused.status_code == 409 and "already added" in refused.text
