"""What the groups' pages show: My groups, a group's page (its live parts apart, for the socket's
redraws), and an invite's page."""

from __future__ import annotations

from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from daily import services as daily
from daily.models import Challenge
from games.forms import variant_choices
from groups import hooks, standings
from groups.models import Group, GroupTable
from groups.services import MAX_MEMBERS
from lobby import apart
from lobby.models import MAX_TABLE_SEATS, Player
from lobby.presenters import qr_svg


def mine_context(me: Player | None) -> dict:
    """This player's groups, each with its number of members."""
    if me is None:
        return {"me": None, "groups": []}
    # Counted apart from the filter's join, which holds only this player's membership.
    groups = Group.objects.filter(pk__in=Group.objects.of_player(me).values("pk"))
    groups = groups.annotate(members=Count("memberships")).order_by("name", "created_at")
    return {"me": me, "groups": list(groups.select_related("owner"))}


def member_of(group: Group, me: Player | None) -> bool:
    """Whether this player is a member of the group."""
    return me is not None and group.memberships.filter(player=me).exists()


def live_context(group: Group, me: Player) -> dict:
    """The group page's live parts: its members, who of them is online now, and the tables
    sent to the group that are still open."""
    now = timezone.now()
    kept = apart.kept_apart(me.pk)
    players = Player.objects.filter(memberships__group=group).order_by("name_key")
    members = []
    for player in players:
        online = player.online_until is not None and player.online_until > now
        members.append(
            {
                "player": player,
                "online": online,
                "owner": player.pk == group.owner_id,
                "me": player.pk == me.pk,
                # A block either way: neither is offered a challenge to the other.
                "can_challenge": online and player.pk != me.pk and player.pk not in kept,
            }
        )
    tables = []
    sent = GroupTable.objects.filter(group=group, table__game__isnull=True).select_related(
        "table__host"
    )
    for entry in sent.order_by("-table__created_at"):
        table = entry.table
        if table.expired:
            continue
        seated = list(table.seats.select_related("player"))
        seated_ids = {seat.player_id for seat in seated}
        tables.append(
            {
                "table": table,
                "names": [seat.player.name for seat in seated],
                "seated": me.pk in seated_ids,
                "full": len(seated) >= MAX_TABLE_SEATS,
                "apart": bool(kept & seated_ids),
            }
        )
    return {
        "group": group,
        "me": me,
        "is_owner": group.owner_id == me.pk,
        "members": members,
        "online_count": sum(member["online"] for member in members),
        "tables": tables,
        "max_seats": MAX_TABLE_SEATS,
        "variants": variant_choices(multiplayer=True),  # the game of a table opened here
    }


def open_tables(player: Player) -> list[dict]:
    """``lobby.hooks.TABLES_FOR``: the open tables sent to this player's groups where they may
    sit (not at one already, nobody there they keep apart from), newest first."""
    kept = apart.kept_apart(player.pk)
    sent = (
        GroupTable.objects.filter(group__memberships__player=player, table__game__isnull=True)
        .exclude(table__seats__player=player)
        .select_related("group", "table__host")
        .order_by("-table__created_at")
    )
    found = []
    for entry in sent:
        table = entry.table
        seated = set(table.seats.values_list("player_id", flat=True))
        if table.expired or seated & kept or len(seated) >= MAX_TABLE_SEATS:
            continue
        found.append(
            {
                "host": table.host.name,
                "group": entry.group.name,
                "rules": table.rules,
                "seats": len(seated),
                "max": MAX_TABLE_SEATS,
                "url": reverse("lobby:table", args=[table.code]),
            }
        )
    return found


def group_context(group: Group, me: Player, invite_url: str) -> dict:
    """Everything the group's page shows a member."""
    context = live_context(group, me)
    members = [member["player"] for member in context["members"]]
    challenge = Challenge.objects.filter(day=daily.today()).first()
    visitors = [member.visitor for member in members]
    return context | {
        "standings": standings.standings(members),
        "tournaments": hooks.GROUP_TOURNAMENTS(group, me),
        "daily": daily.results_among(challenge, visitors, me.visitor) if challenge else [],
        "invite_url": invite_url,
        "qr_svg": qr_svg(invite_url),
        "removed": (
            [removal.player for removal in group.removals.select_related("player")]
            if context["is_owner"]
            else []
        ),
        "max_members": MAX_MEMBERS,
        "group_url": reverse("groups:group", args=[group.pk]),
    }


def table_for(table) -> dict | None:
    """``lobby.hooks.TABLE_FOR``: a group's table says whose it is on its page."""
    sent = GroupTable.objects.filter(table=table).select_related("group").first()
    if sent is None:
        return None
    return {"name": sent.group.name, "url": reverse("groups:group", args=[sent.group_id])}
