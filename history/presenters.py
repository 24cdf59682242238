"""What "My games" shows: each finished game as plain values for its template."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext, ngettext

from engine.rulesets import YAHTZEE, RuleSet, rule_set
from engine.words import _
from games.models import Game
from games.presenters.players import seat_name
from history import stats
from history.models import Summary

PAGE_SIZE = 25
# The filters of My games: the key in ``?mode=``, what it shows, and which summaries it keeps.
FILTERS: dict[str, tuple[str, Q]] = {
    "all": (_("All"), Q()),
    "solo": (_("Solo"), Q(mode=Game.Mode.SOLO)),
    "computer": (_("Against the computer"), Q(mode=Game.Mode.COMPUTER)),
    "local": (_("Pass the phone"), Q(mode=Game.Mode.LOCAL)),
    "online": (_("Online"), Q(mode=Game.Mode.ONLINE)),
    "ranked": (_("Ranked"), Q(ranked=True)),
    "diamonds": (_("Diamonds"), Q(stake__gt=0)),
}
MODE_WORDS = {
    Game.Mode.SOLO: _("Solo"),
    Game.Mode.COMPUTER: _("Against the computer"),
    Game.Mode.LOCAL: _("Pass the phone"),
    Game.Mode.ONLINE: _("Online"),
}
RESULT_WORDS = {"won": _("Won"), "drew": _("Draw"), "lost": _("Lost"), "left": _("Left")}


def filters(current: str) -> list[dict]:
    """The filter links, the current one marked."""
    return [
        {"key": key, "label": gettext(label), "current": key == current}
        for key, (label, _q) in FILTERS.items()
    ]


def other_game(rules_key: str) -> str:
    """A game's name in the page's language where it is not Yahtzee (the site's own: "")."""
    return "" if rules_key == YAHTZEE.key else gettext(rule_set(rules_key).name)


def stats_games(visitor: str, current: RuleSet) -> list[dict]:
    """The games whose stats a page can show (those played to the end, and Yahtzee), each with
    its key, its name in the page's language, and whether it is the one shown."""
    return [
        {"key": key, "label": gettext(rule_set(key).name), "current": key == current.key}
        for key in stats.games_played(visitor)
    ]


def games_of(visitor: str | None, mode: str):
    """This browser's finished games of a filter, newest first, one summary per game."""
    return Summary.objects.of_visitor(visitor or "").filter(FILTERS[mode][1]).listed()


def row(summary: Summary) -> dict:
    """One line of My games (the summary's game and its seats prefetched)."""
    game = summary.game
    seats = game.ordered_seats()
    mine = next(seat for seat in seats if seat.pk == summary.seat_id)
    row = {
        "game": game,
        "finished_at": summary.finished_at,
        "mode": _mode_words(summary),
        "total": summary.total,
        "result": "",
        "result_word": "",
        "accuracy": summary.accuracy,
    }
    if summary.mode == Game.Mode.LOCAL:
        # Everyone at the table played on this browser: the game is listed once, with everyone.
        # A computer at the table is named as the computer, and its score and its win are not
        # this browser's: the score is the best of its people's, and a computer's win is a loss.
        totals = [(seat, seat.card().total) for seat in seats]
        best = max(total for _seat, total in totals)
        winners = [seat for seat, total in totals if total == best]
        row["opponents"] = ", ".join(f"{seat_name(seat)} ({total})" for seat, total in totals)
        row["total"] = max(total for seat, total in totals if not seat.bot)
        if len(winners) > 1:
            row["result"], row["result_word"] = "drew", gettext("Draw")
        else:
            row["result"] = "lost" if winners[0].bot else "won"
            row["result_word"] = gettext("%(name)s won") % {"name": seat_name(winners[0])}
        return row
    row["opponents"] = ", ".join(seat_name(seat, own=False) for seat in seats if seat is not mine)
    if summary.mode != Game.Mode.SOLO:
        if summary.forfeited:
            row["result"] = "left"
        else:
            row["result"] = {1.0: "won", 0.5: "drew", 0.0: "lost"}.get(summary.result, "lost")
        row["result_word"] = gettext(RESULT_WORDS[row["result"]])
    return row


def _mode_words(summary: Summary) -> str:
    words = [gettext(MODE_WORDS[summary.mode]), other_game(summary.rules_key)]
    if summary.daily:
        words.append(gettext("daily challenge"))
    if summary.ranked:
        words.append(gettext("ranked"))
    if summary.stake:
        words.append(
            ngettext("%(count)s diamond", "%(count)s diamonds", summary.stake)
            % {"count": summary.stake}
        )
    return " · ".join(word for word in words if word)
