"""What one move of the search costs: two players of one round change tables.

`swap_delta` is the change of `Problem.cost` that a swap makes, computed from the tallies of a
`Schedule` without recounting the schedule; the search calls its parts (`leave_cost`, `join_cost`,
`exchange_costs`) to weigh at once every partner at a table."""


def conflicts(problem, r, tables, meetings, odd):
    """Players of round r who sit somewhere costly and may move: (costly, cheap). Costly: a club
    mate or a repeat at the table, or (first round) away from the draft table; cheap: a repeated
    seat at an off-size table, or (first round) two previous winners together."""
    first = r == 0
    clubs, fixed, anchor, winners = problem.C, problem.fixed0, problem.anchor, problem.winners
    hard, cheap = [], []
    for t, table in enumerate(tables):
        off_size = problem.odd_table[t]
        for p in table:
            if first and fixed[p] >= 0:
                continue
            met, club = meetings[p], clubs[p]
            for x in table:
                if x != p and (met[x] >= 2 or club[x]):
                    hard.append(p)
                    break
            else:
                if first and anchor[p] >= 0 and anchor[p] != t:
                    hard.append(p)
                elif off_size and odd[p] >= 2:
                    cheap.append(p)
                elif first and winners[p] and sum(1 for x in table if winners[x]) > 1:
                    cheap.append(p)
    return hard, cheap


def leave_cost(problem, state, r, p):
    """What p's pairs at its table cost now (club mates and meetings)."""
    met, club, sq = state.meetings[p], problem.C[p], problem.SQ
    cost = 0
    for x in state.rounds[r][state.table_of[r][p]]:
        if x != p:
            cost += club[x] + sq[met[x] - 1]
    return cost


def join_cost(problem, state, r, p, b):
    """What p's pairs with everyone at table b would cost."""
    met, club, sq = state.meetings[p], problem.C[p], problem.SQ
    cost = 0
    for y in state.rounds[r][b]:
        cost += club[y] + sq[met[y]]
    return cost


def exchange_costs(problem, state, r, p, a, b, join_p, leave_p):
    """[(q, cost change), ...] for each player q at table b of round r who may swap with p (at
    table a), given p's `join_cost` at b and `leave_cost`."""
    meetings, clubs, sq, odd, fo = state.meetings, problem.C, problem.SQ, state.odd, problem.FO
    tables = state.rounds[r]
    others_a = [x for x in tables[a] if x != p]
    table_b = tables[b]
    # The k-th seat at an off-size table costs FO[k-1]: when only one of the two tables is
    # off-size, one such seat passes from p to q or back.
    off_a, off_b = problem.odd_table[a], problem.odd_table[b]
    first_round = r == 0 and problem.first_round_terms
    met_p, club_p = meetings[p], clubs[p]
    out = []
    for q in table_b:
        if r == 0 and problem.fixed0[q] >= 0:
            continue
        met_q, club_q = meetings[q], clubs[q]
        delta = join_p - club_p[q] - sq[met_p[q]] - leave_p
        for x in others_a:
            delta += club_q[x] + sq[met_q[x]]
        for y in table_b:
            if y != q:
                delta -= club_q[y] + sq[met_q[y] - 1]
        if off_a != off_b:
            delta += fo[odd[q]] - fo[odd[p] - 1] if off_a else fo[odd[p]] - fo[odd[q] - 1]
        if first_round:
            delta += _first_round_delta(problem, tables, p, a, q, b)
        out.append((q, delta))
    return out


def swap_delta(problem, state, r, p, q):
    """Cost change when p and q, at different tables of round r, swap."""
    a, b = state.table_of[r][p], state.table_of[r][q]
    costs = dict(exchange_costs(problem, state, r, p, a, b, join_cost(problem, state, r, p, b),
                                leave_cost(problem, state, r, p)))
    return costs[q]


def _first_round_delta(problem, tables, p, a, q, b):
    """Previous winners together and players off their draft table count in the first round only."""
    winners, delta = problem.winners, 0
    if winners[p] != winners[q]:
        at_a = sum(1 for x in tables[a] if winners[x])
        at_b = sum(1 for y in tables[b] if winners[y])
        delta += problem.ww * (at_b - at_a + 1) if winners[p] else problem.ww * (at_a - at_b + 1)
    anchor_p, anchor_q = problem.anchor[p], problem.anchor[q]
    if anchor_p >= 0:
        delta += problem.wa * ((anchor_p != b) - (anchor_p != a))
    if anchor_q >= 0:
        delta += problem.wa * ((anchor_q != a) - (anchor_q != b))
    return delta
