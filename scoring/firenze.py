"""Firenze points sheet (SCORING.md 8.1; seed 003, "Condizione di vittoria").

When a Firenze-style game ends by time, the table winner is decided by a sheet counted at the
table. The arbiter enters the counts; this module computes the sheet and the order.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Hashable, Sequence

from .errors import InvalidResult
from .numeric import ZERO, coerce_number

OTHER_TERRITORY = Decimal(10)      # held, outside the objective, not next to an unconquered objective territory
ADJACENT_TERRITORY = Decimal(15)   # held, next to an unconquered objective territory
PROTECTED_TERRITORY = Decimal(15)  # bordering no opponent (on top of its own category)
OBJECTIVE_TERRITORY = Decimal(35)
PER_ARMY = Decimal("0.5")
PER_CARD = Decimal(1)
TERRITORIES = 42


@dataclass(frozen=True)
class FirenzeSheet:
    """One player's counts.

    objective_territories: held territories of the player's objective.
    adjacent_territories: other held territories adjacent to an unconquered objective territory.
    other_territories: the remaining held territories.
    protected_territories: held territories bordering no opponent (Interpretation: a bonus on top
        of the territory's own category, the three categories above partition the held ones).
    armies, cards: on the board and in hand.
    continents: conquered continents (worth `continent_value`, an organiser parameter, default 0:
        the seed's value is lost).
    unconquered_adjacent: unconquered objective territories adjacent to the player's own (only a
        tie-break).
    """
    player: Hashable
    objective_territories: int = 0
    adjacent_territories: int = 0
    other_territories: int = 0
    protected_territories: int = 0
    armies: int = 0
    cards: int = 0
    continents: int = 0
    unconquered_adjacent: int = 0

    @property
    def territories(self) -> int:
        return self.objective_territories + self.adjacent_territories + self.other_territories


_COUNTS = ("objective_territories", "adjacent_territories", "other_territories", "protected_territories",
           "armies", "cards", "continents", "unconquered_adjacent")


def _check(sheet: FirenzeSheet):
    for field in _COUNTS:
        value = getattr(sheet, field)
        if not isinstance(value, int) or type(value) is bool or value < 0:
            raise InvalidResult(f"{field.replace('_', ' ')} must be a whole number of at least 0",
                                code="firenze_count", player=sheet.player, field=field)
    if sheet.territories > TERRITORIES:
        raise InvalidResult(f"a player holds at most {TERRITORIES} territories", code="firenze_territories",
                            player=sheet.player, field="other_territories")
    if sheet.protected_territories > sheet.territories:
        raise InvalidResult("protected territories are among the held ones", code="firenze_protected",
                            player=sheet.player, field="protected_territories")
    if sheet.continents > 6:
        raise InvalidResult("there are 6 continents", code="firenze_continents", player=sheet.player,
                            field="continents")


def firenze_points(sheet: FirenzeSheet, continent_value=ZERO) -> Decimal:
    """Seed 003 sheet: 10 per other territory, 15 per territory adjacent to an unconquered objective
    territory, 15 per protected territory, 35 per objective territory, 0.5 per army, 1 per card,
    `continent_value` per conquered continent."""
    _check(sheet)
    continent_value = coerce_number(continent_value)
    if not isinstance(continent_value, Decimal) or not continent_value.is_finite() or continent_value < 0:
        raise InvalidResult("the continent value must be a number of at least 0", code="firenze_continent_value",
                            field="continent_value", location="params")
    return (OTHER_TERRITORY * sheet.other_territories + ADJACENT_TERRITORY * sheet.adjacent_territories
            + PROTECTED_TERRITORY * sheet.protected_territories
            + OBJECTIVE_TERRITORY * sheet.objective_territories + PER_ARMY * sheet.armies
            + PER_CARD * sheet.cards + continent_value * sheet.continents)


@dataclass(frozen=True)
class FirenzeRow:
    place: int
    player: Hashable
    points: Decimal


def firenze_order(sheets: Sequence[FirenzeSheet], continent_value=ZERO) -> list[FirenzeRow]:
    """Seed 003: order by sheet points; ties: more objective territories, then more territories,
    then more unconquered objective territories adjacent to one's own, then more protected
    territories, then more armies; still equal is a draw (shared place, to settle by lot)."""
    players = [s.player for s in sheets]
    if len(set(players)) != len(players):
        raise InvalidResult("a player has two sheets", code="firenze_duplicate", field="player")
    scored = [(firenze_points(s, continent_value), s) for s in sheets]

    def key(item):
        points, s = item
        return (points, s.objective_territories, s.territories, s.unconquered_adjacent,
                s.protected_territories, s.armies)

    scored.sort(key=key, reverse=True)
    rows = []
    for i, item in enumerate(scored):
        place = rows[-1].place if i and key(item) == key(scored[i - 1]) else i + 1
        rows.append(FirenzeRow(place, item[1].player, item[0]))
    return rows


TIE_BREAKS = ("objective_territories", "territories", "unconquered_adjacent", "protected_territories", "armies")


def deciding_tie_break(better: FirenzeSheet, worse: FirenzeSheet) -> str | None:
    """Which step of the seed 003 tie-break chain put `better` ahead of `worse` on equal sheet points
    (a name of TIE_BREAKS), or None when they are equal all along (a draw, settled by lot)."""
    for name in TIE_BREAKS:
        if getattr(better, name) != getattr(worse, name):
            return name
    return None
