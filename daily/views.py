"""Thin views of the daily challenge: today's page and boards, a past day's, the one start."""

from __future__ import annotations

import datetime as dt
import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from core.answers import Refusal, answers_refusals
from core.errors import error_page
from core.identity import visitor_id
from daily import services
from daily.models import Challenge
from engine import dice
from lobby.models import Player


@require_safe
def today_page(request: HttpRequest) -> HttpResponse:
    """Today's challenge: start it, resume it, or see how it went; the day's boards."""
    challenge = services.challenge_of(services.today())
    return render(request, "daily/day.html", _context(request, challenge, today=True))


@require_safe
def day_page(request: HttpRequest, date: str) -> HttpResponse:
    """A past day's boards (``YYYY-MM-DD``), its attempts open (today's goes to today's page)."""
    try:  # YYYY-MM-DD only (fromisoformat also takes week dates, "2026-W01-1")
        date = dt.date.fromisoformat(date) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) else None
    except ValueError:
        date = None
    if date is None:
        return error_page(request, gettext("No such day"), gettext("That is not a date."), 404)
    if date >= services.today():
        return redirect("daily:today")
    challenge = Challenge.objects.filter(day=date).first()
    if challenge is None:
        message = gettext("Nobody played the daily challenge that day.")
        return error_page(request, gettext("No challenge that day"), message, 404)
    return render(request, "daily/day.html", _context(request, challenge, today=False))


def _not_started(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """Why the day's attempt did not start: played already (said over the day's page), or
    posted with a session key just replaced."""
    if isinstance(refusal.cause, services.AlreadyPlayed):
        context = _context(request, refusal.cause.attempt.challenge, today=True)
        context["error"] = refusal.message
        return render(request, "daily/day.html", context, status=refusal.status)
    return error_page(request, gettext("Not started"), refusal.message, refusal.status)


@require_POST
@answers_refusals(_not_started)
def start(request: HttpRequest) -> HttpResponse:
    """Start this browser's attempt at today's challenge (once a day)."""
    game = services.start(visitor_id(request, create=True))
    return redirect("games:play", game_id=game.id)


def _context(request: HttpRequest, challenge: Challenge, *, today: bool) -> dict:
    visitor = visitor_id(request)
    attempt = services.attempt_of(challenge, visitor)
    by_score, own_score = services.board(challenge, "score", visitor)
    by_loss, own_loss = services.board(challenge, "loss", visitor)
    earlier = Challenge.objects.filter(day__lt=challenge.day).order_by("-day").first()
    later = Challenge.objects.filter(day__gt=challenge.day).order_by("day").first()
    return {
        "challenge": challenge,
        "commitment": dice.commitment(challenge.seed),
        "today": today,
        "over": services.day_end(challenge.day) <= timezone.now(),
        "ends": services.day_end(challenge.day),
        "attempt": attempt,
        "summary": attempt.game.summaries.first() if attempt else None,
        "by_score": by_score,
        "own_score": own_score,
        "by_loss": by_loss,
        "own_loss": own_loss,
        "friends": services.friends_results(challenge, visitor),
        "streak": services.streak(visitor),
        "named": Player.objects.filter(visitor=visitor).exists() if visitor else False,
        "played": services.finished(challenge).count(),
        "earlier": earlier,
        "later": later if later and later.day < services.today() else None,
    }
