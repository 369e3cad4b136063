"""The seating methods of SEATING.md section 2, and `seat_round`, the one entry point."""
import random
import time
from itertools import combinations

from . import como, designs
from .model import METHODS, SeatingError, SeatingResult
from .optimizer import Problem, frozen_rounds, greedy_round, search
from .penalties import evaluate, odd_counts, weights
from .sizes import table_sizes, validate_sizes

# Rounds planned together are capped so that rounds x players stays near this (a 200-player
# tournament still plans 12 rounds).
HORIZON_SEATS = 2400
# Share of the time limit the search may use: the rest is start-up, input and output.
SEARCH_SHARE = 0.7
# Work spent polishing the round to publish when the plan leaves it some penalty.
POLISH_BUDGET = 200_000
# Embeddings of the history in a design weighed to keep club mates apart.
DESIGN_TRIES = 24


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
        if len(ids) < 3:
            raise SeatingError(f"at least 3 players are needed, {len(ids)} present", code="too_few_players",
                               n=len(ids))
        if request.table_size not in (4, 5):
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


def seat_round(request):
    """Seat one round of `request` (a SeatingRequest) with its method; SeatingError if the request
    cannot be seated."""
    ctx = Context(request)
    handler = {"random": _random, "seeded_top": _seeded_top, "snake": _snake, "swiss": _swiss,
               "greek": _greek, "fixed": _fixed, "semifinal": _semifinal, "final": _final}[request.method]
    return handler(ctx)


# -- optimised methods ------------------------------------------------------------------------

