"""Going online and challenges: checks, changes and notifications.

Private tables and rematches are in ``lobby.tables``, who may act and how often (the player,
the rate limits) in ``lobby.access``.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Case, Q, When
from django.utils import timezone

from core.locks import serialize_on
from core.refusals import ActionRefused, NotFound, StaleAction
from engine.rulesets import YAHTZEE, RuleSet
from engine.words import _
from games import clock
from games.forms import clean_name
from games.models import Game
from games.names import case_key, look_alike_key
from lobby import apart, diamonds, notify

# Who may act and how often, and the tables, live in lobby.access and lobby.tables; the callers
# from before the split (the lobby's views and consumers, chat, history, profiles' pages, the
# tests) import these from here, as before.
from lobby.access import Forbidden, check_rate, require_player
from lobby.access import TooMany as TooMany
from lobby.access import player_of as player_of
from lobby.forms import check_between_people
from lobby.models import ONLINE_WINDOW, Challenge, Player, expires_from_now
from lobby.ranked import start_unranked
from lobby.tables import NO_TABLE as NO_TABLE
from lobby.tables import create_table as create_table
from lobby.tables import decline_rematch as decline_rematch
from lobby.tables import join_table as join_table
from lobby.tables import look_up_table as look_up_table
from lobby.tables import rematch as rematch
from lobby.tables import start_table as start_table

# What a block (``lobby.apart``) refuses, saying no more: not who blocked whom, nor whether the
# other player is online or at the table.
CANNOT_CHALLENGE = _("You cannot challenge this player.")


def go_online(visitor: str, raw_name: str, *, address: str | None = None) -> Player:
    """Choose (or change) this browser's display name, making its lasting profile the first time.

    Names are unique among all profiles, online or not, where the same name in other capitals,
    or a look-alike of a name in use (``games.names``), counts as the same name.
    """
    check_rate(visitor, "name", address)
    from django.core.exceptions import ValidationError

    try:
        name = clean_name(raw_name)
    except ValidationError as error:
        raise ActionRefused(str(error.messages[0])) from None
    key, fold = look_alike_key(name), case_key(name)
    with transaction.atomic():
        serialize_on("name")  # two keys: "ALICE" and "Alice" do not share a look-alike key
        taken = (
            Player.objects.filter(Q(name_key=key) | Q(name_fold=fold))
            .exclude(visitor=visitor)
            .order_by(Case(When(name_fold=fold, then=0), default=1))  # "taken" before "alike"
            .first()
        )
        if taken and taken.name_fold == fold:
            raise ActionRefused(_("Someone is already called that: choose another name."))
        if taken:
            raise ActionRefused(_("Someone has a name that looks the same: choose another name."))
        player, created = Player.objects.update_or_create(
            visitor=visitor,
            defaults={
                "name": name,
                "name_key": key,
                "online_until": timezone.now() + ONLINE_WINDOW,
            },
        )
        if created:
            diamonds.welcome(player)
    notify.lobby_changed()
    return player


def challenge(
    visitor: str | None,
    opponent_id: int,
    *,
    stake: int = 0,
    pace: str = "",
    rules: RuleSet = YAHTZEE,
    address: str | None = None,
) -> Challenge:
    """Ask an online player for a game under ``rules``; with a ``stake``, a diamond match
    (always live, always Yahtzee).

    ``pace``: "live" (the default) or "own" (a day a turn, nobody away), as posted.
    """
    player = require_player(visitor)
    check_rate(player.visitor, "challenge", address)
    opponent = Player.objects.online().filter(pk=opponent_id).first()
    if opponent is None:
        raise NotFound(_("That player is not online any more."))
    if opponent == player:
        raise ActionRefused(_("You cannot challenge yourself."))
    try:
        chosen = clock.parse_pace(pace)
    except ValueError:
        raise ActionRefused(_("Choose a pace: live or at your own pace.")) from None
    if stake and chosen != Game.Pace.LIVE:
        # A stake is won or lost in one sitting: a diamond match, like a ranked one, is live.
        raise ActionRefused(_("A match for diamonds is played live: choose Live or no stake."))
    check_between_people(rules, stake=stake)
    diamonds.check_stake(stake, player, opponent)
    with transaction.atomic():
        serialize_on("pair", *sorted([player.pk, opponent.pk]))  # a block takes it too
        if opponent.pk in apart.kept_apart(player.pk):
            raise Forbidden(CANNOT_CHALLENGE)
        pending = Challenge.objects.filter(
            challenger=player, challenged=opponent, status=Challenge.Status.PENDING,
            expires_at__gt=timezone.now(),
        )  # fmt: skip
        if pending.exists():
            raise StaleAction(_("You have already challenged that player."))
        made = Challenge.objects.create(
            challenger=player,
            challenged=opponent,
            stake=stake,
            pace=chosen,
            rules_key=rules.key,
            expires_at=expires_from_now(),
        )
    notify.players_changed(player.visitor, opponent.visitor)
    return made


def answer(visitor: str | None, challenge_id: int, verb: str) -> Challenge:
    """Accept, decline (the challenged player) or cancel (the challenger) a challenge."""
    player = require_player(visitor)
    with transaction.atomic():
        found = Challenge.objects.filter(pk=challenge_id).values_list(
            "challenger_id", "challenged_id"
        )
        if not found:
            raise NotFound(_("There is no such challenge."))
        # Crossed challenges accepted at once would each lock their own row and then the other's
        # (a deadlock on PostgreSQL): the two players' answers take turns instead.
        serialize_on("pair", *sorted(found[0]))
        made = (
            Challenge.objects.select_for_update()
            .select_related("challenger", "challenged")
            .get(pk=challenge_id)
        )
        mine = made.challenger if verb == "cancel" else made.challenged
        if mine != player:
            raise Forbidden(_("That challenge is not yours to answer."))
        if made.status == Challenge.Status.CANCELLED:
            raise StaleAction(_("That challenge was cancelled."))
        if made.status != Challenge.Status.PENDING:
            raise StaleAction(_("That challenge has already been answered."))
        if made.expires_at <= timezone.now():
            raise StaleAction(_("That challenge has expired."))
        if verb == "accept":
            players = [made.challenger, made.challenged]
            if not made.challenger.online_until or made.challenger.online_until <= timezone.now():
                # Started now, their seat would count as away from its first moment, and a
                # stake would be lost to a game they never saw.
                raise StaleAction(_("That player is not online any more."))
            # Both rows locked in one order before the stake is checked (a top-up locks them
            # too): three players accepting each other's challenges at once must not deadlock.
            list(
                Player.objects.select_for_update()
                .filter(pk__in=[p.pk for p in players])
                .order_by("pk")
            )
            diamonds.check_stake(made.stake, made.challenged, made.challenger)
            made.game = start_unranked(players, stake=made.stake, pace=made.pace, rules=made.rules)
            diamonds.escrow(made.game, players)
            made.status = Challenge.Status.ACCEPTED
            # A crossed challenge (B had also challenged A) must not start a second game.
            Challenge.objects.filter(
                status=Challenge.Status.PENDING,
                challenger__in=[made.challenger, made.challenged],
                challenged__in=[made.challenger, made.challenged],
            ).exclude(pk=made.pk).update(status=Challenge.Status.CANCELLED)
        else:
            made.status = (
                Challenge.Status.CANCELLED if verb == "cancel" else Challenge.Status.DECLINED
            )
        made.answered_at = timezone.now()
        made.save()
    notify.players_changed(made.challenger.visitor, made.challenged.visitor)
    if made.game:
        notify.navigate([made.challenger.visitor, made.challenged.visitor], made.game)
    return made
