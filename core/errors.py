"""The site's error pages: a page in the site's look that says what went wrong (404, 500, CSRF,
and whatever an app refuses with a page of its own)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from core.refusals import EXPIRED


def error_page(request: HttpRequest, title: str, message: str, status: int) -> HttpResponse:
    """A page in the site's look that says what went wrong."""
    context = {"title": title, "message": message}
    return render(request, "error_page.html", context, status=status)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 in the site's look."""
    return error_page(
        request, gettext("Page not found"), gettext("There is nothing at this address."), 404
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """500 in the site's look; every move made before it is still saved."""
    return error_page(
        request,
        gettext("Something went wrong"),
        gettext("The server could not answer. Your game is saved: reload the page to go on."),
        500,
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form from an expired or foreign page: say so instead of Django's technical page."""
    return error_page(
        request,
        gettext("This page has expired"),
        gettext(EXPIRED),
        403,
    )
