"""A cell's value read as the field it fills: numbers written as a person writes them ("12,5", "12.5",
" 48 "), yes and no in the ways club sheets say them ("sì", "x", "1", "VERO"), names cleaned as the
player form cleans them. Each raises ValueError with the message the row shows."""
import datetime
import re
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from tournaments.text import clean_name, fold

YES = {"si", "s", "x", "1", "yes", "y", "vero", "true", "v", "ok", "risiko", "risiko!", "r", "rk", "*", "✓", "✔"}
NO = {"", "no", "n", "0", "falso", "false", "f", "-"}


def shown(value):
    """The value as the cell shows it, for a message."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("TRUE") if value else _("FALSE")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value).strip()[:40]


def text(value):
    """A name or a club: NFKC, invisible characters dropped, spaces collapsed; a number as written."""
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, (int, Decimal)):
        return str(value)
    return clean_name(str(value))


def number(value):
    """A number of points: 12, 12.5, "12,5", "12.5"; None for an empty cell."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool) or isinstance(value, datetime.date):
        raise ValueError(_("“%(value)s” is not a number") % {"value": shown(value)})
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, Decimal):
        return value
    raw = str(value).strip().replace(" ", "").replace("\u00a0", "")
    if re.fullmatch(r"[+-]?\d{1,3}(\.\d{3})+,\d+", raw):      # 1.234,5
        raw = raw.replace(".", "")
    raw = raw.replace(",", ".")
    try:
        result = Decimal(raw)
    except InvalidOperation:
        raise ValueError(_("“%(value)s” is not a number") % {"value": shown(value)}) from None
    if not result.is_finite():
        raise ValueError(_("“%(value)s” is not a number") % {"value": shown(value)})
    return result


def whole(value):
    """A whole number from 1 (a table, an order of elimination, a place); None for an empty cell."""
    result = number(value)
    if result is None:
        return None
    if result != result.to_integral_value() or result < 1 or result > 10_000:
        raise ValueError(_("“%(value)s” is not a whole number from 1") % {"value": shown(value)})
    return int(result)


def yes_no(value):
    """RisiKo!: sì, x, 1, VERO... or nothing."""
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, Decimal)):
        if value in (0, 1):
            return bool(value)
        raise ValueError(_("“%(value)s” is neither yes nor no: write sì or leave it empty") % {"value": shown(value)})
    folded = fold(str(value)).strip(" .")
    if folded in YES:
        return True
    if folded in NO:
        return False
    raise ValueError(_("“%(value)s” is neither yes nor no: write sì or leave it empty") % {"value": shown(value)})


def identifier(value):
    """A national ID as written, "00123" kept; a number stored as 123.0 is 123."""
    if value is None or isinstance(value, bool):
        return ""
    return " ".join(str(value).split())[:40]


NOT_AN_ID = {"nd", "na", "no", "none", "nessuno", "nessuna", "non tesserato", "non tesserata", "nt", "x", "n/d", "n/a",
             "#n/d", "#n/a", "#nd", "#na", "-", "--", "?"}


def national_id(value):
    """A national ID, or "" when the cell holds none: empty, 0 (LibreOffice stores an empty formula result of
    GestioneTorneo's template as 0, and GestioneTorneo itself ignores an ID <= 0), a negative number, a
    placeholder ("n.d.", "-", "non tesserato") or a text with no digit in it. "00123" and "RM123" are IDs."""
    if value is None or isinstance(value, bool) or isinstance(value, datetime.date):
        return ""
    if isinstance(value, (int, Decimal, float)):
        return identifier(value) if value > 0 and value == int(value) else ""
    written = identifier(value)
    folded = fold(written).strip().rstrip(".")
    if folded.replace(".", "") in NOT_AN_ID or folded in NOT_AN_ID or not re.search(r"\d", written):
        return ""
    try:
        if Decimal(written.replace(",", ".")) <= 0:
            return ""
    except InvalidOperation:
        pass
    return written


def header_key(value):
    """A column's header compared case, accents, spaces and punctuation aside: "Punti  Tavolo." -> "puntitavolo"."""
    return re.sub(r"[^0-9a-z]", "", fold(text(value)))


# --- the ways a secretary writes a result in one cell ------------------------------------------------

ELIMINATED_WORDS = {"elim", "eliminato", "eliminata", "el", "e", "out", "fuori"}
RISIKO_WORDS = {"risiko", "risiko!", "r", "rk"}
POINTS_UNIT = re.compile(r"^\s*([+-]?[\d.,\s]+?)\s*(?:pt|pti|p\.ti|pts|punti|punto|p)\.?\s*$", re.IGNORECASE)
ORDINAL = re.compile(r"^\s*(\d{1,5})\s*(?:°|º|ª|\^|o|a|\.)\s*$")


def table_points_cell(value):
    """The table points of a cell and what its words say: (points, eliminated, risiko). "15 pt" is 15;
    "ELIM" an eliminated player (0 points, the order unknown); "RISIKO" or "R" the game's RisiKo! (100)."""
    if isinstance(value, str):
        folded = fold(value).strip(" .")
        if folded in ELIMINATED_WORDS:
            return Decimal(0), True, False
        if folded in RISIKO_WORDS:
            return Decimal(100), False, True
        unit = POINTS_UNIT.match(value)
        if unit:
            return number(unit.group(1)), False, False
    return number(value), False, False


def ordinal(value):
    """A place or an order written "3°", "3º", "3a" or "3.": the whole number; else as `whole`."""
    if isinstance(value, str):
        match = ORDINAL.match(value)
        if match:
            return whole(match.group(1))
    return whole(value)
