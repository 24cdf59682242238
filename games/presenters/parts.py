"""Which parts of the game page a change redraws: decided here, where the page is drawn.

The services say what happened (``games.events.Change``); the views answer the mover with
``changed_parts`` and the live layer pushes ``redrawn`` to the other pages, so that only those
fragments of ``templates/games/play.html`` are rendered and sent.
"""

from __future__ import annotations

from games.events import Change
from games.models import Game

# What a move changes on the page, so that only those fragments are redrawn and pushed.
CHANGED_PARTS = {
    "roll": ("dice", "coach", "card", "status", "messages"),
    "hold": ("dice", "coach", "messages"),
}
# The pages that cannot play now (the other seats, watchers) show no box previews and no coach:
# until a box is scored, only their dice and message line change, and with a roll the chances to
# win (a part of the status, drawn with it elsewhere).
ONLOOKERS_SEE = {"roll": ("dice", "messages", "winbar"), "hold": ("dice", "messages")}


def changed_parts(kind: str, *, onlooker: bool = False) -> tuple[str, ...]:
    """The page fragments a move of this kind changes (the whole game area by default).

    ``onlooker``: on a page that cannot play now.
    """
    if onlooker and kind in ONLOOKERS_SEE:
        return ONLOOKERS_SEE[kind]
    return CHANGED_PARTS.get(kind, ("game",))


def scored_parts(game: Game, box: str) -> tuple[str, ...]:
    """What a score in ``box`` changes on the pages of the players who did not score it, and of
    the watchers: the panels above the card, whose turn it is on the names row, the box's row
    and the totals (the scorer's own pages redraw the whole game area: their previews go).

    A push of those parts is about a third of the whole area's bytes and elements, which is
    what the receiving page's work grows with (docs/benchmarks.md, session 14).
    """
    parts = ["status", "messages", "dice", "coach", "card_head", f"box_row:{box}"]
    if box in game.rules.upper:
        parts.append("upper_totals")
    if game.rules.joker:
        parts.append("yahtzee_bonus_row")  # a joker's Yahtzee bonus comes with any box
    return (*parts, "totals")


def redrawn(change: Change, game: Game | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The parts a change redraws on the mover's pages, and on everyone else's (without a mover:
    on the pages that can play now, and on those that cannot)."""
    if change.rematch:  # the log did not change: only the offer, under the game's status
        return ("status",), ("status",)
    if change.followed or not change.action:  # the computer's turns followed: everything
        parts = onlookers = ("game",)
    elif change.action == "score" and not change.finished and game is not None:
        parts, onlookers = ("game",), scored_parts(game, change.box)
    else:
        parts = changed_parts(change.action)
        onlookers = changed_parts(change.action, onlooker=True)
    # A seat that was away is back: the others see it on the names row (in the status).
    if change.returned and not {"game", "status"} & set(onlookers):
        onlookers = (*onlookers, "status")
    return parts, onlookers
