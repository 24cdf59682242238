"""Turn stored games into what the templates show, by concern.

``words`` (what the game page says, per language), ``players`` (names, presence, ranking),
``card`` (the scorecard's rows and totals), ``dice`` (the five dice and the roll button),
``news`` (the message line), ``coach`` (hints and odds), ``page`` (the game page's context and
its fragments), ``sheets`` (the printable card and the guide), ``analysis`` (a finished game's
analysis). Kept apart from the views so that pages, fragments and pushed updates show the same
thing. The modules are imported by name: this package re-exports nothing.
"""
