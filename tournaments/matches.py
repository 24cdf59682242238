"""Starting a tournament's game between two entries (or one and the computer): the game, through
games' own services, with the tournament's turn timer, ranked when the tournament is rated and
both players are people; its rows (``TournamentGame``, one an entry); and the players' open
pages sent to it (their lobby pages, and the page of the game they just finished).

Called by the clock (``tournaments.clock``) under the tournament's row lock. A game between two
computers (a Swiss may pair them) plays itself out as it is made: the caller records it.
"""

from __future__ import annotations

import secrets

from engine.rulesets import RuleSet
from games import advice
from games import services as games
from games.models import Game
from lobby import notify
from tournaments.models import Entry, Tournament, TournamentGame

DEFAULT_COMPUTER = "club"  # the computer's strength where the maker chose none
# Where the strategy table a strength needs is not loaded (missing or damaged), the computer plays
# as the beginner, who needs none, rather than hold the whole tournament up (shown as it plays).
FALLBACK_COMPUTER = "beginner"


def playable(strength: str, rules: RuleSet) -> str:
    """The strength the computer plays ``rules`` at now: the one asked, or
    ``FALLBACK_COMPUTER``."""
    return strength if advice.bot_can_play(strength, rules) else FALLBACK_COMPUTER


def start(
    tournament: Tournament, a: Entry, b: Entry | None, round_number: int | None = None
) -> Game:
    """A game of the tournament between two entries (``b`` None: the maker's computer, or the
    default one), with its rows; the people's open pages are sent to it."""
    rules = tournament.rules
    pair = [a, b] if b is not None else [a]
    people = [entry for entry in pair if not entry.bot]
    computers = [entry for entry in pair if entry.bot]
    if len(people) == 2 and secrets.randbelow(2):  # who plays first: a coin's toss
        people.reverse()
    if not people:  # two computers (a Swiss may pair them): the game plays itself out at once
        bots = {0: playable(computers[0].bot, rules), 1: playable(computers[1].bot, rules)}
        game = games.start_game("", ["", ""], mode=Game.Mode.COMPUTER, bots=bots, rules=rules)
    else:
        strength = computers[0].bot if computers else ""
        if b is None:
            strength = tournament.computer or DEFAULT_COMPUTER
        game = games.start_online_game(
            [entry.player for entry in people],
            ranked=tournament.rated and len(people) == 2,
            turn_seconds=tournament.turn_seconds,
            computer=playable(strength, rules) if strength else "",
            rules=rules,
        )
    seated = people + computers
    for position, entry in enumerate(seated):
        other = next((e for e in seated if e is not entry), None)
        TournamentGame.objects.create(
            tournament=tournament,
            entry=entry,
            game=game,
            seat=position,
            round=round_number,
            opponent=other,
            against_computer=other is None or bool(other.bot),
        )
        if entry.waiting_since is not None:
            entry.waiting_since = None
            entry.save(update_fields=["waiting_since"])
    for entry in people:  # their lobby pages, and the page of the game they just finished
        notify.navigate([entry.player.visitor], game, rematch_of=_previous(entry, game))
    return game


def start_solo(tournament: Tournament, entry: Entry, seed: str, reveal_after) -> Game:
    """A duplicate round's solo game for an entry, on the round's seed, its dice shown only
    when the round is over (``reveal_after``, brought forward then); the player's pages are sent
    to it. The computer's plays itself out as it is made."""
    if entry.bot:
        game = games.start_game(
            "",
            [""],
            mode=Game.Mode.SOLO,
            bots={0: playable(entry.bot, tournament.rules)},
            rules=tournament.rules,
            seed=seed,
            reveal_after=reveal_after,
        )
    else:
        game = games.start_game(
            entry.player.visitor,
            [entry.player.name],
            mode=Game.Mode.SOLO,
            rules=tournament.rules,
            seed=seed,
            reveal_after=reveal_after,
            turn_seconds=tournament.turn_seconds,
        )
    TournamentGame.objects.create(
        tournament=tournament, entry=entry, game=game, seat=0, round=tournament.round
    )
    if not entry.bot:
        notify.navigate([entry.player.visitor], game, rematch_of=_previous(entry, game))
    return game


def _previous(entry: Entry, game: Game) -> str | None:
    """The entry's last finished game in the tournament before this one (None: the first)."""
    return (
        entry.games.filter(finished_at__isnull=False)
        .exclude(game=game)
        .order_by("-finished_at", "-id")
        .values_list("game_id", flat=True)
        .first()
    )
