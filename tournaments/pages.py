"""Where the tournament pages plug into the rest of the site: once, when the app is ready, the
live redraws of a tournament's open pages (``tournaments.live``) and its panels on other apps'
pages (``core.panels``), whose values are here: a tournament game's tournament above its game,
the tournaments a profile played on its page."""

from __future__ import annotations

from core import panels
from core.identity import visitor_id
from games.models import Game
from tournaments import events, live, presenters, standings
from tournaments.models import Entry, Tournament


def connect() -> None:
    """Listen to the domain's changes and offer the panels (``TournamentsConfig.ready``)."""
    events.tournament_changed.connect(
        live.on_tournament_changed, dispatch_uid="tournaments.live.redraw"
    )
    game = panels.Panel("tournament", "tournaments/panels.html#game", on_game_page)
    panels.offer(panels.GAME_HEADER, game)
    played = panels.Panel("tournaments", "tournaments/panels.html#profile", on_profile_page)
    panels.offer(panels.PROFILE_PAGE, played)


def on_game_page(request, game: Game) -> dict | None:
    """Above a tournament game: which tournament, a link back; berserk while it is open."""
    rows = list(game.tournament_games.select_related("tournament", "entry__player"))
    if not rows:
        return None
    visitor = visitor_id(request)
    own = next((r for r in rows if r.entry.player_id and r.entry.player.visitor == visitor), None)
    row = own or rows[0]
    tournament = row.tournament
    return {
        "tournament_game": {
            "tournament": tournament,
            "format_name": presenters.FORMAT_NAMES.get(tournament.format, tournament.format),
            "round": row.round,
            "berserk": row.berserk,
            "berserk_open": bool(
                own and tournament.berserk and presenters.berserk_open(own, visitor)
            ),
        }
    }


def on_profile_page(request, player) -> dict:
    """The tournaments this profile played, newest first, with their place in each."""
    entries = (
        Entry.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__starts_at")[: presenters.LIST_SIZE]
    )
    played = []
    for entry in entries:
        tournament = entry.tournament
        place = None
        if tournament.status == Tournament.Status.FINISHED:
            place = next(
                (r.rank for r in standings.standings(tournament) if r.entry_id == entry.pk), None
            )
        played.append(
            {
                "id": tournament.pk,
                "name": tournament.name,
                "format": presenters.FORMAT_NAMES.get(tournament.format, tournament.format),
                "variant": tournament.rules.name,  # translated by the template
                "status": presenters.STATUS_NAMES.get(tournament.status, tournament.status),
                "starts_at": tournament.starts_at,
                "place": place,
                "points": presenters.number(entry.points),
            }
        )
    return {"tournaments_played": played}
