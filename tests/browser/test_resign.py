"""Resigning an online game as two players see it, in two browsers against the real server (its
socket pushes the end to the other page at once), with JavaScript and without; and the ranked
queue saying why two players who met three times today wait. On a phone and a laptop, in English
and Spanish. Screenshots go to $SCREENSHOTS_DIR (else the test's tmp dir)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.online import LAPTOP, LOBBY_WORDS, PHONE, go_online
from tests.servers import ROOT, Server

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en-GB": {
        **LOBBY_WORDS["en-GB"],
        "play": "Play ranked",
        "waiting": "Looking for an opponent…",
        "clock": "Time left for this turn:",
        "resign": "Resign…",
        "ask": "Resign this game?",
        "loss": "It counts as a loss in your rating.",
        "yes": "Yes, resign",
        "over": "Game over",
        "win": "You win!",
        "resigned": "{} resigned.",
        "you_resigned": "You resigned.",
        "met": "You have played {} 3 times in the last 24 hours",
    },
    "es-ES": {
        **LOBBY_WORDS["es-ES"],
        "play": "Jugar clasificatoria",
        "waiting": "Buscando rival…",
        "clock": "Tiempo que queda de este turno:",
        "resign": "Rendirse…",
        "ask": "¿Rendirte en esta partida?",
        "loss": "Cuenta como una derrota en tu puntuación.",
        "yes": "Sí, me rindo",
        "over": "Fin de la partida",
        "win": "¡Has ganado!",
        "resigned": "{} se ha rendido.",
        "you_resigned": "Te has rendido.",
        "met": "Has jugado con {} 3 veces en las últimas 24 horas",
    },
}


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path) as running:
        yield running


def ranked_game(ana: Page, bo: Page, words: dict) -> None:
    """Ana queues, Bo queues: both pages are taken to their ranked game."""
    ana.get_by_role("button", name=words["play"]).click()
    expect(ana.locator("#ranked").get_by_role("status")).to_contain_text(words["waiting"])
    bo.get_by_role("button", name=words["play"]).click()
    for page in (ana, bo):
        expect(page).to_have_url(re.compile(r"/game/[\w-]+/$"))


def play_a_box_each(ana: Page, bo: Page) -> None:
    """Each player rolls once and scores the first box offered, whoever starts: a ranked game
    ended before each player has scored a box is not rated (lobby.ranked)."""
    for _ in range(2):
        me = ana if ana.locator("#roll-button").count() else bo
        other = bo if me is ana else ana
        me.locator("#roll-button").click()
        me.locator("a.pick").first.click()
        me.locator("button.score").click()
        expect(me.locator("#roll-button")).to_have_count(0)
        expect(other.locator("#roll-button")).to_be_enabled()


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_player_resigns_a_ranked_game_and_the_other_sees_the_win_at_once(
    browser, server, viewport, locale, tmp_path
):
    words = WORDS[locale]
    shots = Path(os.environ.get("SCREENSHOTS_DIR", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    tag = f"resign-{locale}-{viewport['width']}"
    ana = browser.new_context(viewport=viewport, locale=locale).new_page()
    bo = browser.new_context(viewport=viewport, locale=locale).new_page()
    go_online(ana, server.url, "Ana", words)
    go_online(bo, server.url, "Bo", words)
    ranked_game(ana, bo, words)
    # The turn clock is always on in a ranked game, on both pages.
    for page in (ana, bo):
        expect(page.get_by_role("timer")).to_contain_text(words["clock"])
        expect(page.get_by_role("timer").locator(".countdown")).to_have_text(
            re.compile(r"^0:\d\d$")
        )
    play_a_box_each(ana, bo)
    ana.screenshot(path=shots / f"{tag}-1-game.png", full_page=True)

    # Ana resigns: first a page that says what it costs, then the button that confirms.
    ana.get_by_role("button", name=words["resign"]).click()
    expect(ana.get_by_role("heading", name=words["ask"])).to_be_visible()
    expect(ana.get_by_text(words["loss"])).to_be_visible()
    ana.screenshot(path=shots / f"{tag}-2-confirm.png", full_page=True)
    ana.get_by_role("button", name=words["yes"]).click()
    expect(ana.get_by_role("heading", name=words["over"])).to_be_visible()
    expect(ana.locator("#messages")).to_contain_text(words["you_resigned"])
    expect(ana.locator(".ranking .rating-change.down")).to_be_visible()
    ana.screenshot(path=shots / f"{tag}-3-ana-resigned.png", full_page=True)

    # Bo's page, never reloaded, is told over its socket: he won, and why.
    expect(bo.get_by_role("heading", name=words["over"])).to_be_visible()
    expect(bo.locator(".final-total")).to_have_text(words["win"])
    expect(bo.locator("#messages")).to_contain_text(words["resigned"].format("Ana"))
    expect(bo.locator(".ranking .rating-change.up")).to_be_visible()
    expect(bo.get_by_role("button", name=words["resign"])).to_have_count(0)
    bo.screenshot(path=shots / f"{tag}-4-bo-won.png", full_page=True)


def test_resigning_works_without_javascript(browser, server):
    """Ana's browser runs no script: Resign, the confirmation and the end are plain pages; Bo's
    page (with JavaScript) is told at once."""
    words = WORDS["en-GB"]
    ana = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()
    bo = browser.new_context(viewport=PHONE).new_page()
    go_online(ana, server.url, "Ana", words)
    go_online(bo, server.url, "Bo", words)
    # A friendly game (a page without scripts has no socket, so it never counts as online for
    # the ranked queue's pairing: issue 29's presence item, not this one).
    ana.goto(server.url + "/online/")
    ana.get_by_role("button", name="Challenge Bo").click()
    bo.get_by_role("button", name="Accept").click()
    expect(bo).to_have_url(re.compile(r"/game/[\w-]+/$"))
    ana.goto(bo.url)  # no socket takes a page without scripts to its game: it opens it
    ana.get_by_role("button", name=words["resign"]).click()
    expect(ana.get_by_role("heading", name=words["ask"])).to_be_visible()
    ana.get_by_role("button", name=words["yes"]).click()
    expect(ana.get_by_role("heading", name=words["over"])).to_be_visible()
    expect(bo.locator(".final-total")).to_have_text(words["win"])
    expect(bo.locator("#messages")).to_contain_text("Ana resigned.")
    # Back to the confirmation: it is not shown again, the game page says why (once).
    ana.go_back()
    expect(ana.get_by_role("alert")).to_have_text("The game is over.")
    expect(ana.get_by_role("heading", name=words["over"])).to_be_visible()


# Three ranked games between Ana and Bo in the last hours, as their rating rows record them
# (played out, the first one's result would put their ratings too far apart to pair at once).
MET_THREE_TIMES = """
from datetime import timedelta
from django.utils import timezone
from games.models import Game
from lobby.models import Player, RatingChange
for hours in (1, 2, 3):
    game = Game.objects.create(mode=Game.Mode.ONLINE, ranked=True, status=Game.Status.FINISHED)
    for player in Player.objects.filter(name__in=["Ana", "Bo"]):
        RatingChange.objects.create(
            player=player, game=game, value_before=1500, value_after=1500, deviation_after=300,
            score=0.5, created_at=timezone.now() - timedelta(hours=hours),
        )
