"""One table's result as the arbiter enters it, settled in one call (SCORING.md section 2; seed 002).

The arbiter types table points, or ticks territories in the calculator, may type armies and places.
`settle_table` fills what the rules derive and checks everything at once:
1. table points: typed, else the sum of the ticked territories; an eliminated player or a RisiKo!
   holds 0 when nothing is typed; any other blank is a missing result (code "table_points_missing");
2. a territory is ticked for one player of the table only (seed 002);
3. players tied on table points and all with armies entered are placed by armies, unless the
   arbiter typed a place;
4. the game is validated and placed by the engine (section 3).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from .errors import InvalidResult
from .model import Game, PlayerResult
from .territories import check_held_once, places_by_armies, table_points_from_territories


@dataclass(frozen=True)
class EnteredResult:
    """One player's line as entered: table points may be None (missing, or left to the territories)."""
    id: object
    table_points: Decimal | None = None
    risiko: bool = False
    eliminated: int | None = None
    place: int | None = None
    territories: tuple = ()
    armies: int | None = None


@dataclass(frozen=True)
class SettledTable:
    """The settled lines (table points and places filled, in the order given), the validated game
    and its placement."""
    lines: tuple
    game: Game
    placement: object


def _table_points(line: EnteredResult) -> Decimal:
    tp = line.table_points
    if line.territories and not tp and line.eliminated is None:
        return Decimal(table_points_from_territories(line.territories).total)
    if tp is not None:
        return tp
    if line.eliminated is not None or line.risiko:
        return Decimal(0)
    raise InvalidResult("table points missing", code="table_points_missing", player=line.id,
                        field="table_points", location="")


def settle_table(round: int, table: int, entries) -> SettledTable:
    """Fill and check one table's entered lines (see the module's docstring); ScoringError on a broken rule."""
    lines = [replace(line, table_points=_table_points(line)) for line in entries]
    check_held_once({line.id: line.territories for line in lines})
    first = 1 + sum(1 for line in lines if line.risiko)
    by_armies = places_by_armies([(line.id, line.table_points, line.armies) for line in lines
                                  if line.eliminated is None and not line.risiko], first)
    lines = [line if line.place is not None or line.id not in by_armies
             else replace(line, place=by_armies[line.id]) for line in lines]
    game = Game(round=round, table=table, players=[
        PlayerResult(id=line.id, table_points=line.table_points, risiko=line.risiko, eliminated=line.eliminated,
                     place=line.place) for line in lines])
    return SettledTable(lines=tuple(lines), game=game, placement=game.placement)
