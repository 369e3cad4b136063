"""Formulas giving fixed points by place: standard, faentino, spartaco, veronese (seed 004)."""
from __future__ import annotations

from decimal import Decimal

from ..numeric import HUNDRED, ZERO
from .base import PlaceFormula

_STANDARD_PLACES = {1: Decimal(12), 2: Decimal(7), 3: Decimal(5), 4: Decimal(3), 5: Decimal(2), 6: Decimal(1)}
_STANDARD_RISIKO = Decimal(13)
_GUFO_TOP = 5  # 13.6, "position": an eliminated player at final place p gets max(0, 5 - p)


class Standard(PlaceFormula):
    """Seed 004, "punti standard": 12, 7, 5, 3 by place plus TP / 100; RisiKo! 13 flat.

    Eliminated: their elimination order at every table size (1 to the first eliminated, 2 to the
    second, ...), as seed 004 says. 5th place 2 + TP / 100, 6th place 1 + TP / 100 (Interpretation).

    SCORING.md 13.6 (RCU Roma "Torneo Gufo"), `standard_eliminated: "position"`: an eliminated player
    at final place p gets max(0, 5 - p) (the first eliminated at a 5-player table gets 0). With the
    `"table_points"` corrective of 13.1 only the TP hundredths are scaled; RisiKo! stays 13 flat
    (Interpretation, 13.6.2: the club's program has no RisiKo! case), and the scaled hundredths are
    shown and compared with 2 decimals like every other result (Interpretation, 13.6.4: 5.375 is
    5.38, where the program compares them exactly).
    """
    name = "standard"
    parameters = ("standard_eliminated",)

    def value(self, position, seat, placement, params):
        if seat.eliminated is not None:
            if params.standard_eliminated == "position":
                return Decimal(max(0, _GUFO_TOP - position))
            return Decimal(seat.eliminated)
        if seat.risiko:
            return _STANDARD_RISIKO
        return _STANDARD_PLACES[position] + seat.tp / HUNDRED


_FAENTINO_WIN = Decimal(100)
_FAENTINO_RISIKO = Decimal(110)
_FAENTINO_CLOSE = Decimal(50)
_FAENTINO_FAR = Decimal(10)
_FAENTINO_MAX_GAP = Decimal(15)


class Faentino(PlaceFormula):
    """Seed 004, "metodo faentino": winner 100 (110 with RisiKo!); losers within 15 TP of the
    winner 50, further behind 10; eliminated 0."""
    name = "faentino"

    def value(self, position, seat, placement, params):
        if seat.eliminated is not None:
            return ZERO
        if position == 1:
            return _FAENTINO_RISIKO if seat.risiko else _FAENTINO_WIN
        gap = placement.winner_tp - seat.tp
        return _FAENTINO_CLOSE if gap <= _FAENTINO_MAX_GAP else _FAENTINO_FAR


_SPARTACO_BASE = Decimal(100)
_SPARTACO_RISIKO_WINNER = Decimal(200)


class Spartaco(PlaceFormula):
    """Seed 004, formula "Spartaco": winner 100 + TP; every other player 100 - gap.

    RisiKo! (SCORING.md 4.9, 13.3): the winner gets 200 - malus (parameter, default 14: 186); every
    other player 100 - malus (86, `spartaco_risiko_losers: "flat"`, the default) or their own TP
    (`"own_tp"`, RCU Roma "Campionato Gufo": 100 - (100 - TP); eliminated 0).
    """
    name = "spartaco"
    parameters = ("spartaco_malus", "spartaco_risiko_losers")

    def value(self, position, seat, placement, params):
        if placement.risiko:
            if position == 1:
                return _SPARTACO_RISIKO_WINNER - params.spartaco_malus
            if params.spartaco_risiko_losers == "own_tp":
                return seat.tp
            return _SPARTACO_BASE - params.spartaco_malus
        if position == 1:
            return _SPARTACO_BASE + seat.tp
        return _SPARTACO_BASE - (placement.winner_tp - seat.tp)


_VERONESE_BONUS = {1: Decimal(100), 2: Decimal(60), 3: Decimal(40), 4: Decimal(20), 5: ZERO, 6: ZERO}


class Veronese(PlaceFormula):
    """Seed 004, formula "veronese/trentina": TP plus 100, 60, 40, 20 by place (5th and 6th +0,
    Interpretation); eliminated players hold 0 TP and get the bonus of their final place."""
    name = "veronese"

    def value(self, position, seat, placement, params):
        return seat.tp + _VERONESE_BONUS[position]


STANDARD = Standard()
FAENTINO = Faentino()
SPARTACO = Spartaco()
VERONESE = Veronese()
