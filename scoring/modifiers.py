"""Modifiers of a game's points (SCORING.md section 5).

Order: formula, then Como corrective, then penalties. Disqualification changes the placement
(the player becomes the first eliminated) and absence / forfeit gives a 0 result. With the club
variant `corrective_scope: "table_points"` (section 13.1) the Como factor scales the table points
before the formula instead (`table_points_corrective`).
"""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from .numeric import HUNDRED, ZERO

FORFEIT_POINTS = ZERO
DEFAULT_COMO_REFERENCE = 5


def como_corrective(points: Decimal, players: int, reference: int = DEFAULT_COMO_REFERENCE) -> Decimal:
    """Seed 000, Como rule 5: points x n / reference (3/5, 4/5, 6/5; 5-player tables unchanged)."""
    if players == reference:
        return points
    return points * players / reference


def table_points_corrective(placement, reference: int) -> list[Decimal]:
    """SCORING.md 13.1 (GestioneTorneo, Raduno/Open: "punti partita moltiplicati per 1,25 nel caso di
    tavoli da 5"): the TP every formula reads, seat by seat, with the factor f = n / reference:
    a survivor's TP x f; an eliminated player 0; the RisiKo! player 100 x min(1, f) (a RisiKo!'s 100
    is never scaled up: 100 at a 5-player table with reference 4, 75 at a 3-player table).

    Interpretation (13.1.3, 13.1.5): a 6-player table with reference 4 scales by 1.5, which the club's
    program does not foresee; TP is used as entered, decimals included, where the program truncates
    it to whole numbers.
    """
    n = placement.n
    out = []
    for seat in placement.seats:
        if seat.risiko:
            out.append(HUNDRED if n >= reference else HUNDRED * n / reference)
        else:
            out.append(seat.tp * n / reference)  # an eliminated player holds 0
    return out


def apply_penalty(points: Decimal, penalty: Decimal) -> Decimal:
    """Seed 001, art. 20: a penalty of k points lowers the points by k, never below 0.

    A result that is already negative (possible only under spartaco with extreme TP) is left as it
    is: a penalty never raises a result.
    """
    if not penalty:
        return points
    lowered = points - penalty
    if lowered >= 0:
        return lowered
    return points if points < 0 else ZERO


def final_elimination_orders(players) -> dict:
    """Elimination orders after disqualifications (seed 001/004 casebook).

    A disqualified player is treated as the first eliminated of the table: disqualified players
    take orders 1..d (in the order listed), the players eliminated in play follow in their order.
    `players`: a table whose elimination orders were checked to run 1..k (scoring.validation).
    """
    disqualified = [p.id for p in players if p.disqualified]
    if not disqualified:  # the orders were checked to run 1..k: each keeps its own
        return {p.id: p.eliminated for p in players if p.eliminated is not None}
    eliminated = sorted((p for p in players if p.eliminated is not None and not p.disqualified),
                        key=lambda p: p.eliminated)
    orders = {pid: i for i, pid in enumerate(disqualified, 1)}
    for i, p in enumerate(eliminated, len(disqualified) + 1):
        orders[p.id] = i
    return orders


def disqualify(game, player):
    """Return a copy of `game` where `player` is disqualified (treated as first eliminated)."""
    if not any(p.id == player for p in game.players):
        raise KeyError(player)
    players = tuple(replace(p, disqualified=True) if p.id == player else p for p in game.players)
    return replace(game, players=players)
