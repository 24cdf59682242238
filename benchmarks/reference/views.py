"""The reference action: the least a dice action must do, through the site's whole middleware."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from benchmarks.reference.models import Counter, Entry

# Rows of the fragment: enough for about 3 KB of HTML, the size of a roll's answer.
ROWS = [f"Box {number}" for number in range(1, 19)]


@require_POST
def reference(request: HttpRequest, slot: int) -> HttpResponse:
    """Lock this client's row, append one row, answer with a 3 KB fragment."""
    dice = [secrets.randbelow(6) + 1 for _ in range(5)]
    with transaction.atomic():
        counter, _created = Counter.objects.select_for_update().get_or_create(slot=slot)
        entry = Entry.objects.create(counter=counter, payload={"dice": dice})
    context = {"entry": entry, "dice": dice, "rows": ROWS}
    return render(request, "benchref/fragment.html", context)
