"""The seating methods of SEATING.md section 2, and `seat_round`, the one entry point.

The optimised methods (`random`, `seeded_top`) live here; the placements by rank, previous round
or plan in `placements.py`."""
from itertools import combinations

from . import como, designs, placements
from .context import Context
from .model import SeatingError
from .optimizer import frozen_rounds, greedy_round, search
from .schedule import add_round, tally
from .sizes import validate_sizes

# Rounds planned together are capped so that rounds x players stays near this (a 200-player
# tournament still plans 12 rounds).
HORIZON_SEATS = 2400
# Work spent polishing the round to publish when the plan leaves it some penalty.
POLISH_BUDGET = 200_000
# Embeddings of the history in a design weighed to keep club mates apart.
DESIGN_TRIES = 24


def seat_round(request):
    """Seat one round of `request` (a SeatingRequest) with its method; SeatingError if the request
    cannot be seated."""
    ctx = Context(request)
    handler = {"random": _random, "seeded_top": _seeded_top, "snake": placements.snake,
               "swiss": placements.swiss, "greek": placements.greek, "fixed": placements.fixed,
               "semifinal": placements.semifinal, "final": placements.final}[request.method]
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
    meetings, odd = tally(problem, start)
    while len(start) < R:
        rnd = greedy_round(problem, meetings, odd, rng, fixed=problem.fixed0 if not start else None)
        add_round(problem, rnd, meetings, odd)
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
