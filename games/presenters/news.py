"""The message line: what happened since the player last acted, in sentences."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from games.models import Action, Game, Seat
from games.presenters.players import is_own, seat_name, shares_screen
from games.presenters.words import label
from games.recent import LoggedAction


def recent_news(game: Game, state, seats: list[Seat], me: Seat | None) -> list[str]:
    """What happened since this player last acted (others' turns, the computer's), in order.

    Each redraw tells the story again, one more line at a time: a screen reader is given only
    the lines a page had not shown yet (static/js/game.js, announceNews).
    """
    if game.just_logged:  # the game as a move left it: its last action is the latest
        latest = game.just_logged[-1]
        if len(seats) == 1 or me is not None and latest.seat == me.position:
            return [describe(latest, state, seats, me)]  # as below, without reading the log
    recent = Action.objects.recent(game, me)
    if not recent:
        if me is None or me.position != state.current:  # a watcher, or the others' first turn
            return [gettext("No dice rolled yet.")]
        return [gettext("Roll the dice to start.")]
    return _since_mine(recent, state, seats, me)


def _since_mine(actions, state, seats: list[Seat], me: Seat | None) -> list[str]:
    """The sentences for ``actions`` (oldest first) after the player's own last one among them."""
    mine = [i for i, a in enumerate(actions) if me is not None and a.seat == me.position]
    if mine and mine[-1] == len(actions) - 1 or len(seats) == 1 or len(actions) == 1:
        return [describe(actions[-1], state, seats, me)]
    since = actions[mine[-1] + 1 :] if mine else actions
    # Holds are part of the story only as what was kept at the next roll: leave them out, but
    # the latest, told with the state it left (another player's hold says what they hold now).
    earlier = [describe(a, None, seats, me) for a in since[:-1] if a.kind != "hold"]
    return [*earlier, describe(since[-1], state, seats, me)]


def describe(action: Action | LoggedAction, state, seats: list[Seat], me: Seat | None) -> str:
    """A sentence saying what an action did, for the message line and screen readers.

    ``state`` is the state right after the action (for the rolls left and the dice held), or None.
    """
    actor = seats[action.seat]
    mine = is_own(actor, me)
    if mine and (len(seats) == 1 or not actor.name or not shares_screen(seats)):
        name = ""  # the player's own move: "You rolled…" (or "Rolled…" alone, solo)
    elif me is None and not actor.name and not actor.bot:
        name = gettext("The player")  # a watcher: not "you"
    else:
        name = seat_name(actor)
    held = _held_faces(state)
    if action.kind == "roll":
        faces = " ".join(str(d) for d in action.payload["dice"])
        if held and name:
            faces = pgettext("another's roll", "%(dice)s; holding %(held)s") % {
                "dice": faces,
                "held": held,
            }
        elif held:
            faces = pgettext("own roll", "%(dice)s; holding %(held)s") % {
                "dice": faces,
                "held": held,
            }
        if name:
            return gettext("%(name)s rolled %(dice)s.") % {"name": name, "dice": faces}
        left = state.turn.rolls_left if state is not None else 0
        values = {"dice": faces, "left": left}
        if len(seats) > 1:
            return (
                ngettext(
                    "You rolled %(dice)s. %(left)s roll left.",
                    "You rolled %(dice)s. %(left)s rolls left.",
                    left,
                )
                % values
            )
        return (
            ngettext(
                "Rolled %(dice)s. %(left)s roll left.",
                "Rolled %(dice)s. %(left)s rolls left.",
                left,
            )
            % values
        )
    if action.kind == "hold" and state is not None:  # what is held now, as the dice show it
        if name and held:
            return gettext("%(name)s holds %(dice)s.") % {"name": name, "dice": held}
        if name:
            return gettext("%(name)s holds no dice.") % {"name": name}
        if held:
            return gettext("Holding %(dice)s.") % {"dice": held}
        return gettext("No dice held.")
    if action.kind == "hold":
        number = action.payload["die"] + 1
        if action.payload["held"]:
            return gettext("Die %(number)s held.") % {"number": number}
        return gettext("Die %(number)s released.") % {"number": number}
    if action.kind == "timeout":
        return gettext("%(name)s ran out of time.") % {"name": seat_name(actor, own=False)}
    if action.kind == "resign" and action.payload.get("timed_out"):
        values = {"name": seat_name(actor, own=False)}
        return gettext("%(name)s ran out of time three turns in a row and has left.") % values
    if action.kind == "resign":
        if not name:
            return gettext("You resigned.")
        return gettext("%(name)s resigned.") % {"name": name}
    if action.kind == "forfeit" and action.payload["seat"] == action.seat:
        values = {"name": seat_name(actor, own=False)}
        return gettext("%(name)s ran out of time three turns in a row and has left.") % values
    if action.kind in ("forfeit", "end"):
        values = {"name": seat_name(actor), "absent": seat_name(seats[action.payload["seat"]])}
        if action.kind == "end":
            return gettext("%(name)s ended the game; %(absent)s forfeits.") % values
        return gettext("%(name)s goes on without %(absent)s, who forfeits.") % values
    points = action.payload.get("points", 0)
    values = {"points": points, "box": label(action.payload["box"]), "name": name}
    if action.payload.get("timed_out"):  # the server scored it: the seat's time had run out
        if not name:
            message = ngettext(
                "Time ran out: %(points)s point in %(box)s was scored for you.",
                "Time ran out: %(points)s points in %(box)s were scored for you.",
                points,
            )
        else:
            message = ngettext(
                "Time ran out: %(points)s point in %(box)s was scored for %(name)s.",
                "Time ran out: %(points)s points in %(box)s were scored for %(name)s.",
                points,
            )
        return message % values
    if name:
        return (
            ngettext(
                "%(name)s scored %(points)s point in %(box)s.",
                "%(name)s scored %(points)s points in %(box)s.",
                points,
            )
            % values
        )
    if len(seats) > 1:
        return (
            ngettext(
                "You scored %(points)s point in %(box)s.",
                "You scored %(points)s points in %(box)s.",
                points,
            )
            % values
        )
    return (
        ngettext(
            "Scored %(points)s point in %(box)s.", "Scored %(points)s points in %(box)s.", points
        )
        % values
    )


def _held_faces(state) -> str:
    """The faces of the held dice after an action (``state``), in the dice's order; "" if none."""
    if state is None or not state.turn.dice:
        return ""
    held = zip(state.turn.dice, state.turn.held, strict=True)
    return " ".join(str(face) for face, kept in held if kept)
