"""The game engine: rule sets, a game's flow, the dice, ratings and the perfect player.

Pure Python and numpy: no Django, no I/O beyond the strategy tables' files, which the caller
names. Everything that stores, shows or sends a game builds on it; nothing here imports them.
"""