"""


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_two_who_met_three_times_today_are_told_why_they_wait(browser, server, locale, tmp_path):
    """At their fourth queue today the two are not paired, and both lobby pages say why: the
    first one's pushed over its socket when the second joins."""
    words = WORDS[locale]
    shots = Path(os.environ.get("SCREENSHOTS_DIR", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    ana = browser.new_context(viewport=PHONE, locale=locale).new_page()
    bo = browser.new_context(viewport=LAPTOP, locale=locale).new_page()
    go_online(ana, server.url, "Ana", words)
    go_online(bo, server.url, "Bo", words)
    shell = [sys.executable, "manage.py", "shell", "-c", MET_THREE_TIMES]
    subprocess.run(shell, cwd=ROOT, env=server.env, check=True, capture_output=True)
    ana.get_by_role("button", name=words["play"]).click()
    expect(ana.locator("#ranked").get_by_role("status")).to_contain_text(words["waiting"])
    expect(ana.locator("#ranked")).not_to_contain_text(words["met"].format("Bo"))
    bo.get_by_role("button", name=words["play"]).click()
    expect(bo.locator("#ranked")).to_contain_text(words["met"].format("Ana"))
    expect(ana.locator("#ranked")).to_contain_text(words["met"].format("Bo"))  # pushed
    ana.screenshot(path=shots / f"met-{locale}-390.png", full_page=True)
    bo.screenshot(path=shots / f"met-{locale}-1366.png", full_page=True)
    assert "/online/" in ana.url and "/online/" in bo.url  # both still waiting, not paired
