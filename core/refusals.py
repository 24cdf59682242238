"""Why an action is refused: the exceptions the services raise, each with its HTTP status."""

from __future__ import annotations

from django.utils.translation import gettext

# The messages are marked here and translated where they are shown (``translate_refusal``); the
# engine keeps its own marker, as the core imports no engine.
from django.utils.translation import gettext_noop as _


class ActionRefused(Exception):
    """An action that cannot be applied; ``status`` is the HTTP status it deserves."""

    status = 400

    def __init__(self, template: str, **params: str) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class NotFound(ActionRefused):
    """There is no such game."""

    status = 404


class NotYourGame(ActionRefused):
    """The visitor has no seat in the game."""

    status = 403


class StaleAction(ActionRefused):
    """The page that sent the action showed an older position than the stored one."""

    status = 409


class ComputerNotReady(ActionRefused):
    """The computer's turn needs the strategy table, which is not loaded (missing or damaged)."""

    status = 503


COMPUTER_NOT_READY = _("The computer is still getting ready: try again in a minute.")
NOT_YOURS = _("This game is not yours: you can watch it but not play in it.")
# A form from a page too old to act on, or from another site (its CSRF token does not match).
EXPIRED = _("This page is too old to act on. Reload it and try again: nothing was changed.")


def translate_refusal(refusal: Exception) -> str:
    """The refusal's message in the active language."""
    template = getattr(refusal, "template", None)
    if template is None:
        return str(refusal)
    params = {key: gettext(value) for key, value in refusal.params.items()}
    return gettext(template) % params if params else gettext(template)
