"""One profile on several browsers: one-time codes, signing in with one, signing out the others."""

from __future__ import annotations

import secrets

from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.utils import timezone

from core.identity import browser_mark
from core.refusals import ActionRefused
from engine.words import _
from lobby import notify
from lobby.access import Forbidden, check_rate, player_of
from lobby.models import CODE_ALPHABET, Player
from profiles.models import CODE_LENGTH, CODE_LIFETIME, Browser, DeviceCode, code_digest, normalized

NO_CODE = _("Type the code shown on your other device.")
ALREADY_YOU = _("This browser is already signed in to that profile.")
BAD_CODE = _(
    "That code does not work: it may have been used already or be more than 10 minutes old. "
    "Make a new one on your other device."
)


class BadCode(ActionRefused):
    """A code that signs nobody in: mistyped, used, expired or replaced by a newer one."""

    status = 400


def profile_of(visitor: str | None) -> Player:
    """This browser's profile; refused when it has none."""
    player = player_of(visitor)
    if player is None:
        raise Forbidden(_("Choose a name first: going online makes your profile."))
    return player


def make_code(visitor: str | None, *, address: str | None = None) -> str:
    """A new one-time code for this profile, shown once; it replaces any code not used yet."""
    player = profile_of(visitor)
    check_rate(player.visitor, "code", address)
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    with transaction.atomic():
        # Two codes made at once: one after the other, so that only the newer one works.
        Player.objects.select_for_update().filter(pk=player.pk).exists()
        DeviceCode.objects.filter(player=player, used_at=None).delete()
        DeviceCode.objects.create(
            player=player, digest=code_digest(code), expires_at=timezone.now() + CODE_LIFETIME
        )
    return code


def code_owner(typed: str, visitor: str | None, *, address: str | None = None) -> Player:
    """Whose profile a code signs in to, without using it (the page that asks to confirm)."""
    if not normalized(typed):
        raise BadCode(NO_CODE)
    check_rate(visitor, "code", address)
    found = DeviceCode.objects.usable().filter(digest=code_digest(normalized(typed)))
    code = found.select_related("player").first()
    if code is None:
        raise BadCode(BAD_CODE)
    if code.player.visitor == visitor:
        raise ActionRefused(ALREADY_YOU)
    return code.player


def use_code(typed: str, visitor: str | None, *, address: str | None = None) -> Player:
    """Use a code: the profile it signs in to. The caller then makes this browser that profile
    (``core.identity.sign_in_as``). A code works once: two browsers sending it at once find it
    used by the first."""
    if not normalized(typed):
        raise BadCode(NO_CODE)
    check_rate(visitor, "code", address)
    with transaction.atomic():
        code = (
            DeviceCode.objects.select_for_update()
            .usable()
            .filter(digest=code_digest(normalized(typed)))
            .select_related("player")
            .first()
        )
        if code is None:
            raise BadCode(BAD_CODE)
        if code.player.visitor == visitor:
            raise ActionRefused(ALREADY_YOU)
        code.used_at = timezone.now()
        code.save(update_fields=["used_at"])
    return code.player


def sign_out_others(visitor: str | None, session: SessionBase) -> int:
    """Sign out every browser of this profile but this one; how many were signed out.

    Their sessions are deleted; their open pages' sockets, which read the player when they
    opened, are closed at once and the pages load again as nobody's (``lobby.notify.signed_out``).
    """
    player = profile_of(visitor)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        others = list(
            Browser.objects.filter(player=player).exclude(session_key=session.session_key)
        )
        keys = [browser.session_key for browser in others]
        for key in keys:
            type(session)(key).delete()  # from the cache and the database
        # A request of one of them until this commits still reads its row from the database and
        # caches it again (cached_db): forget the cache once the deletion is committed too.
        transaction.on_commit(lambda: [type(session)(key).delete() for key in keys])
        Browser.objects.filter(pk__in=[browser.pk for browser in others]).delete()
        # Sessions from before browsers were recorded have no Browser: their next request finds
        # this (profiles.middleware) and signs them out.
        player.others_signed_out_at = timezone.now()
        player.save(update_fields=["others_signed_out_at"])
        DeviceCode.objects.filter(player=player, used_at=None).delete()
        notify.signed_out(player.visitor, browser_mark(session.session_key))
    return len(others)
