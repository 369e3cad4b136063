"""Names folded for searching: without accents, case or extra spaces, so "Forli" finds "Forlì"."""
import unicodedata


def fold(text):
    """'  Niccolò  FORLÌ ' -> 'niccolo forli'. Apostrophes are kept: "D'Amico" stays "d'amico"."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().replace("’", "'").split())


def search_words(query, limit=8):
    """The folded words of a search box, at most `limit` of them."""
    return fold(query).split()[:limit]
