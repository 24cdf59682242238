"""The "new tournament" form: what a maker chooses, parsed and checked once, with reasons a
player can read. The domain checks again what only it knows (a group the maker is in, a start
time still ahead when the form is posted, a fee the rules allow): ``tournaments.services``."""

from __future__ import annotations

from datetime import UTC, timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.strategy.bots import BOTS
from games.forms import VariantField
from tournaments.models import MAX_NAME_LENGTH, TURN_SECONDS, Tournament
from tournaments.services import CAPACITY, MAX_FEE, ROUNDS, TournamentOptions

# The arena lengths offered (the domain's limits: ``services.MINUTES``).
MINUTES = (10, 15, 20, 30, 45, 60, 90, 120, 180, 240)
# The browser's offset from UTC in minutes, as JavaScript's getTimezoneOffset gives it (UTC-12
# to UTC+14); without JavaScript the time typed is read as UTC, and the form says so.
OFFSETS = (-14 * 60, 12 * 60)


class TournamentForm(forms.Form):
    """A new tournament: its name, format, who may join, when, how long, and its options."""

    name = forms.CharField(
        label=_("Name"),
        max_length=MAX_NAME_LENGTH,
        error_messages={"required": _("Give the tournament a name.")},
    )
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[
            ("arena", _("Arena")),
            ("swiss", _("Swiss")),
            ("duplicate", _("Duplicate")),
        ],
        initial="arena",
        widget=forms.RadioSelect,
    )
    variant = VariantField(multiplayer=True)  # the game every game of the tournament is played in
    # "" (anyone with the link), or one of the maker's groups (set in __init__).
    group = forms.ChoiceField(label=_("Who may join"), required=False)
    listed = forms.BooleanField(label=_("List it publicly"), required=False)
    start = forms.ChoiceField(
        label=_("Start"),
        choices=[("now", _("Now")), ("at", _("At a time"))],
        initial="now",
        widget=forms.RadioSelect,
    )
    starts_at = forms.DateTimeField(
        label=_("Start at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    offset = forms.IntegerField(
        required=False, min_value=OFFSETS[0], max_value=OFFSETS[1], widget=forms.HiddenInput
    )
    minutes = forms.TypedChoiceField(
        label=_("Duration (arena)"),
        choices=[(m, m) for m in MINUTES],  # worded in the page's language: __init__
        coerce=int,
        initial=30,
    )
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss, duplicate)"), min_value=ROUNDS[0], max_value=ROUNDS[1], initial=5
    )
    best_of = forms.TypedChoiceField(
        label=_("Each Swiss match"),
        choices=[(1, _("One game")), (3, _("Best of three"))],
        coerce=int,
        initial=1,
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Turn timer"),
        choices=[(s, s) for s in TURN_SECONDS],  # worded in the page's language: __init__
        coerce=int,
        initial=60,
    )
    rated = forms.BooleanField(label=_("Rated"), required=False)
    entry_fee = forms.IntegerField(
        label=_("Entry fee (diamonds)"), min_value=0, max_value=MAX_FEE, initial=0
    )
    berserk = forms.BooleanField(label=_("Berserk allowed (arena)"), required=False)
    capacity = forms.IntegerField(
        label=_("Players at most"), min_value=CAPACITY[0], max_value=CAPACITY[1], initial=32
    )
    computer = forms.ChoiceField(
        label=_("The computer fills empty seats"),
        choices=[("", _("No computer")), *((bot.id, _(bot.name)) for bot in BOTS.values())],
        required=False,
    )

    def __init__(self, *args, groups: list[tuple[str, str]] = (), **kwargs) -> None:
        """``groups``: (id, name) of the groups the maker is in, offered under "Who may join"."""
        super().__init__(*args, **kwargs)
        self.fields["group"].choices = [("", _("Anyone with the link")), *groups]
        self.fields["minutes"].choices = [
            (m, gettext("%(minutes)s minutes") % {"minutes": m}) for m in MINUTES
        ]
        self.fields["turn_seconds"].choices = [
            (s, gettext("%(seconds)s seconds") % {"seconds": s}) for s in TURN_SECONDS
        ]

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())

    def clean(self) -> dict:
        data = super().clean()
        if data.get("start") == "at":
            when = data.get("starts_at")
            if when is None:
                if "starts_at" not in self.errors:
                    self.add_error("starts_at", _("Choose when it starts."))
            else:
                # The browser's local time, back to UTC (getTimezoneOffset: UTC minus local).
                offset = data.get("offset") or 0
                naive = timezone.make_naive(when, UTC) if timezone.is_aware(when) else when
                when = (naive + timedelta(minutes=offset)).replace(tzinfo=UTC)
                if when <= timezone.now():
                    self.add_error("starts_at", _("That time has passed: choose a later one."))
                data["starts_at"] = when
        else:
            data["starts_at"] = None
        return data

    def options(self) -> TournamentOptions:
        """What a valid form chose, as the domain takes it: the options of another format than
        the one chosen are left out (a maker who changed their mind need not clear them)."""
        data = self.cleaned_data
        arena = data["format"] == Tournament.Format.ARENA
        swiss = data["format"] == Tournament.Format.SWISS
        return TournamentOptions(
            name=data["name"],
            format=data["format"],
            starts_at=data["starts_at"],
            minutes=data["minutes"] if arena else None,
            rounds=None if arena else data["rounds"],
            best_of=data["best_of"] if swiss else 1,
            turn_seconds=data["turn_seconds"],
            rated=data["rated"],
            entry_fee=data["entry_fee"],
            group_id=data["group"] or None,
            listed=data["listed"],
            berserk=data["berserk"] and arena,
            computer=data["computer"],
            capacity=data["capacity"],
            rules=data["variant"],
        )
