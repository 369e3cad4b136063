"""The registry of scoring formulas (SCORING.md section 4): name -> formula object.

Every formula object has `points(game, params=None) -> {player: Decimal}` (before the Como
corrective and penalties), `table(placement, params)`, `check_params(params)`, `name`, `ranking`,
`parameters`, `corrective` and `decimals`. Sections 4 and 13 (club variants) register here alike.
"""
from __future__ import annotations

from ..errors import UnknownFormula
from .base import Formula, PlaceFormula
from .club import MAIALINO_2024, MILLESIMI
from .conversione import CONVERSIONE150, CONVERSIONE200
from .place_points import FAENTINO, SPARTACO, STANDARD, VERONESE
from .table_points import BONUS50, MAIALINO, MEDAGLIERE, PUNTI_TAVOLO, TRIESTINO, VITTORIE

FORMULAS: dict[str, Formula] = {f.name: f for f in (
    PUNTI_TAVOLO, CONVERSIONE150, CONVERSIONE200, BONUS50, VITTORIE, TRIESTINO, STANDARD,
    FAENTINO, SPARTACO, MAIALINO, VERONESE, MEDAGLIERE,
    MILLESIMI, MAIALINO_2024,  # club variants, SCORING.md section 13
)}


def get_formula(formula) -> Formula:
    """A formula object from its name (or the object itself); UnknownFormula otherwise."""
    if isinstance(formula, Formula):
        return formula
    try:
        return FORMULAS[formula]
    except (KeyError, TypeError):
        raise UnknownFormula(formula, FORMULAS) from None


__all__ = ["FORMULAS", "Formula", "PlaceFormula", "get_formula"]
