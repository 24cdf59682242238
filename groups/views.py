"""Thin views of groups: My groups, a group's page and its owner's controls, an invite."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from core.addresses import client_address
from core.answers import Refusal, answers_refusals, form_navigation, refusal_for, refused_to
from core.errors import error_page
from core.identity import rotate_session_key, visitor_id
from groups import presenters, services
from groups.models import Group
from lobby.access import player_of
from lobby.forms import posted_rules
from lobby.services import go_online


@require_safe
def mine(request: HttpRequest) -> HttpResponse:
    """My groups: the groups of this browser's profile, make one, join one with a code."""
    return _mine(request, refusal_for(request, "groups") or "")


def _mine(request: HttpRequest, error: str = "", status: int = 200) -> HttpResponse:
    context = presenters.mine_context(player_of(visitor_id(request)))
    context |= {"error": error, "typed": request.POST if error else {}}
    return render(request, "groups/mine.html", context, status=status)


def _mine_refused(request: HttpRequest, refusal: Refusal, **view) -> HttpResponse:
    if form_navigation(request):
        return refused_to(request, reverse("groups:mine"), refusal.message, "groups")
    return _mine(request, refusal.message, refusal.status)


@require_POST
@answers_refusals(_mine_refused)
def create(request: HttpRequest) -> HttpResponse:
    """Make a group and go to its page."""
    group = services.create_group(
        visitor_id(request),
        request.POST.get("name", ""),
        request.POST.get("description", ""),
        address=client_address(request),
    )
    return redirect("groups:group", group_id=group.pk)


@require_POST
@answers_refusals(_mine_refused)
def join_by_code(request: HttpRequest) -> HttpResponse:
    """My groups' "join with a code" form: join that group and show it."""
    group = services.join_group(
        visitor_id(request), request.POST.get("code", ""), address=client_address(request)
    )
    return redirect("groups:group", group_id=group.pk)


def _no_invite(request: HttpRequest, refusal: Refusal, **view) -> HttpResponse:
    return error_page(request, gettext("No such invite"), refusal.message, refusal.status)


@require_safe
@answers_refusals(_no_invite)
def invite(request: HttpRequest, code: str) -> HttpResponse:
    """An invite's page: the group, and one tap to join it (a name first, with no profile)."""
    return _invite(request, code, refusal_for(request, f"invite-{code}") or "")


def _invite(request: HttpRequest, code: str, error: str = "", status: int = 200) -> HttpResponse:
    visitor = visitor_id(request)
    group = services.find_invite(visitor, code, address=client_address(request))
    me = player_of(visitor)
    if presenters.member_of(group, me) and not error:
        return redirect("groups:group", group_id=group.pk)
    context = {
        "group": group,
        "code": code,
        "me": me,
        "members": group.memberships.count(),
        "error": error,
        "typed_name": request.POST.get("name", "")[:100] if error else "",
    }
    return render(request, "groups/invite.html", context, status=status)


def _invite_refused(request: HttpRequest, refusal: Refusal, code: str) -> HttpResponse:
    if form_navigation(request):
        url = reverse("groups:invite", args=[code])
        return refused_to(request, url, refusal.message, f"invite-{code}")
    try:
        return _invite(request, code, refusal.message, refusal.status)
    except services.ActionRefused as cause:  # the invite itself is gone, or too many guesses
        return _no_invite(request, Refusal.of(cause))


@require_POST
@answers_refusals(_invite_refused)
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Join the group by its invite, choosing a name first if this browser has no profile (as a
    table's page does: lobby.views.join_table)."""
    address = client_address(request)
    visitor = visitor_id(request, create=True)
    services.find_invite(visitor, code, address=address)  # a wrong code before any name
    if player_of(visitor) is None:
        go_online(visitor, request.POST.get("name", ""), address=address)
        rotate_session_key(request)
    group = services.join_group(visitor, code, address=address)
    return redirect("groups:group", group_id=group.pk)


def _group_page(request: HttpRequest, group_id: str, error: str = "", status: int = 200):
    me = player_of(visitor_id(request))
    group = Group.objects.select_related("owner").filter(pk=group_id[:12]).first()
    if group is None:
        message = gettext("There is no such group.")
        return error_page(request, gettext("No such group"), message, 404)
    error = error or refusal_for(request, f"group-{group.pk}") or ""
    if not presenters.member_of(group, me):
        message = gettext(
            "Only its members see a group's page. Ask a member for the group's invite link."
        )
        return error_page(request, group.name, error or message, 403)
    invite_url = request.build_absolute_uri(reverse("groups:invite", args=[group.invite_code]))
    context = presenters.group_context(group, me, invite_url)
    context |= {"error": error, "live": True}
    return render(request, "groups/group.html", context, status=status)


@require_safe
def group(request: HttpRequest, group_id: str) -> HttpResponse:
    """A group's page, for its members: who is online, standings, tables, tournaments, the day's
    challenge, the invite, and the owner's controls."""
    return _group_page(request, group_id)


def _group_refused(request: HttpRequest, refusal: Refusal, group_id: str, **view) -> HttpResponse:
    if form_navigation(request):
        url = reverse("groups:group", args=[group_id])
        return refused_to(request, url, refusal.message, f"group-{group_id}")
    return _group_page(request, group_id, refusal.message, refusal.status)


@require_POST
@answers_refusals(_group_refused)
def leave(request: HttpRequest, group_id: str) -> HttpResponse:
    """Leave the group (its owner hands it over first, or ends it as its last member)."""
    services.leave_group(visitor_id(request), group_id)
    return redirect("groups:mine")


@require_POST
@answers_refusals(_group_refused)
def member_action(request: HttpRequest, group_id: str, action: str) -> HttpResponse:
    """The owner removes a member, hands the group over, or lets a removed player back."""
    do = {"remove": services.remove_member, "owner": services.hand_over, "back": services.let_back}
    do[action](visitor_id(request), group_id, request.POST.get("player", ""))
    return redirect("groups:group", group_id=group_id)


@require_POST
@answers_refusals(_group_refused)
def rename(request: HttpRequest, group_id: str) -> HttpResponse:
    """The owner changes the group's name and description."""
    name, description = request.POST.get("name", ""), request.POST.get("description", "")
    services.rename(visitor_id(request), group_id, name, description)
    return redirect("groups:group", group_id=group_id)


@require_POST
@answers_refusals(_group_refused)
def new_invite(request: HttpRequest, group_id: str) -> HttpResponse:
    """The owner replaces the invite: the old link stops working."""
    services.new_invite(visitor_id(request), group_id)
    return redirect(reverse("groups:group", args=[group_id]) + "#invite")


@require_POST
@answers_refusals(_group_refused)
def open_table(request: HttpRequest, group_id: str) -> HttpResponse:
    """Open a private table for the whole group and go to its page."""
    rules = posted_rules(request.POST)
    table = services.open_table(
        visitor_id(request), group_id, address=client_address(request), rules=rules
    )
    return redirect("lobby:table", code=table.code)
