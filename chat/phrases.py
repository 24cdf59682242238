"""The quick phrases of the chat, stored by key: each reader reads them in their language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# In the order the panel offers them.
PHRASES = {
    "luck": _("Good luck!"),
    "nice": _("Nice roll!"),
    "well": _("Well played"),
    "oops": _("Oops"),
    "thanks": _("Thanks"),
    "gg": _("Good game"),
    "turn": _("Your turn"),
    "moment": _("One moment"),
}
