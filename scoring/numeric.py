"""Decimal helpers: exact arithmetic inside the engine, half-up rounding to 2 decimals on output."""
from __future__ import annotations

from decimal import (
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    Context,
    Decimal,
    DivisionByZero,
    InvalidOperation,
    Overflow,
    localcontext,
)

ZERO = Decimal(0)
ONE = Decimal(1)
HUNDRED = Decimal(100)
CENT = Decimal("0.01")
MILLE = Decimal("0.001")
# Shares and the Trieste method divide by 3, 6, 7...: the engine works with 40 significant digits
# and, before rounding a value for display, first rounds it to 20 decimals so that a tiny division
# residue (x.xx4999...9) cannot flip a half-up rounding of a value that is exactly x.xx5.
_FINE = Decimal("1e-20")
ENGINE_CONTEXT = Context(prec=40, rounding=ROUND_HALF_EVEN, Emax=999_999, Emin=-999_999,
                         traps=[InvalidOperation, DivisionByZero, Overflow])


def engine_context():
    """Context manager: the decimal context every public engine entry point runs in."""
    return localcontext(ENGINE_CONTEXT)


def shown(value: Decimal, step: Decimal = CENT) -> Decimal:
    """The value as shown to people: rounded half-up to 2 decimals (SCORING.md section 5), or to
    `step` (MILLE: 3 decimals, the `millesimi` formula of section 13.4)."""
    rounded = value.quantize(step, rounding=ROUND_HALF_UP, context=ENGINE_CONTEXT)
    if rounded == value:  # most values have 2 decimals or fewer: nothing was rounded
        return rounded
    try:
        value = value.quantize(_FINE, context=ENGINE_CONTEXT)
    except InvalidOperation:  # too many digits for the fine step: the value is huge, skip it
        pass
    return value.quantize(step, rounding=ROUND_HALF_UP, context=ENGINE_CONTEXT)


def as_float(value: Decimal) -> float:
    """The shown value as a JSON number (86.0, 150.14); never -0.0."""
    return float(shown(value)) + 0.0


def shown_in_thousandths(value: Decimal) -> Decimal:
    """The value as shown under a formula counted in thousandths (SCORING.md 13.4, `millesimi`)."""
    return shown(value, MILLE)


def shown_for(decimals: int):
    """The function that shows a value with `decimals` decimals (2: `shown`, 3: thousandths)."""
    if decimals == 2:
        return shown
    if decimals == 3:
        return shown_in_thousandths
    raise ValueError(f"no display with {decimals} decimals")


def as_float_for(decimals: int):
    """The function that turns a value into a JSON number shown with `decimals` decimals."""
    if decimals == 2:
        return as_float
    show = shown_for(decimals)
    return lambda value: float(show(value)) + 0.0


def coerce_number(value):
    """int/float -> Decimal; Decimal -0 -> 0; anything else is returned unchanged for validation."""
    if type(value) is bool:
        return value
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, Decimal) and value.is_zero() and value.is_signed():
        return ZERO
    return value
