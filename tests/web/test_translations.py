"""Both languages are complete: every visible string has a Spanish translation that is compiled."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


@pytest.fixture(scope="module")
def catalog() -> polib.POFile:
    return polib.pofile(str(LOCALE / "es/LC_MESSAGES/django.po"))


def test_every_string_is_translated(catalog):
    missing = [e.msgid for e in catalog if not e.translated() or "fuzzy" in e.flags]
    assert missing == []
    assert len(catalog) > 100


def test_translations_keep_their_placeholders(catalog):
    for entry in catalog:
        wanted = sorted(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
        for text in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
            if entry.msgid_plural and not PLACEHOLDER.findall(text):
                continue  # a plural form may spell the number out
            assert sorted(PLACEHOLDER.findall(text)) == wanted, entry.msgid


def test_compiled_catalog_matches_the_source(catalog):
    compiled = polib.mofile(str(LOCALE / "es/LC_MESSAGES/django.mo"))
    source = {(e.msgid, e.msgstr) for e in catalog if e.msgid and not e.msgid_plural}
    built = {(e.msgid, e.msgstr) for e in compiled if e.msgid and not e.msgid_plural}
    assert source == built, "run: uv run python manage.py compilemessages -l es"


# Words a Spanish player reads as English or as broken grammar (issue 16): "Chance" is a box of
# the card, "Gana Jugador de club" missed its article (the winner line now works for any name).
@pytest.mark.parametrize(
    ("msgid", "wanted"),
    [
        ("Chance", "Suerte"),
        ("Winner: %(name)s", "Gana la partida: %(name)s"),
        ("You win!", "¡Has ganado!"),
    ],
)
def test_spanish_words_a_player_reads(catalog, msgid, wanted):
    assert catalog.find(msgid).msgstr == wanted


def test_no_spanish_text_leaves_the_chance_box_in_english(catalog):
    assert [e.msgid for e in catalog if "Chance" in e.msgstr] == []
