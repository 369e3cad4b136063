"""Conversione 150 and conversione 200 (seed 004, "Formule Punteggio")."""
from __future__ import annotations

from decimal import Decimal

from ..numeric import HUNDRED, ONE
from .base import PlaceFormula

_TEN = Decimal(10)
# position -> (base, guaranteed minimum); the loser's points are base - gap, at least the minimum.
_FOUR_PLAYERS = {2: (Decimal(100), Decimal(80)), 3: (Decimal(80), Decimal(60)), 4: (Decimal(60), Decimal(40))}
_FIVE_PLAYERS = {2: (Decimal(100), Decimal(90)), 3: (Decimal(80), Decimal(70)), 4: (Decimal(60), Decimal(50)),
                 5: (Decimal(50), Decimal(40)),
                 # 6th place: Interpretation extending the steps of 10.
                 6: (Decimal(40), Decimal(30))}


class Conversione(PlaceFormula):
    """Seed 004, "conversione 150" / "conversione 200".

    1st: top + gap to the second / 100 (RisiKo!: top + 1 - TP of the second / 100).
    2nd..: base - gap to the winner, at least the guaranteed minimum; 4-player values
    (100/80, 80/60, 60/40) at tables of 3 and 4, 5-player values (100/90, 80/70, 60/50, 50/40) at
    tables of 5 and 6, plus 40/30 for a 6th.
    Eliminated: 10 x elimination order (10 first eliminated, 20 second, ...).
    """
    parameters = ()

    def __init__(self, top: int):
        self.top = Decimal(top)
        self.name = f"conversione{top}"

    def value(self, position, seat, placement, params):
        if seat.eliminated is not None:
            return _TEN * seat.eliminated
        if position == 1:
            if seat.risiko:
                return self.top + ONE - placement.second_tp / HUNDRED
            return self.top + (seat.tp - placement.second_tp) / HUNDRED
        base, minimum = (_FIVE_PLAYERS if placement.n >= 5 else _FOUR_PLAYERS)[position]
        points = base - (placement.winner_tp - seat.tp)
        return points if points > minimum else minimum


CONVERSIONE150 = Conversione(150)
CONVERSIONE200 = Conversione(200)
