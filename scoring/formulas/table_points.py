"""Formulas built on table points: punti_tavolo, bonus50, vittorie, triestino, maialino,
medagliere."""
from __future__ import annotations

from decimal import Decimal

from ..numeric import HUNDRED, ZERO
from .base import Formula


def _counted_tp(placement):
    return [seat.tp for seat in placement.seats]


class PuntiTavolo(Formula):
    """F.I.RK. art. 46-47 (seed 000): points = TP (RisiKo! 100, eliminated 0).

    SCORING.md 13.2: with `risiko_total` the RisiKo! player's points are exactly that amount."""
    name = "punti_tavolo"
    parameters = ("risiko_total",)

    def table(self, placement, params):
        out = _counted_tp(placement)
        if placement.risiko and params.risiko_total is not None:
            out[0] = params.risiko_total
        return out


class Medagliere(PuntiTavolo):
    """Seed 004, "medagliere olimpico": standings by number of 1st places, then 2nd, 3rd, 4th, 5th;
    the per-game points shown are the TP."""
    name = "medagliere"
    ranking = "medals"
    parameters = ()

    def table(self, placement, params):
        return _counted_tp(placement)


class Bonus50(Formula):
    """Seed 004, "punti tavolo con bonus per la vittoria": TP plus a bonus (parameter, default 50)
    for the winner; RisiKo! counts 100 TP. Two players sharing first place split the bonus, three
    or more sharing it get no bonus.

    SCORING.md 13.2 (2004 national final): with `risiko_total` a RisiKo! winner gets exactly that
    amount instead of 100 + bonus."""
    name = "bonus50"
    parameters = ("bonus", "risiko_total")

    def table(self, placement, params):
        out = _counted_tp(placement)
        first = placement.seats[0]
        if first.group == 1:
            if placement.risiko and params.risiko_total is not None:
                out[0] = params.risiko_total
            else:
                out[0] = out[0] + params.bonus
        elif first.group == 2:
            half = params.bonus / 2
            out[0] = out[0] + half
            out[1] = out[1] + half
        return out


class Vittorie(Bonus50):
    """Seed 004, "numero di vittorie": per-game points as bonus50; the standings rank by number
    of games won first, then by total points."""
    name = "vittorie"
    ranking = "wins"


class Triestino(Formula):
    """Seed 004, metodo "triestino": TP x 100n / sum of the table's TP (400 at 4 players, 500 at 5);
    RisiKo! counts 100 TP; a table whose TP sum is 0 gives everyone 0. Standings by wins first."""
    name = "triestino"
    ranking = "wins"

    def table(self, placement, params):
        total = placement.tp_sum
        if not total:
            return [ZERO] * placement.n
        scale = HUNDRED * placement.n
        return [seat.tp * scale / total for seat in placement.seats]


_MAIALINO_BONUS = {1: Decimal(60), 2: Decimal(10), 3: Decimal(5)}
_MAIALINO_THREE_FIRST = Decimal(10)
_TWO = Decimal(2)


class Maialino(Formula):
    """Seed 004, formula "maialino" (RCU I Maialini, Modena): half the TP plus a bonus by TP order
    among survivors: 60 first, 10 second, 5 third. Two tied players split the bonus of the place
    they tie on; three tied on first get 10 each; any other tie of three or more: no bonus.
    RisiKo! counts 100 TP; eliminated 0."""
    name = "maialino"

    def table(self, placement, params):
        out = []
        for seat in placement.seats:
            if seat.eliminated is not None:
                out.append(ZERO)
                continue
            bonus = _MAIALINO_BONUS.get(seat.rank, ZERO)
            if seat.group == 2:
                bonus = bonus / _TWO
            elif seat.group >= 3:
                bonus = _MAIALINO_THREE_FIRST if seat.group == 3 and seat.rank == 1 else ZERO
            out.append(seat.tp / _TWO + bonus)
        return out


PUNTI_TAVOLO = PuntiTavolo()
MEDAGLIERE = Medagliere()
BONUS50 = Bonus50()
VITTORIE = Vittorie()
TRIESTINO = Triestino()
MAIALINO = Maialino()
