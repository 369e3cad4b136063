from decimal import Decimal

from django import template
from django.utils.formats import get_format, number_format
from django.utils.translation import get_language

from scoring.numeric import shown

register = template.Library()

# number_format looks its settings up on every call, a tenth of a 200-player page's rendering; the
# site groups no thousands (USE_THOUSAND_SEPARATOR is off), so the text is Python's with the
# language's decimal separator. Values of 16 digits or more take Django's own path.
_FAST_DIGITS = 15
_separators = {}


def _decimal_separator():
    language = get_language()
    separator = _separators.get(language)
    if separator is None:
        separator = _separators[language] = get_format("DECIMAL_SEPARATOR")
    return separator


@register.filter
def points(value):
    """Points as shown everywhere: rounded half-up to 2 decimals, localised ("150,14"), no trailing zeros."""
    if value is None or value == "":
        return "–"
    value = shown(Decimal(value))
    if value.is_zero():
        value = abs(value)  # "0", never "-0", as Django writes it
    decimals = 0 if value == value.to_integral() else 2
    if not value.is_finite() or value.adjusted() >= _FAST_DIGITS:
        return number_format(value, decimal_pos=decimals)
    return f"{value:.{decimals}f}".replace(".", _decimal_separator())
