"""A group's tournaments as its page lists them (``groups.hooks.GROUP_TOURNAMENTS``, answered in
``TournamentsConfig.ready``): under way, upcoming and past, each with its address, its time and
a short line ("Arena · Yatzy · 12 players"), and where a member makes one for the group."""

from __future__ import annotations

from django.db.models import Count, Q
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from tournaments.models import Entry, Tournament
from tournaments.presenters import FORMAT_NAMES, STATUS_NAMES

PAST_SHOWN = 10  # the group page lists the most recent ones


def group_tournaments(group, viewer) -> dict:
    """The group's tournaments, each list newest first (see ``groups.hooks``)."""
    tournaments = Tournament.objects.filter(group=group).annotate(
        players=Count("entries", filter=~Q(entries__status=Entry.Status.LEFT))
    )
    Status = Tournament.Status
    under_way = tournaments.filter(status=Status.RUNNING).order_by("-starts_at")
    upcoming = tournaments.filter(status=Status.UPCOMING).order_by("-starts_at")
    past = tournaments.filter(status__in=[Status.FINISHED, Status.CANCELLED]).order_by(
        "-finished_at"
    )[:PAST_SHOWN]
    new_url = f"{reverse('tournaments:new')}?group={group.pk}" if viewer is not None else ""
    return {
        "under_way": [_line(t, None) for t in under_way],  # a bare time would read as its start
        "upcoming": [_line(t, t.starts_at) for t in upcoming],
        "past": [_line(t, t.finished_at) for t in past],
        "new_url": new_url,
    }


def _line(tournament: Tournament, when) -> dict:
    players = ngettext("%(players)s player", "%(players)s players", tournament.players) % {
        "players": tournament.players
    }
    note = f"{FORMAT_NAMES[tournament.format]} · {gettext(tournament.rules.name)} · {players}"
    if tournament.status == Tournament.Status.CANCELLED:
        note = f"{note} · {STATUS_NAMES[tournament.status]}"
    return {
        "name": tournament.name,
        "url": reverse("tournaments:tournament", args=[tournament.pk]),
        "when": when,
        "note": note,
    }
