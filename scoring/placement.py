"""Placement at a table (SCORING.md section 3).

1. The RisiKo! player, if any, is 1st.
2. Then the survivors by TP descending; equal TP is ordered by explicit `place`; still equal means
   a shared place (competition ranking: 1, 2, 2, 4).
3. Then the eliminated players: the last eliminated ranks highest, the first eliminated is last.
"""
from __future__ import annotations

from operator import attrgetter

from .errors import InvalidResult
from .numeric import ZERO
from .validation import Entry, check_game

_NO_PLACE = 1 << 30  # survivors without an explicit place follow those with one in a TP tie
_tp = attrgetter("tp")


def id_key(player):
    """Sort key for player ids: integers numerically, then strings, mixed types never clash."""
    if isinstance(player, int):
        return (0, player, "")
    return (1, 0, str(player))


def _seat(entry, rank, position, group):
    """A checked entry (scoring.validation.Entry) placed: one player's seat at the table, with its
    competition rank (shared places repeat), its position 1..n (distinct) and how many players
    share its rank."""
    entry.rank = rank
    entry.position = position
    entry.group = group
    return entry


class Placement:
    """A table's placement: seats in order, plus the table figures the formulas need."""
    __slots__ = ("seats", "n", "winner_tp", "second_tp", "tp_sum", "risiko", "ranks", "plain", "untied")

    def __init__(self, seats):
        self.seats = tuple(seats)
        self.n = len(seats)
        first = seats[0]
        self.winner_tp = first.tp  # 100 with RisiKo!
        # The winner's gap to the second uses the best-placed other survivor (0 if none).
        second = seats[1]
        self.second_tp = ZERO if second.eliminated is not None else second.tp
        self.risiko = first.risiko
        tp_sum, ranks, plain, untied = ZERO, {}, True, True
        for s in seats:
            tp_sum += s.tp
            ranks[s.player] = s.rank
            if s.penalty or s.void:
                plain = False
            if s.group != 1:
                untied = False
        self.tp_sum = tp_sum
        self.ranks = ranks
        self.plain = plain  # no penalty, no absence: each player's points are the formula's
        self.untied = untied  # no shared place


def compute_placement(game) -> Placement:
    """Validate `game` and place its players (SCORING.md sections 2 and 3).

    Raises InvalidResult when a rule of section 2 is broken, including an explicit place that
    does not agree with the TP order.
    """
    entries = check_game(game)
    top = [e for e in entries if e.risiko]
    survivors = [e for e in entries if e.eliminated is None and not e.risiko]
    if len({e.tp for e in survivors}) == len(survivors):  # no two survivors level on TP: TP alone orders them
        survivors.sort(key=_tp, reverse=True)
    else:
        survivors.sort(key=lambda e: (-e.tp, _NO_PLACE if e.place is None else e.place, id_key(e.player)))
    eliminated = sorted((e for e in entries if e.eliminated is not None), key=lambda e: -e.eliminated)

    seats = []
    for e in top:
        seats.append(_seat(e, 1, 1, 1))
    i = 0
    while i < len(survivors):
        e = survivors[i]
        j = i + 1
        while j < len(survivors) and survivors[j].tp == e.tp and survivors[j].place == e.place:
            j += 1
        rank = len(seats) + 1
        for k in range(i, j):
            seats.append(_seat(survivors[k], rank, len(seats) + 1, j - i))
        i = j
    for e in eliminated:
        seats.append(_seat(e, len(seats) + 1, len(seats) + 1, 1))

    placement = Placement(seats)
    for e in entries:
        if e.place is not None and e.place != placement.ranks[e.player]:
            expected = placement.ranks[e.player]
            raise InvalidResult(f"place {e.place} does not agree with the table points order (expected {expected})",
                                code="place_mismatch", round=game.round, table=game.table, player=e.player,
                                field="place", context={"place": e.place, "expected": expected})
    return placement


def with_table_points(placement: Placement, table_points) -> Placement:
    """A copy of `placement` whose seats hold `table_points` (one per seat, in seat order) as their
    TP: same players, ranks, positions and groups, so the placement decided on the TP as entered
    stands (SCORING.md 13.1)."""
    seats = []
    for seat, tp in zip(placement.seats, table_points):
        copy = Entry(seat.player, tp, seat.risiko, seat.eliminated, seat.place, seat.penalty, seat.void)
        seats.append(_seat(copy, seat.rank, seat.position, seat.group))
    return Placement(seats)


def place_game(game) -> dict:
    """Player -> competition rank at the table (validated, cached on the game)."""
    return dict(game.placement.ranks)
