"""Late arrivals and drop-outs before a round is published: seat who is present now, changing the
draft least (seed 003: a draw, once made, is not changed more than needed)."""
from .context import Context
from .methods import optimise
from .model import SeatingError


def reseat(request, draft):
    """Tables for the players of `request`, as close as possible to `draft` (the unpublished tables,
    lists of ids). Players keep their draft table where they can: moving one weighs just below the
    first penalty priority; newcomers take the free seats where they cost least."""
    ctx = Context(request)
    sizes = ctx.sizes()
    ctx.check_pins(sizes)
    seen = set()
    for table in draft:
        for pid in table:
            if pid in seen:
                raise SeatingError(f"the draft seats {pid!r} twice", code="draft_twice", player=pid)
            seen.add(pid)
    kept = [[ctx.index[pid] for pid in t if pid in ctx.index] for t in draft]
    T = len(sizes)
    # The draft tables that survive are those keeping most players. They keep their number when it
    # still exists; a survivor numbered beyond the new count takes a number left free.
    survivors = sorted(sorted(range(len(kept)), key=lambda j: -len(kept[j]))[:T])
    slot = {j: j for j in survivors if j < T}
    free = [t for t in range(T) if t not in slot.values()]
    for j in survivors:
        if j not in slot:
            slot[j] = free.pop(0)
    # Larger tables go where more draft players remain; new tables take the sizes left.
    ordered = sorted(sizes, reverse=True)
    new_sizes = [0] * T
    for rank, j in enumerate(sorted(survivors, key=lambda j: -len(kept[j]))):
        new_sizes[slot[j]] = ordered[rank]
    for t, size in zip(free, ordered[len(survivors):]):
        new_sizes[t] = size
    anchor = [-1] * ctx.n
    tables = [[] for _ in range(T)]
    for j, players in enumerate(kept):
        for p in players:
            # Players whose draft table is gone move anyway: no table can be theirs.
            anchor[p] = slot.get(j, T)
    pinned = [ctx.pinned.get(p, -1) for p in range(ctx.n)]
    pool = []
    for p in range(ctx.n):
        if pinned[p] >= 0:
            tables[pinned[p]].append(p)
    for p in range(ctx.n):
        if pinned[p] >= 0:
            continue
        t = anchor[p]
        if 0 <= t < T and len(tables[t]) < new_sizes[t]:
            tables[t].append(p)
        else:
            pool.append(p)
    for p in pool:
        t = next(t for t in range(T) if len(tables[t]) < new_sizes[t])
        tables[t].append(p)
    result = optimise(ctx, new_sizes, fixed0=pinned, anchor=anchor, start0=tables, rounds_left=1)
    return ctx.result([sorted(t) for t in result])
