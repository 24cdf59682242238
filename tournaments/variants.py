"""The game a tournament is played in: which ones it may be (``services.check_options``, and
``services.add_computer`` for the computer a maker adds), each refusal in the player's words.
The rules a player meets: ``docs/tournaments.md``, "The game"."""

from __future__ import annotations

from core.refusals import ActionRefused
from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _
from games import advice
from lobby.forms import check_between_people
from tournaments.models import Tournament


def check_variant(rules: RuleSet, format: str, *, rated: bool) -> None:
    """Refuse a game no tournament is played in: one not offered between people; a rated one in
    anything but Yahtzee (a rating compares like with like); a duplicate, ranked by the points
    lost against the perfect player, in a game whose table the perfect player has not yet."""
    check_between_people(rules)
    if rated and rules is not YAHTZEE:
        raise ActionRefused(
            _("A rated tournament is played in Yahtzee: choose Yahtzee or unrated.")
        )
    # ``offered``: its table is loaded, or one the solver makes (being built a while, the computer
    # plays as the beginner, ``matches.playable``, and points lost are worked out later).
    if format == Tournament.Format.DUPLICATE and not advice.offered(rules):
        raise ActionRefused(
            _(
                "A duplicate ranks by the points lost against the perfect player, who cannot play "
                "%(game)s yet: choose another game or format."
            ),
            game=rules.name,
        )


def check_computer(strength: str, rules: RuleSet) -> None:
    """Refuse a computer that cannot play this game: its strength needs the perfect player's
    table of it, not there yet (the beginner needs none)."""
    if strength:
        advice.check_bot(strength, rules)
