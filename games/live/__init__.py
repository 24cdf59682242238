"""The live layer: WebSockets that move rendered fragments and never decide anything.

``sockets``: what every socket goes through before its consumer (origin, paths, language).
``pages``: what every page's consumer shares (groups, heartbeat, presence, a leaving that runs
once). ``redraws``: after a move commits, the other pages' redraws rendered once, with the same
partials as the views, and sent in group messages that consumers only forward. ``moves``: moves
sent over a page's socket (the frame's limits, the page's budget, applied through
``services.perform`` and answered as a post is). ``threads``: where their database work and
their rendering run (``MOVE_THREADS``), never on the event loop. ``csrf``: the tokens of forms
sent over sockets. ``sending``: sends to groups from sync code. ``games.consumers`` and
``lobby.consumers`` hold the thin consumers; the layer listens to ``games.events`` (connected in
``GamesConfig.ready``), so nothing below the views imports it. Every message's shape, what pages
send and are sent and what goes through the channel layer, is named once in
``core.socket_messages``.

What a page does with what it gets (``static/js/game.js``):

- Every redraw carries the log position it shows (``data-version`` in the message line); a push
  that is not newer than the page is dropped, so the push of a player's own move, arriving after
  the answer, cannot wipe a box just selected. The page that made a move is named (``?tab=`` on
  its socket, ``X-Tab`` on its requests) and skips the push of its own move.
- A redraw is the fragments the move changed on that page, each marked as an out-of-band swap
  of a container's insides, and the card's rows it changed in a ``<template data-rows>``
  (a score's push to the other pages: ``games.presenters.parts.scored_parts``); game.js swaps
  them in by id.
- A socket that connects is sent the game as it is at once, so a move made between page load and
  connection is not missed.
- While the socket is open, roll, hold and score go over it (the same fields as JSON plus
  ``"move"``), each form once; the answer starts with ``<!-- answer -->``. Without a socket, or
  JavaScript, the forms post. A move that gets no answer (3 s), or whose post fails, is kept and
  sent again once the socket is back; it carries its ``step``, so the server applies it once or
  refuses it as stale.
- A dropped socket is tried again after 250-500 ms, then 500-1000 ms, then 750-1500 ms for good,
  with "Reconnecting…" on the page meanwhile.

Presence: one ``OpenPage`` row per open socket (``games.presence``), renewed by a 20 s heartbeat
and copied onto the seat or the player after every change; a restarted server forgets the rows of
its previous run, and rows of a server that never comes back lapse.
"""
