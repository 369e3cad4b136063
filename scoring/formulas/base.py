"""What every formula provides: tournament points for the players of one placed table."""
from __future__ import annotations

from decimal import Decimal

from ..errors import InvalidParams, ScoringError
from ..model import CLUB_PARAMETERS, DEFAULT_PARAMS, Params
from ..numeric import engine_context


class Formula:
    """A scoring formula (SCORING.md section 4).

    name: the registry key ("conversione150").
    ranking: how the standings are ordered: "total", "wins" (wins, then total) or "medals".
    parameters: the Params fields that change this formula's points. A club variant of section 13
        (`model.CLUB_PARAMETERS`) is accepted only by the formulas that list it.
    corrective: whether the Como corrective (`como_reference`, `corrective_scope`) applies.
    decimals: the decimals points are shown and compared with (section 6: 2; `millesimi`: 3).
    """
    name = ""
    ranking = "total"
    parameters: tuple[str, ...] = ()
    corrective = True
    decimals = 2

    def table(self, placement, params: Params) -> list[Decimal]:
        """Points of every seat of a placement, aligned with `placement.seats`."""
        raise NotImplementedError

    def check_params(self, params: Params) -> None:
        """SCORING.md section 13: a club variant given with a formula it does not apply to is an
        error (the parameters of sections 4-6 are accepted by every formula, as before)."""
        if not self.corrective and params.como_reference is not None:
            raise InvalidParams(f"como_reference does not apply to the formula {self.name}",
                                field="como_reference", code="param_not_for_formula",
                                context={"formula": self.name, "parameter": "como_reference"})
        for name in CLUB_PARAMETERS:
            if getattr(params, name) is not None and name not in self.parameters and not (
                    name == "corrective_scope" and self.corrective):
                raise InvalidParams(f"{name} does not apply to the formula {self.name}", field=name,
                                    code="param_not_for_formula",
                                    context={"formula": self.name, "parameter": name})

    def points(self, game, params: Params | None = None) -> dict:
        """Player -> tournament points for one game (before Como corrective and penalties)."""
        params = params or DEFAULT_PARAMS
        self.check_params(params)
        with engine_context():
            placement = game.placement
            try:
                values = self.table(placement, params)
            except ScoringError as exc:
                locate(exc, game)
                raise
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


def locate(exc: ScoringError, game) -> ScoringError:
    """`exc`, raised by a formula about a placed table, with the round and table of `game`."""
    if exc.round is None and exc.table is None:
        exc.round, exc.table = game.round, game.table
    return exc
