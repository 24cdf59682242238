"""The game engine: rule sets, a game's flow, the dice, ratings and the perfect player.

A rule set (``engine.rulesets``) is a value every part asks: the card (``rules``), a game's flow
(``flow``), the dice (``dice``), the analysis and the strategy engine (``strategy``). ``words``
holds the one translation marker.

Pure Python and numpy: no Django, no I/O beyond the strategy tables' files, which the caller
names. Everything that stores, shows or sends a game builds on it; nothing here imports them.
"""
