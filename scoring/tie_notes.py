"""Why two neighbours of the standings equal on the total are ranked apart (SCORING.md section 6): the
first tie-break of the chain that tells them apart, and each one's value under it. Pure: read from the
engine's own rows, so that every standings page can say which tie-break decided a tie."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .numeric import shown_for


@dataclass(frozen=True)
class TieNote:
    ahead: object           # the player id above
    behind: object          # the player id below
    criterion: str          # "best_results", "wins", "table_points", "previous_round", "head_to_head"
    ahead_value: object = None    # the value that decided (None for head to head)
    behind_value: object = None


def _primary(row, ranking):
    if ranking == "wins":
        return (row.wins, row.shown_total)
    if ranking == "medals":
        return tuple(row.medals)
    return row.shown_total


def _values(criterion, row, show):
    """A comparable sequence of the row under `criterion`, each item a value a page can show."""
    if criterion == "best_results":
        return tuple(show(x) for x in row.counted)
    if criterion == "wins":
        return (row.wins,)
    if criterion == "table_points":
        return (row.table_points,)
    if criterion == "previous_round":
        # the totals after the previous round, then the one before, ... (SCORING.md 13.7)
        sums, total = [], Decimal(0)
        for points in row.results[:-1]:
            total += points
            sums.append(show(total))
        return tuple(reversed(sums))
    return None


def tie_notes(rows, chain, decimals=2, ranking="points"):
    """[TieNote] for each pair of neighbours in `rows` (scoring StandingRow, in order) equal on what the
    formula ranks by but given different ranks: the first criterion of `chain` whose values differ,
    with the first differing value of each. Head to head is named without a value."""
    show = shown_for(decimals)
    notes = []
    for above, below in zip(rows, rows[1:]):
        if above.rank == below.rank or _primary(above, ranking) != _primary(below, ranking):
            continue
        for criterion in chain:
            if criterion == "head_to_head":
                notes.append(TieNote(above.player, below.player, criterion))
                break
            a, b = _values(criterion, above, show), _values(criterion, below, show)
            if a is None or a == b:
                continue
            pair = next(((x, y) for x, y in zip(a, b) if x != y), (None, None))
            notes.append(TieNote(above.player, below.player, criterion, *pair))
            break
    return notes
