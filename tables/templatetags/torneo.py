from decimal import Decimal

from django import template
from django.utils.formats import number_format

from scoring.numeric import shown

register = template.Library()


@register.filter
def points(value):
    """Points as shown everywhere: rounded half-up to 2 decimals, localised ("150,14"), no trailing zeros."""
    if value is None or value == "":
        return "–"
    value = shown(Decimal(value))
    decimals = 0 if value == value.to_integral() else 2
    return number_format(value, decimal_pos=decimals)
