"""Formulas of club variants (SCORING.md section 13): millesimi (Master / Victory) and maialino_2024
(RCU Modena 2024)."""
from __future__ import annotations

from decimal import ROUND_CEILING, Decimal

from ..errors import InvalidResult
from ..numeric import ENGINE_CONTEXT, HUNDRED, MILLE, ONE, ZERO
from .base import Formula

_THOUSAND = Decimal(1000)
_FIVE_TABLE_FACTOR = Decimal("1.25")
_FIVE_PLAYERS = 5


def _up_to_thousandths(value: Decimal) -> Decimal:
    return value.quantize(MILLE, rounding=ROUND_CEILING, context=ENGINE_CONTEXT)


class Millesimi(Formula):
    """SCORING.md 13.4, "conversione in millesimi" (GestioneTorneo manual: MasterRisiko, Victory;
    RCU Barletta 2022).

    T = the TP (RisiKo! 100, eliminated 0); at a 5-player table T = min(100, TP x 1.25), so 80 TP and
    more give 100. Points = T / 1000, plus 1 for a player at place 1 (every player sharing place 1,
    as the club's program does), rounded up to 3 decimals: a win with 50 at a 4-player table 1.050,
    a second with 21 at a 5-player table 0.027, RisiKo! 1.100. Points are shown and compared with 3
    decimals; the Como corrective does not apply (the formula has its own factor).

    Interpretation (13.4.6): TP with decimals is not truncated (41.5 gives 0.0415, rounded up to
    0.042), where the club's program truncates it.
    """
    name = "millesimi"
    corrective = False
    decimals = 3

    def table(self, placement, params):
        five = placement.n == _FIVE_PLAYERS
        out = []
        for seat in placement.seats:
            t = seat.tp  # 100 with RisiKo!, 0 when eliminated
            if five:
                t = t * _FIVE_TABLE_FACTOR
                if t > HUNDRED:
                    t = HUNDRED
            points = t / _THOUSAND
            if seat.rank == 1:
                points += ONE
            out.append(_up_to_thousandths(points))
        return out


_MAIALINO_2024_WIN = Decimal(200)
_MAIALINO_2024_RISIKO = Decimal(201)


class Maialino2024(Formula):
    """SCORING.md 13.5, RCU Modena 2024 "Coppe Maialino": the winner 200 (201 with RisiKo!); every
    other survivor 100 - (winner TP - TP) (after a RisiKo! winner TP = 100, so their own TP); an
    eliminated player 0. Published example: 45, 44, 23, 20 give 200, 99, 78, 75.

    The winner is always one player: a tie on the top TP must be settled at the table (`place`);
    left unsettled it is an input error.
    """
    name = "maialino_2024"

    def table(self, placement, params):
        seats = placement.seats
        first = seats[0]
        if first.group > 1:
            raise InvalidResult(
                f"a tie for first place must be settled by place: {self.name} has one winner "
                f"(tied with {seats[1].player})", code="winner_tie", player=first.player, field="place",
                context={"formula": self.name, "other": seats[1].player})
        winner_tp = placement.winner_tp
        out = [_MAIALINO_2024_RISIKO if first.risiko else _MAIALINO_2024_WIN]
        for seat in seats[1:]:
            out.append(ZERO if seat.eliminated is not None else HUNDRED - (winner_tp - seat.tp))
        return out


MILLESIMI = Millesimi()
MAIALINO_2024 = Maialino2024()
