"""Where the tournament pages plug into the rest of the site, once, when the app is ready: the
live redraws of a tournament's open pages (``tournaments.live``), its panels on other apps'
pages (``core.panels``): a tournament game's tournament above its game, the tournaments a
profile played on its page."""

from __future__ import annotations

from core import panels
from tournaments import events, live, presenters


def connect() -> None:
    """Listen to the domain's changes and offer the panels (``TournamentsConfig.ready``)."""
    events.tournament_changed.connect(
        live.on_tournament_changed, dispatch_uid="tournaments.live.redraw"
    )
    game = panels.Panel("tournament", "tournaments/panels.html#game", presenters.on_game_page)
    panels.offer(panels.GAME_HEADER, game)
    played = panels.Panel(
        "tournaments", "tournaments/panels.html#profile", presenters.on_profile_page
    )
    panels.offer(panels.PROFILE_PAGE, played)
