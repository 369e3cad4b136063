"""Names folded for searching: without accents, case or extra spaces, so "Forli" finds "Forlì"."""
import re
import unicodedata

from confusable_homoglyphs import confusables
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


def fold(text):
    """'  Niccolò  FORLÌ ' -> 'niccolo forli'. Apostrophes are kept: "D'Amico" stays "d'amico"."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().replace("’", "'").split())


def posted_id(text):
    """A posted id as a number, or None: isdigit() would take "²", and beyond 18 digits SQLite cannot
    compare. The one reading of an id typed in a form, a URL or a select."""
    text = str(text if text is not None else "").strip()
    return int(text) if text.isdecimal() and text.isascii() and len(text) <= 18 else None


def search_words(query, limit=8):
    """The folded words of a search box, at most `limit` of them."""
    return fold(query).split()[:limit]


def clean_name(text):
    """A typed name as it is stored: NFKC (fullwidth and compatibility letters become plain ones),
    without invisible or control characters (zero-width spaces, direction overrides such as U+202E),
    spaces collapsed. "Ｍａｒｃｏ\u200b  Rossi" -> "Marco Rossi"."""
    text = unicodedata.normalize("NFKC", text or "")
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc"))
    return " ".join(text.split())


def as_written(name):
    """A name typed in capitals (or all small) as people write it: "DE LUCA" -> "De Luca", "d'amico" ->
    "D'Amico"; a name with its own mix of cases ("McDonald", "Di Maio") as typed."""
    letters = [c for c in name if c.isalpha()]
    if not letters or not (all(c.isupper() for c in letters) or all(c.islower() for c in letters)):
        return name
    return re.sub(r"[^\W\d_]+", lambda m: m.group(0)[:1].upper() + m.group(0)[1:].lower(), name)


def mixes_look_alike_letters(text):
    """True when a name mixes alphabets with letters that look alike, the way an impostor writes
    "Mаrco" with a Cyrillic "а": it would show as an existing player's name and never match it.
    A name written in one alphabet (Latin, Greek, Cyrillic...) is fine."""
    return bool(text) and bool(confusables.is_dangerous(text))


def name_skeleton(text):
    """What a name looks like, for telling look-alikes apart: NFKC, case-folded, accents dropped and
    every letter that looks like a Latin one replaced by it. "аrbitro" (a Cyrillic "а") and "ARBITRO"
    both give "arbitro"."""
    folded = fold(clean_name(text))
    out = []
    for ch in folded:
        if ch.isascii():
            out.append(ch)
            continue
        found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"]) or []
        latin = [h["c"] for entry in found for h in entry.get("homoglyphs", []) if h["c"].isascii()]
        out.append(latin[0].casefold() if latin else ch)
    return "".join(out)


def checked_name(value, required=True):
    """A person's name as every way in stores it (the forms, the CSV and pasted lists, the sign-up,
    import_tournament): `clean_name`, refused when empty (if required) or when it mixes look-alike
    letters of different alphabets. Raises ValidationError."""
    value = clean_name(value)
    if required and not value:
        raise ValidationError(_("This field cannot be empty."))
    if mixes_look_alike_letters(value):
        raise ValidationError(_("Write the name in one alphabet: it mixes letters of different alphabets "
                                "that look alike."))
    return value
