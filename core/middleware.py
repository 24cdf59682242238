"""Site-wide response tidying."""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from core.errors import error_page


class MethodNotAllowedPage:
    """Give Django's empty 405 (a GET of a form's address, say) a page that says what happened."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest):
        if iscoroutinefunction(self):
            return self._acall(request)
        return self._tidy(request, self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        return self._tidy(request, await self.get_response(request))

    def _tidy(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if response.status_code != 405 or response.content:
            return response
        page = error_page(
            request,
            gettext("Not this way"),
            gettext("This address takes a button press, not a visit: go back and try again."),
            405,
        )
        page["Allow"] = response.get("Allow", "")
        return page
