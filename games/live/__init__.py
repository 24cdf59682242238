"""The live layer: WebSockets that move rendered fragments and never decide anything.

``sockets``: what every socket goes through before its consumer (origin, paths, language).
``pages``: what every page's consumer shares. ``csrf``: tokens of forms sent over sockets.
``sending``: sends to groups from sync code. ``threads``: where moves sent over sockets run.
``games.consumers`` and ``lobby.consumers`` hold the consumers; they listen to ``games.events``.
"""
