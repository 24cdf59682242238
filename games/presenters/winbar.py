"""The win-probability bar of a two-player game, and the line of it through a finished game.

Each player's chance to win from the position (both cards, whose turn, the dice and the rolls
left) comes from ``games.winchance``; this module decides who may see it and turns it into
figures that add up to 100, for ``play.html#winbar`` (the game page, its pushes and the replay)
and the analysis page's chart.

Who sees it: the same rule as the coach's (``coach_allowed``) for a game's players while it is
played, since a bar that moves with every roll is advice of a kind; the watchers of an online
game do see it, as chess broadcasts show their evaluation to spectators: it does not change with
the dice held, so a player who opens the game in a second browser cannot ask it which keep is
best (a game whose dice others play the same day has no watchers: ``Game.open_to``). Once a
game is over, everyone who may see it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext

from engine.flow import GameState
from games import winchance
from games.models import Game, Seat
from games.presenters.analysis import CHART_HEIGHT, CHART_PAD, CHART_WIDTH
from games.presenters.coach import coach_allowed
from games.presenters.players import is_own, seat_name


def may_see(game: Game, viewer: Seat | None) -> bool:
    """Whether this page may show the game's chances (see the module's docstring)."""
    if game.status == Game.Status.FINISHED:
        return True
    return viewer is None or coach_allowed(game)


def may_show(game: Game, seats: Sequence[Seat], viewer: Seat | None) -> bool:
    """Whether this page can show the bar at all (and so links its styles): two players, a
    viewer who may see it, a model of the game's rule set loaded."""
    return len(seats) == 2 and may_see(game, viewer) and winchance.is_ready(game.rules)


def needs_styles(game: Game, seats: Sequence[Seat], viewer: Seat | None) -> bool:
    """Whether this page links the bar's styles: as ``may_show``, or while the model is still
    loading (the first game after a start), since a push brings the bar once it is loaded."""
    return len(seats) == 2 and may_see(game, viewer) and winchance.available(game.rules)


def position_chances(state: GameState) -> tuple[float, float] | None:
    """The two players' chances in this position; None for another number of players, a
    forfeit (the game is then one player's), or while the model is not ready."""
    if len(state.cards) != 2 or state.forfeited:
        return None
    dice = tuple(sorted(state.turn.dice)) or None
    return winchance.chances(state.cards, state.current, dice, state.turn.rolls_left)


def percents(chances: Sequence[float]) -> tuple[int, int]:
    """Whole percents that add up to 100: the first rounded, the second what is left."""
    first = min(100, max(0, round(100 * chances[0])))
    return first, 100 - first


def win_bar(
    game: Game, seats: Sequence[Seat], state: GameState, viewer: Seat | None, *, now: bool
) -> dict | None:
    """The bar's figures for this page, or None where it is not shown.

    ``now``: the game page as the game is now, where a finished game shows its result instead.
    """
    if len(seats) != 2 or (now and state.finished) or not may_see(game, viewer):
        return None
    chances = position_chances(state)
    if chances is None:
        return None
    names = [seat_name(seat, own=is_own(seat, viewer)) for seat in seats]
    shares = percents(chances)
    players = [
        {
            "position": position,
            "percent": percent,
            "line": gettext("%(name)s %(percent)s%%") % {"name": name, "percent": percent},
        }
        for position, (name, percent) in enumerate(zip(names, shares, strict=True))
    ]
    return {"players": players, "first": shares[0], "second": shares[1]}


def win_line(
    game: Game, actions: Sequence[tuple[int, str, dict]], visitor: str | None
) -> dict | None:
    """The first player's chance to win before each roll and score of a finished two-player
    game, and at its end, as the analysis page draws it (the second's is the rest up to 100);
    None where there is no bar. ``visitor`` reads its own seat as "You"."""
    seats = game.ordered_seats()
    if len(seats) != 2:
        return None
    state = GameState.new(2, rules=game.rules)
    values = []
    for action in [*actions, None]:
        if state.forfeited:  # one player's game from here: the line stops
            break
        if action is None or action[1] != "hold":
            chances = position_chances(state)
            if chances is None:
                return None
            values.append(percents(chances)[0])
        if action is not None:
            state = state.apply(*action)
    if len(values) < 2:
        return None
    viewer = game.seat_of(visitor)
    names = [seat_name(seat, own=is_own(seat, viewer)) for seat in seats]
    end = values[-1]
    return _chart(values) | {"names": names, "first_end": end, "second_end": 100 - end}


def _chart(values: list[int]) -> dict:
    """A line of percents over the analysis chart's frame (0% at the bottom), and the areas
    under and over it, closed along the bottom and the top."""
    step = (CHART_WIDTH - 2 * CHART_PAD) / max(len(values) - 1, 1)

    def y(percent: float) -> float:
        return round(CHART_HEIGHT - CHART_PAD - percent / 100 * (CHART_HEIGHT - 2 * CHART_PAD), 1)

    points = [(round(CHART_PAD + i * step, 1), y(v), v) for i, v in enumerate(values)]
    line = " ".join(f"{x},{y_}" for x, y_, _ in points)
    left, right = points[0][0], points[-1][0]
    return {
        "polyline": line,
        "below": f"{left},{y(0)} {line} {right},{y(0)}",
        "above": f"{left},{y(100)} {line} {right},{y(100)}",
        "points": [{"x": x, "y": y_, "percent": v} for x, y_, v in points],
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "pad": CHART_PAD,
        "left": left,
        "y_full": y(100),
        "y_half": y(50),
        "y_none": y(0),
    }
