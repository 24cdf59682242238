"""Refusals answered in one place: a view raises, and ``answers_refusals`` says why.

A service refuses by raising (``core.refusals``; the game's views also take the rules'
``IllegalMove`` as one). A view that lets it go up, decorated with ``answers_refusals(draw)``,
is answered here: the refusal becomes
a ``Refusal`` (the reason in the active language, the HTTP status it deserves) handed to the
page's ``draw``, which shows it as that page does. Each page's answer has the same shape: htmx
and scripts get the page's parts with the 4xx status; a browser's plain form post
(``form_navigation``) is sent on, 303, to the page that says why once (``refused_to``,
``refusal_for``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from core.refusals import ActionRefused, translate_refusal


@dataclass(frozen=True)
class Refusal:
    """A refusal as a page tells it: its reason in the active language and its HTTP status;
    ``cause`` is what was raised, for a page that tells some refusals apart."""

    message: str
    status: int
    cause: Exception | None = field(default=None, compare=False)

    @classmethod
    def of(cls, cause: Exception) -> Refusal:
        """The refusal a service raised, as a page tells it (400 unless it says otherwise)."""
        return cls(translate_refusal(cause), getattr(cause, "status", 400), cause)


Draw = Callable[..., HttpResponse]


def answers_refusals(draw: Draw, *, also: tuple[type[Exception], ...] = ()) -> Callable:
    """A view decorator: a refusal the view raises (an ``ActionRefused``, or one of the types in
    ``also``) is answered by ``draw(request, refusal, **the view's keyword arguments)``: the
    page's own answer to a ``Refusal``."""
    refusals = (ActionRefused, *also)

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def answered(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            try:
                return view(request, *args, **kwargs)
            except refusals as cause:
                return draw(request, Refusal.of(cause), **kwargs)

        return answered

    return decorate


def form_navigation(request: HttpRequest) -> bool:
    """Whether a browser sent this post as a page load (a plain form, without JavaScript).

    Browsers say so in ``Sec-Fetch-Mode``; htmx's requests, scripts and old browsers do not.
    """
    return not request.htmx and request.headers.get("Sec-Fetch-Mode") == "navigate"


def refused_to(request: HttpRequest, url: str, error: str, place: str) -> HttpResponse:
    """Post/redirect/get for a refused form navigation: the page at ``url`` says why, once.

    Shown at the post's own address, the answer left the browser there: a reload posted the form
    again and a bookmark or a shared link answered 405 (issue 16). Other requests (htmx, scripts)
    keep the refusal's 4xx answer. ``place`` names the page that tells it, and no other page does.
    """
    messages.error(request, error, extra_tags=f"refused-{place}")
    return HttpResponseRedirect(url, status=303)


def refusal_for(request: HttpRequest, place: str) -> str | None:
    """The refusal a redirected plain post left for this page (``refused_to``), read once."""
    told = [m.message for m in messages.get_messages(request) if m.extra_tags == f"refused-{place}"]
    return told[-1] if told else None
