"""Lasting player profiles: the profile page, the leaderboard, and one profile on several devices.

A profile is a ``lobby.Player`` (made on going online); its key is the browser's visitor id
(``core.identity``). This app adds what lasts around it: the browsers signed in to it, one-time
codes that sign in another browser, and the session that is renewed on use.
"""
