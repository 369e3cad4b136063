"""A seating request checked and turned into player numbers, with what every method needs from it."""
import random
import time
from itertools import combinations

from scoring.phases import MIN_TABLE, PREFERRED_SIZES

from .model import METHODS, SeatingError, SeatingResult
from .penalties import evaluate, odd_counts, weights
from .problem import Problem
from .sizes import table_sizes, validate_sizes

# Share of the time limit the search may use: the rest is start-up, input and output.
SEARCH_SHARE = 0.7


class Context:
    """A request checked and turned into player numbers 0..n-1 (input order)."""

    def __init__(self, request):
        self.request = request
        self.started = time.perf_counter()
        if request.method not in METHODS:
            raise SeatingError(f"unknown method {request.method!r}: use {', '.join(METHODS)}")
        ids = [p.id for p in request.players]
        seen = set()
        for i in ids:
            if i in seen:
                raise SeatingError(f"player {i!r} is listed twice", code="player_twice", player=i)
            seen.add(i)
        if len(ids) < MIN_TABLE:
            raise SeatingError(f"at least {MIN_TABLE} players are needed, {len(ids)} present", code="too_few_players",
                               n=len(ids))
        if request.table_size not in PREFERRED_SIZES:
            raise SeatingError(f"the preferred table size must be 4 or 5, not {request.table_size}")
        if request.rounds_left < 1:
            raise SeatingError("rounds_left counts this round too: it must be at least 1")
        if not request.time_limit_s > 0:
            raise SeatingError("time_limit_s must be positive")
        self.ids = ids
        self.index = {i: k for k, i in enumerate(ids)}
        self.n = len(ids)
        self.players = list(request.players)
        self.weight = weights(request.priorities)
        self.rng = random.Random(request.seed)
        self.messages = []
        self.notices = []
        for table in request.history:
            if len(set(table)) != len(table):
                raise SeatingError("a table of history lists a player twice")
        self.history = [list(t) for t in request.history]
        self.odd_before = odd_counts(ids, self.history, request.fives, request.table_size)
        winners = list(request.winners) or [t[0] for t in request.previous if t]
        self.winners = {w for w in winners if w in self.index}
        self.pinned = {}
        for pid, number in request.pinned.items():
            if pid not in self.index:
                raise SeatingError(f"pinned player {pid!r} is not among the players present", code="pinned_absent",
                                   player=pid)
            self.pinned[self.index[pid]] = number - 1
        self.deadline = self.started + request.time_limit_s * SEARCH_SHARE

    def sizes(self):
        if self.request.sizes is not None:
            return validate_sizes(self.n, self.request.sizes)
        return self.take_sizes(table_sizes(self.n, self.request.table_size))

    def take_sizes(self, plan):
        """The sizes of a SizePlan, noting for the organiser when tables of 3 or 6 are used."""
        if plan.message:
            self.note(plan.message, "odd_sizes", sizes="+".join(map(str, plan.sizes)))
        return list(plan.sizes)

    def note(self, text, code, **context):
        self.messages.append(text)
        self.notices.append((code, context))

    def check_pins(self, sizes):
        per_table = {}
        for p, t in self.pinned.items():
            if not 0 <= t < len(sizes):
                raise SeatingError(f"player {self.ids[p]!r} is pinned to table {t + 1}, "
                                   f"but there are {len(sizes)} tables")
            per_table[t] = per_table.get(t, 0) + 1
            if per_table[t] > sizes[t]:
                raise SeatingError(f"more players are pinned to table {t + 1} than it seats")

    def ranked(self):
        """Player numbers best first: by rank, unranked last, ties in seeded random order."""
        tiebreak = list(range(self.n))
        random.Random(self.request.seed).shuffle(tiebreak)
        return sorted(range(self.n), key=lambda p: (self.players[p].rank is None,
                                                    self.players[p].rank or 0, tiebreak[p]))

    def problem(self, sizes, rounds, *, fixed0=None, anchor=None):
        n, index = self.n, self.index
        base = [[0] * n for _ in range(n)]
        for table in self.history:
            present = [index[i] for i in table if i in index]
            for p, q in combinations(present, 2):
                base[p][q] += 1
                base[q][p] += 1
        clubs = {}
        club = [clubs.setdefault(p.club, len(clubs)) if p.club else None for p in self.players]
        return Problem(n, sizes, rounds, club=club, base=base,
                       odd_table=[s != self.request.table_size for s in sizes],
                       odd_base=[self.odd_before[i] for i in self.ids], weight=self.weight,
                       winners=[i in self.winners for i in self.ids], fixed0=fixed0, anchor=anchor)

    def history_rounds(self):
        """Earlier rounds as lists of tables of player numbers, when every round seated exactly
        the players present now (the case a design can continue); None otherwise."""
        rounds, current, seen = [], [], set()
        for table in self.history:
            if seen & set(table):
                rounds.append(current)
                current, seen = [], set()
            current.append(table)
            seen |= set(table)
        if current:
            rounds.append(current)
        everyone = set(self.ids)
        out = []
        for rnd in rounds:
            if {i for t in rnd for i in t} != everyone:
                return None
            out.append([[self.index[i] for i in t] for t in rnd])
        return out

    def names(self, tables):
        return [[self.ids[p] for p in t] for t in tables]

    def result(self, tables, *, direct=(), bye=()):
        named = self.names(tables)
        penalties = evaluate(named, self.players, self.history, self.request.fives,
                             table_size=self.request.table_size, winners=self.winners)
        return SeatingResult(tables=named, penalties=penalties,
                             seconds=round(time.perf_counter() - self.started, 3),
                             messages=self.messages, notices=self.notices, direct=[self.ids[p] for p in direct],
                             bye=[self.ids[p] for p in bye])
