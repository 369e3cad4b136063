"""What every formula provides: tournament points for the players of one placed table."""
from __future__ import annotations

from decimal import Decimal

from ..model import DEFAULT_PARAMS, Params
from ..numeric import engine_context


class Formula:
    """A scoring formula (SCORING.md section 4).

    name: the registry key ("conversione150").
    ranking: how the standings are ordered: "total", "wins" (wins, then total) or "medals".
    parameters: the Params fields that change this formula's points.
    """
    name = ""
    ranking = "total"
    parameters: tuple[str, ...] = ()

    def table(self, placement, params: Params) -> list[Decimal]:
        """Points of every seat of a placement, aligned with `placement.seats`."""
        raise NotImplementedError

    def points(self, game, params: Params | None = None) -> dict:
        """Player -> tournament points for one game (before Como corrective and penalties)."""
        with engine_context():
            placement = game.placement
            values = self.table(placement, params or DEFAULT_PARAMS)
            return {seat.player: value for seat, value in zip(placement.seats, values)}

    def __repr__(self):
        return f"<formula {self.name}>"


class PlaceFormula(Formula):
    """A formula that gives points by position; players sharing a place share equally the sum of
    the points of the positions they jointly occupy (SCORING.md section 3, Interpretation)."""

    def value(self, position: int, seat, placement, params: Params) -> Decimal:
        """Points of `seat` if it held `position` (1-based) alone."""
        raise NotImplementedError

    def table(self, placement, params):
        seats = placement.seats
        value = self.value
        if placement.untied:  # no shared place: each seat's own position
            return [value(seat.position, seat, placement, params) for seat in seats]
        out = []
        i = 0
        count = len(seats)
        while i < count:
            seat = seats[i]
            size = seat.group
            if size == 1:
                out.append(value(seat.position, seat, placement, params))
            else:
                # Tied players have the same TP, so the first seat stands for the whole group.
                start = seat.position
                total = sum(value(p, seat, placement, params) for p in range(start, start + size))
                out.extend([total / size] * size)
            i += size
        return out
