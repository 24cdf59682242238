"""Provably fair dice, the pages: a player's own text for the seed, and the dice check.

The mechanism is in ``engine.dice``; this module only reads requests and shows what it finds.
The check page recomputes every roll of a finished game from its revealed seed and its log, and
lets anyone try other values (a seed, a player's text) to see that only the committed ones fit.
"""

from __future__ import annotations

import string

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from core.errors import error_page
from core.identity import visitor_id
from engine import dice
from engine.rules import IllegalMove
from games import services
from games.models import Game
from games.presenters.players import seat_name
from games.responses import answered_on_the_game, closed_page


@require_POST
@answered_on_the_game
def add_seed(request: HttpRequest, game_id: str) -> HttpResponse:
    """Mix the player's own text into the dice, before the first roll."""
    services.add_player_seed(game_id, visitor_id(request), request.POST.get("text", ""))
    return HttpResponseRedirect(reverse("games:play", args=[game_id]) + "#fair-dice")


@require_safe
def verify(request: HttpRequest, game_id: str) -> HttpResponse:
    """Every roll of a finished game recomputed from its seed: do they match the log?

    ``?seed=`` and ``?text=`` check other values than the revealed ones (a wrong seed does not
    match the commitment: 400); ``?roll=n`` shows how each die of the n-th roll was worked out.
    """
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    not_yet = gettext("Not yet")
    if (private := closed_page(request, game)) is not None:
        return private
    if not game.seed:
        message = gettext(
            "This game is from before fair dice: its dice were stored as they were rolled, "
            "with no seed to check them against."
        )
        return error_page(request, gettext("No seed"), message, 404)
    if not game.seed_revealed:
        if game.reveal_after is not None and game.status == Game.Status.FINISHED:
            message = gettext(
                "This is the daily challenge: everyone plays the same dice today, so its seed "
                "is shown when the day is over."
            )
        else:
            message = gettext("The seed is shown once the game is over.")
        return error_page(request, not_yet, message, 409)
    seed = request.GET.get("seed", game.seed).strip().lower()
    # One text a line (a form's text area sends its line breaks as CR LF).
    text = request.GET.get("text", game.player_seed).replace("\r\n", "\n")
    errors = []
    if len(seed) != 64 or not set(seed) <= set(string.hexdigits.lower()):
        errors.append(gettext("A seed is 64 hexadecimal digits (0-9, a-f)."))
    elif dice.commitment(seed) != game.seed_hash:
        errors.append(
            gettext(
                "This seed's SHA-256 is not the one the game showed before its first roll: "
                "it is not the seed this game committed to."
            )
        )
    actions = [(a.seq, a.seat, a.kind, a.payload) for a in game.actions.order_by("seq")]
    seats = game.ordered_seats()
    check = None
    if not errors:
        try:
            check = dice.check(actions, len(seats), dice.key(seed, text), rules=game.rules)
        except IllegalMove:  # a log changed behind its back beyond its dice
            message = gettext(
                "This game's log does not replay: it was changed after it was written."
            )
            return error_page(request, gettext("Check the dice"), message, 409)
    shown, derivation = _roll_asked(request, check, seed, text, errors)
    rolls = []
    if check is not None:
        wrong = {m.seq: m for m in check.mismatches}
        for number, (seq, seat, turn, roll, logged, _held) in enumerate(check.checked, 1):
            rolls.append(
                {
                    "number": number,
                    "seq": seq,
                    "player": seat_name(seats[seat]),
                    "turn": turn,
                    "roll": roll,
                    "logged": logged,
                    "expected": wrong[seq].expected if seq in wrong else logged,
                    "matches": seq not in wrong,
                }
            )
    context = {
        "game": game,
        "seed": seed,
        "text": text,
        "committed": game.seed_hash,
        "revealed_seed": game.seed,
        "text_rows": max(1, len(game.seed_texts)),
        "changed": seed != game.seed or text != game.player_seed,
        "errors": errors,
        "check": check,
        "rolls": rolls,
        "several": len(seats) > 1,
        "shown": shown,
        "derivation": derivation,
    }
    return render(request, "games/verify.html", context, status=400 if errors else 200)


def _roll_asked(request: HttpRequest, check, seed: str, text: str, errors: list) -> tuple:
    """The roll ``?roll=n`` asks to explain, and how each of its dice was worked out."""
    asked = request.GET.get("roll")
    if asked is None or check is None:
        return None, []
    number = int(asked) if asked.isascii() and asked.isdigit() and len(asked) <= 6 else 0
    if not 1 <= number <= check.rolls:
        errors.append(
            gettext("There is no roll %(number)s: this game has rolls 1 to %(rolls)s.")
            % {"number": asked[:12], "rolls": check.rolls}
        )
        return None, []
    seq, seat, turn, roll, logged, held = check.checked[number - 1]
    key = dice.key(seed, text)
    derivation = [
        {
            "slot": slot + 1,
            "held": held[slot],
            "message": f"{seat}:{turn}:{roll}:{slot}",
            "face": None if held[slot] else dice.face(key, seat, turn, roll, slot),
            "logged": logged[slot] if slot < len(logged) else None,
        }
        for slot in range(len(held))
    ]
    return number, derivation
