"""The Italian catalogue is complete and the compiled file matches it."""
import re
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parents[1] / "locale"


def _catalogue(lang):
    return polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))


def test_italian_catalogue_has_no_untranslated_entry():
    missing = [e.msgid for e in _catalogue("it").untranslated_entries()]
    assert missing == []


def test_italian_catalogue_has_no_fuzzy_entry():
    fuzzy = [e.msgid for e in _catalogue("it").fuzzy_entries()]
    assert fuzzy == []


def test_italian_plurals_have_both_forms():
    incomplete = [e.msgid for e in _catalogue("it") if e.msgid_plural and not all(e.msgstr_plural.values())]
    assert incomplete == []


def test_compiled_italian_catalogue_matches_the_source():
    source = {(e.msgctxt, e.msgid): e.msgstr or dict(e.msgstr_plural) for e in _catalogue("it").translated_entries()}
    compiled = polib.mofile(str(LOCALE / "it" / "LC_MESSAGES" / "django.mo"))
    built = {(e.msgctxt, e.msgid): e.msgstr or dict(e.msgstr_plural) for e in compiled if e.msgid}
    assert built == source


def test_the_italian_wording_addresses_nobody_as_a_man():
    # "Dagli questo link" to an arbiter who may be a woman: the Italian speaks to whoever reads it.
    gendered = re.compile(r"\b(?:[Dd]agli|[Mm]andagli|[Ii]nviagli) (?:questo|quel|il|la|un|una)\b|\bgli permette\b")
    assert [e.msgid for e in _catalogue("it") if gendered.search(e.msgstr)] == []
