"""Placement at a table (SCORING.md section 3).

1. The RisiKo! player, if any, is 1st.
2. Then the survivors by TP descending; equal TP is ordered by explicit `place`; still equal means
   a shared place (competition ranking: 1, 2, 2, 4).
3. Then the eliminated players: the last eliminated ranks highest, the first eliminated is last.
"""
from __future__ import annotations

from .errors import InvalidResult
from .numeric import ZERO
from .validation import check_game

_NO_PLACE = 1 << 30  # survivors without an explicit place follow those with one in a TP tie


def id_key(player):
    """Sort key for player ids: integers numerically, then strings, mixed types never clash."""
    if isinstance(player, int):
        return (0, player, "")
    return (1, 0, str(player))


class Seat:
    """One player's placement at the table."""
    __slots__ = ("player", "tp", "rank", "position", "group", "eliminated", "risiko", "penalty", "void")

    def __init__(self, entry, rank, position, group):
        self.player = entry.player
        self.tp = entry.tp                 # counted TP (RisiKo! 100, eliminated 0)
        self.rank = rank                   # competition rank (shared places repeat)
        self.position = position           # 1..n, distinct
        self.group = group                 # how many players share this rank
        self.eliminated = entry.eliminated
        self.risiko = entry.risiko
        self.penalty = entry.penalty
        self.void = entry.void

    def __repr__(self):
        return f"Seat({self.player!r}, rank={self.rank}, tp={self.tp})"


class Placement:
    """A table's placement: seats in order, plus the table figures the formulas need."""
    __slots__ = ("seats", "n", "winner_tp", "second_tp", "tp_sum", "risiko", "ranks", "plain")

    def __init__(self, seats):
        self.seats = tuple(seats)
        self.n = len(seats)
        first = seats[0]
        self.winner_tp = first.tp  # 100 with RisiKo!
        # The winner's gap to the second uses the best-placed other survivor (0 if none).
        second = seats[1]
        self.second_tp = ZERO if second.eliminated is not None else second.tp
        self.tp_sum = sum((s.tp for s in seats), ZERO)
        self.risiko = first.risiko
        self.ranks = {s.player: s.rank for s in seats}
        self.plain = not any(s.penalty or s.void for s in seats)  # no penalty, no absence: points as given


def compute_placement(game) -> Placement:
    """Validate `game` and place its players (SCORING.md sections 2 and 3).

    Raises InvalidResult when a rule of section 2 is broken, including an explicit place that
    does not agree with the TP order.
    """
    entries = check_game(game)
    top = [e for e in entries if e.risiko]
    survivors = [e for e in entries if e.eliminated is None and not e.risiko]
    survivors.sort(key=lambda e: (-e.tp, _NO_PLACE if e.place is None else e.place, id_key(e.player)))
    eliminated = sorted((e for e in entries if e.eliminated is not None), key=lambda e: -e.eliminated)

    seats = []
    for e in top:
        seats.append(Seat(e, 1, 1, 1))
    i = 0
    while i < len(survivors):
        e = survivors[i]
        j = i + 1
        while j < len(survivors) and survivors[j].tp == e.tp and survivors[j].place == e.place:
            j += 1
        rank = len(seats) + 1
        for k in range(i, j):
            seats.append(Seat(survivors[k], rank, len(seats) + 1, j - i))
        i = j
    for e in eliminated:
        seats.append(Seat(e, len(seats) + 1, len(seats) + 1, 1))

    placement = Placement(seats)
    for e in entries:
        if e.place is not None and e.place != placement.ranks[e.player]:
            expected = placement.ranks[e.player]
            raise InvalidResult(f"place {e.place} does not agree with the table points order (expected {expected})",
                                code="place_mismatch", round=game.round, table=game.table, player=e.player,
                                field="place", context={"place": e.place, "expected": expected})
    return placement


def place_game(game) -> dict:
    """Player -> competition rank at the table (validated, cached on the game)."""
    return dict(game.placement.ranks)
