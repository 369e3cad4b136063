"""Methods that place players by rank, by the previous round or by a plan (SEATING.md section 2):
snake, swiss, greek, fixed, and the semifinal and final tables (SCORING.md section 6)."""
from itertools import combinations

from .model import SeatingError
from .sizes import validate_sizes


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


def snake(ctx):
    sizes = ctx.sizes()
    ctx.check_pins(sizes)
    tables = deal_snake(ctx.ranked(), sizes)
    return ctx.result(_relabel_for_pins(ctx, _improve_ties(ctx, tables)))


def swiss(ctx):
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


def greek(ctx):
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


def fixed(ctx):
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


def semifinal(ctx):
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


def final(ctx):
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

