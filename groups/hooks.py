"""What a group's page asks the apps built on groups, so that groups imports none of them: the
group's tournaments (the tournaments app answers in its ``AppConfig.ready()``, as the lobby
answers ``games.presenters.hooks``). Unanswered, a question gets its default: no tournaments."""

from __future__ import annotations

from games.presenters.hooks import Question


def no_tournaments(group, viewer) -> dict:
    """The default answer: nothing upcoming, under way or past, and no way to make one."""
    return {"upcoming": [], "under_way": [], "past": [], "new_url": ""}


# (group, the viewing member's lobby.Player) -> the group's tournaments, each list newest
# first, each entry a dict {"name": str, "url": str, "when": datetime or None, "note": str}
# ("note": a short line such as "Arena · 12 players"); "new_url": where a member makes one for
# the group ("" for none).
GROUP_TOURNAMENTS = Question(no_tournaments)
