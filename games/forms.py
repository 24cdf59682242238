"""The forms that start games: validation and messages a player can read."""

from __future__ import annotations

import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.presenters import BOT_DESCRIPTIONS, BOT_NAMES

MAX_PLAYERS = 6
BOT_CHOICES = [(bot, _(name)) for bot, name in BOT_NAMES.items()]


def clean_name(value: str) -> str:
    """A display name: trimmed, 1-24 printable characters; markup is kept as text, never run."""
    name = " ".join(value.split())
    if not name:
        raise ValidationError(_("Enter a name."), code="empty")
    if len(name) > 24:
        raise ValidationError(_("Names have 24 characters at most."), code="long")
    if any(unicodedata.category(c)[0] == "C" for c in name):
        raise ValidationError(_("Names cannot contain control characters."), code="odd")
    return name


class SoloGameForm(forms.Form):
    """A game for one person."""

    multiple_yahtzees = forms.BooleanField(required=False, initial=True)


class ComputerGameForm(forms.Form):
    """A game against the computer at one of three strengths."""

    strength = forms.ChoiceField(choices=BOT_CHOICES, initial="optimal", widget=forms.RadioSelect)

    def descriptions(self) -> list[tuple[str, str, str]]:
        """(value, name, one-line description) of each strength, for the radio list."""
        return [(bot, _(BOT_NAMES[bot]), _(BOT_DESCRIPTIONS[bot])) for bot in BOT_NAMES]


class LocalGameForm(forms.Form):
    """Pass-the-phone: 2 to 6 seats, each a named person or the computer."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        kinds = [("person", _("Person")), *BOT_CHOICES]
        for n in range(1, MAX_PLAYERS + 1):
            self.fields[f"name_{n}"] = forms.CharField(
                required=False, max_length=200, label=_("Player %(n)s") % {"n": n}
            )
            self.fields[f"kind_{n}"] = forms.ChoiceField(
                choices=kinds,
                initial="person",
                required=False,
                label=_("Who plays seat %(n)s") % {"n": n},
            )

    def seat_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """The (name, kind) fields of each seat, for the template."""
        return [(self[f"name_{n}"], self[f"kind_{n}"]) for n in range(1, MAX_PLAYERS + 1)]

    def clean(self) -> dict:
        data = super().clean()
        seats: list[tuple[str, str]] = []
        for n in range(1, MAX_PLAYERS + 1):
            raw, kind = data.get(f"name_{n}", ""), data.get(f"kind_{n}") or "person"
            if kind == "person" and not raw.strip():
                continue
            if kind == "person":
                try:
                    seats.append((clean_name(raw), "person"))
                except ValidationError as error:
                    self.add_error(f"name_{n}", error)
            else:
                seats.append(("", kind))
        if not self.errors:
            people = [name.casefold() for name, kind in seats if kind == "person"]
            if len(seats) < 2:
                raise ValidationError(_("Enter at least two players."), code="few")
            if not people:
                raise ValidationError(_("At least one seat must be a person."), code="no-person")
            if len(set(people)) != len(people):
                raise ValidationError(_("Give each player a different name."), code="same")
        data["seats"] = seats
        return data
