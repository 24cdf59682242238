"""What the lobby asks the apps built on it about a private table, so that the lobby imports
none of them: who may take a seat, whom the table is for, and which tables the lobby lists for a
player (a group's tables: ``groups`` answers in ``GroupsConfig.ready``). Unanswered, a table is
for anyone with its link, and the lobby lists none."""

from __future__ import annotations

from django.dispatch import Signal

from games.presenters.hooks import Question

# (table, player) -> None when the player may take a seat, else why not: a message template
# (marked, untranslated), refused with a 403.
TABLE_ADMITS = Question(lambda table, player: None)
# (table) -> whom the table is for, as its page says it: {"name": ..., "url": ...}; None for
# anyone with the link.
TABLE_FOR = Question(lambda table: None)
# (player) -> the open tables sent to this player by the apps above (a group's tables), for the
# lobby's list of challenges: each {"host", "group" (names), "seats", "max" (how many are
# taken, of how many), "rules" (the game it is played in), "url" (the table's page)}.
TABLES_FOR = Question(lambda player: [])
# Sent (with ``code``) after a change to a table's seats or game is committed, as its pages are
# told: an app that lists the table elsewhere (a group's page) redraws it there.
table_changed = Signal()
