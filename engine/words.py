"""The engine's one translation marker: the engine knows no language, the site translates.

``_`` marks an English message for the translation catalogue (``makemessages`` finds it) and
returns it unchanged, as Django's ``gettext_noop`` does; the engine imports nothing of Django.
"""

from __future__ import annotations


def _(message: str) -> str:
    """Mark ``message`` for translation and return it as it is (the site translates it later)."""
    return message
