"""CSRF for forms sent over sockets: redraws rendered once carry a stand-in for the token, which
each page's consumer fills with its own, freshly masked; a move's token is checked as Django
checks a post's."""

from __future__ import annotations

import secrets

from django.middleware import csrf
from django.utils.crypto import constant_time_compare

# Fragments are rendered once for every page that sees the same, so forms carry this stand-in for
# the CSRF token; each consumer puts in its own page's token before sending (see ``fill_csrf``).
# The message names it, so a process can fill what another one rendered.
CSRF_SLOT = secrets.token_hex(16)


# Masking draws its 32 characters from one read of the system's random source: Django's own
# reads it once per character, 32 system calls, on every page's every push. Bytes from 248 up
# are skipped so that every character is as likely. Tokens are made and read as Django makes
# and reads them, from its public constants (its helpers are private).
CSRF_CHARS = csrf.CSRF_ALLOWED_CHARS
CSRF_CHAR_INDEX = {char: index for index, char in enumerate(CSRF_CHARS)}
UNBIASED_BYTES = 256 - 256 % len(CSRF_CHARS)


def well_formed(token: str) -> bool:
    """Whether a token or secret is one Django could have made: its length (a secret's or a
    masked token's) and its characters."""
    lengths = (csrf.CSRF_SECRET_LENGTH, csrf.CSRF_TOKEN_LENGTH)
    return len(token) in lengths and all(char in CSRF_CHAR_INDEX for char in token)


def unmasked(token: str) -> str:
    """The secret in a well-formed token: a masked one's second half shifted back by its mask
    (its first half), as Django reads it; a secret as it is."""
    if len(token) != csrf.CSRF_TOKEN_LENGTH:
        return token
    mask, shifted = token[: csrf.CSRF_SECRET_LENGTH], token[csrf.CSRF_SECRET_LENGTH :]
    return "".join(
        CSRF_CHARS[(CSRF_CHAR_INDEX[char] - CSRF_CHAR_INDEX[step]) % len(CSRF_CHARS)]
        for char, step in zip(shifted, mask, strict=True)
    )


def masked(secret: str) -> str:
    """The page's CSRF secret freshly masked, as Django masks it anew in every response.

    Socket frames are compressed, and a token that never changed, sent beside names other
    players chose, could be read back from the frames' sizes (as in the BREACH attack). The
    token is made as Django makes it (a random mask, then the secret shifted by it character by
    character), so Django's CSRF check accepts it.
    """
    if len(secret) != csrf.CSRF_SECRET_LENGTH or not well_formed(secret):
        return secret  # none (or not a secret Django made): the forms will be refused anyway
    mask: list[int] = []
    while len(mask) < csrf.CSRF_SECRET_LENGTH:
        drawn = secrets.token_bytes(csrf.CSRF_SECRET_LENGTH + 8)
        mask += [byte % len(CSRF_CHARS) for byte in drawn if byte < UNBIASED_BYTES]
    mask = mask[: csrf.CSRF_SECRET_LENGTH]
    shifted = (
        CSRF_CHARS[(CSRF_CHAR_INDEX[char] + step) % len(CSRF_CHARS)]
        for char, step in zip(secret, mask, strict=True)
    )
    return "".join(CSRF_CHARS[step] for step in mask) + "".join(shifted)


def fill_csrf(html: str, slot: str | None, token: str) -> str:
    """A shared redraw with this page's own CSRF token in its forms."""
    if not slot:
        return html
    # The slot is 32 random hex digits: it appears nowhere but as the value of the forms' fields.
    return html.replace(slot, token)


def csrf_matches(token: str, cookie: str) -> bool:
    """Whether a form's CSRF token goes with the page's CSRF cookie, checked as Django's
    middleware checks a post (with its helpers: a socket has no request to give it).

    The socket's whole origin is also checked when it opens (``games.live.sockets``). Django's
    public check needs a request, and its helpers are private: tests/live/test_frames.py
    checks tokens here and through ``CsrfViewMiddleware`` alike, and fails if Django changes.
    """
    if not (well_formed(token) and well_formed(cookie)):
        return False
    return constant_time_compare(unmasked(token), unmasked(cookie))