def optimise(ctx, sizes, *, fixed0=None, anchor=None, start0=None, rounds_left=None):
    """Tables of this round (lists of player numbers), planning `rounds_left` rounds together.

    `fixed0[p]` pins player p to a table, `anchor[p]` is the table a re-seat would rather keep,
    `start0` a first round to start from."""
    n = ctx.n
    rounds_left = ctx.request.rounds_left if rounds_left is None else rounds_left
    R = max(1, min(rounds_left, HORIZON_SEATS // n))
    problem = ctx.problem(sizes, R, fixed0=fixed0, anchor=anchor)
    rng = ctx.rng
    start = None
    if start0 is None and len(set(sizes)) == 1:
        start = _design_start(ctx, problem, sizes[0], R, rng)
    if start is None:
        start = [start0] if start0 is not None else []
    designed = len(start) if start0 is None else 0
    M = [row[:] for row in problem.base]
    oddc = problem.odd_base[:]
    for rnd in start:
        _count(rnd, M, oddc, problem)
    while len(start) < R:
        rnd = greedy_round(problem, M, oddc, rng, fixed=problem.fixed0 if not start else None)
        _count(rnd, M, oddc, problem)
        start.append(rnd)
    if any(f >= 0 for f in problem.fixed0):
        start[0] = _enforce_pins(start[0], problem.fixed0)
    frozen = frozen_rounds(problem, start[:designed]) if designed else set()
    best, _ = search(problem, start, rng, deadline=ctx.deadline, frozen=frozen)
    chosen = best[0]
    if len(best) > 1 and not any(f >= 0 for f in problem.fixed0) and not any(problem.winners) \
            and not any(a >= 0 for a in problem.anchor):
        # The planned rounds are interchangeable: seat now the one that costs least against the
        # history, leaving what cannot be avoided to rounds that will be planned again.
        chosen = min(best, key=lambda rnd: problem.cost([rnd]))
    if R > 1:
        # When the plan leaves this round repeats or club mates that the history alone would not
        # force, polish it against the history: it is the one published, the others will be
        # planned again. (Cheaper penalties stay as planned: they buy a repeat-free future.)
        single = ctx.problem(sizes, 1, fixed0=fixed0, anchor=anchor)
        hard = min(single.wr, single.wc)
        if single.cost([chosen]) // hard > single.lower_bound() // hard:
            chosen = search(single, [chosen], rng, deadline=ctx.deadline, budget=POLISH_BUDGET)[0][0]
    return chosen


def _count(tables, M, oddc, problem):
    for t, table in enumerate(tables):
        for p in table:
            if problem.odd_table[t]:
                oddc[p] += 1
        for p, q in combinations(table, 2):
            M[p][q] += 1
            M[q][p] += 1


def _design_start(ctx, problem, k, R, rng):
    """The remaining rounds of a zero-repeat design that continues the history, if one fits."""
    if ctx.n % k:
        return None
    past = ctx.history_rounds()
    if past is None:
        return None
    options = designs.design_rounds(ctx.n, k, past, R, limit=DESIGN_TRIES)
    if not options:
        return None
    clubs = any(c is not None for c in problem.club)
    if past:
        # Each embedding of the history continues differently: keep the continuation, and its R
        # rounds, that put fewest club mates together.
        best = None
        for rounds in options:
            rounds = sorted(rounds, key=lambda rnd: problem.cost([rnd]))[:R]
            cost = problem.cost(rounds)
            if best is None or cost < best[0]:
                best = (cost, rounds)
        return best[1]
    # A fresh tournament: any map of players onto the design will do, so draw it from the seed;
    # with clubs, improve the map until club mates share no table in the rounds planned.
    rounds = options[0][:R]
    perm = list(range(ctx.n))
    rng.shuffle(perm)
    if clubs:
        perm = _club_mapping(rounds, perm, problem.club, rng)
    return [[[perm[x] for x in t] for t in rnd] for rnd in rounds]


def _club_mapping(rounds, perm, club, rng, steps=8000):
    """Hill-climb on the map of design points to players (`perm[point]` = player), swapping two
    players of different clubs, until no club mates share a table in `rounds`."""
    n = len(perm)
    near = [[] for _ in range(n)]
    for rnd in rounds:
        for block in rnd:
            for x, y in combinations(block, 2):
                near[x].append(y)
                near[y].append(x)

    def clash(x, player, skip):
        c = club[player]
        if c is None:
            return 0
        return sum(1 for z in near[x] if z != skip and club[perm[z]] == c)

    total = sum(clash(x, perm[x], -1) for x in range(n)) // 2
    for _ in range(steps):
        if total == 0:
            break
        x, y = rng.randrange(n), rng.randrange(n)
        a, b = perm[x], perm[y]
        if club[a] == club[b]:
            continue
        before = clash(x, a, y) + clash(y, b, x)
        after = clash(x, b, y) + clash(y, a, x)
        if after <= before:
            perm[x], perm[y] = b, a
            total += after - before
    return perm


def _enforce_pins(tables, fixed0):
    """Renumber equal-size tables so that pinned players sit where they must, then swap the
    pinned players still elsewhere into their tables."""
    T = len(tables)
    tables = [list(t) for t in tables]
    votes = {}
    for j, t in enumerate(tables):
        for p in t:
            if fixed0[p] >= 0:
                votes[(j, fixed0[p])] = votes.get((j, fixed0[p]), 0) + 1
    new_of, taken = {}, set()
    for (j, target), _ in sorted(votes.items(), key=lambda kv: -kv[1]):
        if j not in new_of and target not in taken and len(tables[j]) == len(tables[target]):
            new_of[j] = target
            taken.add(target)
    free = [t for t in range(T) if t not in taken]
    for j in range(T):
        if j not in new_of:
            same = next((t for t in free if len(tables[t]) == len(tables[j])), None)
            new_of[j] = same if same is not None else j
            if same is not None:
                free.remove(same)
    if sorted(new_of.values()) == list(range(T)):
        out = [None] * T
        for j, t in new_of.items():
            out[t] = tables[j]
        tables = out
    for t in range(T):
        for p in list(tables[t]):
            target = fixed0[p]
            if target < 0 or target == t:
                continue
            q = next(q for q in tables[target] if fixed0[q] != target)
            tables[t][tables[t].index(p)] = q
            tables[target][tables[target].index(q)] = p
    return tables


def _random(ctx):
    sizes = ctx.sizes()
    ctx.check_pins(sizes)
    fixed0 = [ctx.pinned.get(p, -1) for p in range(ctx.n)]
    tables = optimise(ctx, sizes, fixed0=fixed0)
    return ctx.result([sorted(t) for t in tables])


def _seeded_top(ctx):
    """Table 1 = the current top players, the rest as `random` (seed 000, Como rule 4): from 9
    players present table 1 is exactly the top five (`como.py`); with fewer, the top of table 1
    when there are at least two tables."""
    if len({p.rank for p in ctx.players}) < 2:
        # No standings yet (first round, or nobody apart): a top table would be a random one.
        ctx.note("no standings yet: table 1 cannot seat the top players, the draw is random", "no_standings")
        return _random(ctx)
    if ctx.request.sizes is not None:
        sizes = validate_sizes(ctx.n, ctx.request.sizes)
        como.check_override(ctx.n, sizes)
    elif como.top_table_applies(ctx.n):
        sizes = ctx.take_sizes(como.como_sizes(ctx.n, ctx.request.table_size))
    else:
        sizes = ctx.sizes()
    ctx.check_pins(sizes)
    fixed0 = [ctx.pinned.get(p, -1) for p in range(ctx.n)]
    if len(sizes) >= 2:
        top = ctx.ranked()[:sizes[0]]
        for p in range(ctx.n):
            if (p in top and fixed0[p] not in (-1, 0)) or (p not in top and fixed0[p] == 0):
                raise SeatingError(f"player {ctx.ids[p]!r} is pinned against table 1 of seeded_top")
        for p in top:
            fixed0[p] = 0
    tables = optimise(ctx, sizes, fixed0=fixed0)
    order = {p: i for i, p in enumerate(ctx.ranked())}
    return ctx.result([sorted(t, key=order.get) if i == 0 else sorted(t) for i, t in enumerate(tables)])


# -- placements by rank -----------------------------------------------------------------------

def deal_snake(order, sizes):
    """Ranks 1..T one per table, T+1..2T back in reverse order, ... skipping full tables."""
    tables = [[] for _ in sizes]
    forward, i = True, 0
    while i < len(order):
        for t in (range(len(sizes)) if forward else reversed(range(len(sizes)))):
            if i < len(order) and len(tables[t]) < sizes[t]:
                tables[t].append(order[i])
                i += 1
        forward = not forward
    return tables


def _snake(ctx):
    sizes = ctx.sizes()
    ctx.check_pins(sizes)
    tables = deal_snake(ctx.ranked(), sizes)
    return ctx.result(_relabel_for_pins(ctx, _improve_ties(ctx, tables)))


def _swiss(ctx):
    """"Alla svizzera": ranks 1-4 at table 1, 5-8 at table 2, ..."""
    sizes = ctx.sizes()
    ctx.check_pins(sizes)
    order, tables, i = ctx.ranked(), [], 0
    for s in sizes:
        tables.append(order[i:i + s])
        i += s
    return ctx.result(_relabel_for_pins(ctx, _improve_ties(ctx, tables)))


def _improve_ties(ctx, tables):
    """Swaps between players of equal rank keep a placement by rank; take those that lower the
    penalties."""
    rank = [p.rank for p in ctx.players]
    problem = ctx.problem([len(t) for t in tables], 1)
    tables = [list(t) for t in tables]
    cost = problem.cost([tables])
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i, p in enumerate(tables[a]):
                for j, q in enumerate(tables[b]):
                    if rank[p] != rank[q] or p in ctx.pinned or q in ctx.pinned:
                        continue
                    tables[a][i], tables[b][j] = q, p
                    c = problem.cost([tables])
                    if c < cost:
                        cost, improved, p = c, True, q
                    else:
                        tables[a][i], tables[b][j] = p, q
    return tables


def _relabel_for_pins(ctx, tables):
    """Methods that place by rank keep their tables and move the table numbers instead: the
    table of a pinned player takes the number it must have."""
    if not ctx.pinned:
        return tables
    T = len(tables)
    new_of = {}
    for j, t in enumerate(tables):
        for p in t:
            if p in ctx.pinned:
                target = ctx.pinned[p]
                if new_of.get(j, target) != target or target in [v for k, v in new_of.items() if k != j]:
                    raise SeatingError(f"player {ctx.ids[p]!r} cannot keep table {target + 1} "
                                       f"with method {ctx.request.method}")
                new_of[j] = target
    free = [t for t in range(T) if t not in new_of.values()]
    for j in range(T):
        if j not in new_of:
            new_of[j] = free.pop(0)
    out = [None] * T
    for j, t in new_of.items():
        out[t] = tables[j]
    return out


def _greek(ctx):
    """"Alla greca": each table's winner stays, the 2nd moves one table on, the 3rd two, ...
    `previous` lists last round's tables ordered by place. Players new to the round, and those a
    smaller table cannot hold, take the free seats where they cost least."""
    if not ctx.request.previous:
        raise SeatingError("method greek needs the previous round's tables ordered by place",
                           code="greek_no_previous")
    sizes = ctx.sizes()
    ctx.check_pins(sizes)
    T = len(sizes)
    heading = []
    placed = set()
    for i, table in enumerate(ctx.request.previous):
        for place, pid in enumerate(table):
            if pid in ctx.index and ctx.index[pid] not in placed:
                heading.append((place, i, ctx.index[pid]))
                placed.add(ctx.index[pid])
    # Winners first at each table, then the 2nd places arriving, ...
    groups = [[] for _ in range(T)]
    for place, i, p in sorted(heading):
        groups[(i + place) % T].append(p)
    # The larger tables go where more players are headed; table numbers stay.
    by_need = sorted(range(T), key=lambda t: -len(groups[t]))
    table_size = dict(zip(by_need, sorted(sizes, reverse=True)))
    pool = [p for p in range(ctx.n) if p not in placed]
    for t in range(T):
        while len(groups[t]) > table_size[t]:
            pool.insert(0, groups[t].pop())
    problem = ctx.problem([table_size[t] for t in range(T)], 1)
    for p in pool:
        best = None
        for t in range(T):
            if len(groups[t]) < table_size[t]:
                c = sum(problem.C[p][x] + problem.SQ[problem.base[p][x]] for x in groups[t])
                if best is None or c < best[0]:
                    best = (c, t)
        groups[best[1]].append(p)
    return ctx.result(_relabel_for_pins(ctx, groups))


def _fixed(ctx):
    """The organiser's own plan, checked; pinned players renumber its tables."""
    plan = ctx.request.plan
    if not plan:
        raise SeatingError("method fixed needs a plan: the list of tables", code="plan_empty")
    tables, seen = [], set()
    for table in plan:
        for pid in table:
            if pid not in ctx.index:
                raise SeatingError(f"the plan seats {pid!r}, who is not among the players present",
                                   code="plan_absent", player=pid)
            if pid in seen:
                raise SeatingError(f"the plan seats {pid!r} twice", code="plan_twice", player=pid)
            seen.add(pid)
        tables.append([ctx.index[pid] for pid in table])
    missing = [i for i in ctx.ids if i not in seen]
    if missing:
        raise SeatingError(f"the plan leaves out {missing[0]!r}", code="plan_missing", player=missing[0])
    validate_sizes(ctx.n, [len(t) for t in tables])
    return ctx.result(_relabel_for_pins(ctx, tables))


# -- semifinals and final ---------------------------------------------------------------------

# Seed 004: with fewer than 32 players, seed the 1st to the final and play 3 semifinals among the
# 2nd to 12th, or seed the top 2 and play 2 semifinals among the 3rd to 10th.
SEMIFINAL_QUALIFIERS = {0: 16, 1: 11, 2: 8}


def _semifinal(ctx):
    """Semifinal tables from the standings: the final has `table_size` seats, `direct` of them go
    to the best players, one per semifinal to its winner. Qualifiers are dealt in snake order,
    so each semifinal gets one player from each band (quarter, with 4 semifinals of 4)."""
    k, n = ctx.request.table_size, ctx.n
    direct = ctx.request.direct
    if direct is None:
        direct = 0 if n >= 32 else 1
    semis = k - direct
    if direct < 0 or semis < 1:
        raise SeatingError(f"direct must be from 0 to {k - 1} with a final of {k}")
    qualifiers = ctx.request.qualifiers
    if qualifiers is None:
        qualifiers = SEMIFINAL_QUALIFIERS.get(direct, semis * k) if k == 4 else semis * k
    if not 3 * semis <= qualifiers <= 6 * semis:
        raise SeatingError(f"{qualifiers} qualifiers cannot fill {semis} semifinals of 3 to 6 players")
    if direct + qualifiers > n:
        raise SeatingError(f"{direct + qualifiers} players are needed, {n} present")
    order = ctx.ranked()
    seeded, qual = order[:direct], order[direct:direct + qualifiers]
    q, rem = divmod(qualifiers, semis)
    sizes = [q + 1] * rem + [q] * (semis - rem)
    tables = deal_snake(qual, sorted(sizes))
    return ctx.result(tables, direct=seeded, bye=order[direct + qualifiers:])


def _final(ctx):
    """The final table: `finalists` (e.g. semifinal winners and direct qualifiers) or the top of
    the standings; `finalina` adds a table of the next best."""
    k = ctx.request.table_size
    order = ctx.ranked()
    if ctx.request.finalists:
        for pid in ctx.request.finalists:
            if pid not in ctx.index:
                raise SeatingError(f"finalist {pid!r} is not among the players present")
        chosen = {ctx.index[pid] for pid in ctx.request.finalists}
        if not 3 <= len(chosen) <= 6:
            raise SeatingError("a final table has 3 to 6 players")
        final = [p for p in order if p in chosen]
    else:
        final = order[:k]
    rest = [p for p in order if p not in final]
    tables = [final]
    if ctx.request.finalina:
        if len(rest) < 3:
            raise SeatingError("too few players left for a finalina")
        tables.append(rest[:k])
        rest = rest[k:]
    return ctx.result(tables, bye=rest)

