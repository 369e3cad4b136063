"""Whole-schedule local search for seating rounds.

Seating a tournament so that players of one club stay apart and nobody meets anyone twice is the
social golfer problem (CSPLib 10): n players, tables of 4 or 5, R rounds, no pair together twice.
Seating one round at a time greedily paints itself into a corner: 16 players can play 5 rounds of
4 tables with no repeat (the affine plane of order 4), yet a round-by-round annealer is left with
about 8 repeats. So when several rounds are still to play (`rounds_left` > 1) they are planned
together:

1. a known zero-repeat design is used when the players and table sizes fit one: the affine planes
   AG(2, q) over GF(q) for q = 3, 4, 5, the 2-flats of AG(d, 2) for 2**d players, and resolvable
   schedules developed from one base round under a cyclic group (`designs.py`). The earlier
   rounds of the tournament are embedded in the design, so each call re-derives a consistent
   continuation from the history alone, whatever the seed; design rounds free of conflicts are
   kept as they are;
2. the remaining schedule is improved (or built from a greedy start when no design fits) by a tabu
   search in the style of Dotu and Van Hentenryck's social golfer solver: a move swaps two players
   of one round; the players considered are those in conflict (same club, a repeat meeting, an
   unfair seat at a 5-player table, two previous winners together), costly conflicts first; the
   cost of a swap is computed incrementally from a pair-meetings matrix covering the history and
   every planned round (the k-th meeting of a pair costs (k-1)**2); a player just moved may not
   move back for a few steps; a stalled search restarts from its best schedule, perturbed; the
   search stops at a lower bound (counting bound on fresh pairs, club sizes, a water-filling bound
   on 5-player seats) or when its work budget is spent;
3. the caller publishes one planned round; when the plan leaves it repeats or club mates the
   history alone would not force, that round is polished on its own. The next call plans again.
With one round left, the same search runs on that round alone.

The search is driven by a seeded random generator and a budget of work, so a seed gives the same
seating on any machine; the time limit only cuts the search short on a slow machine.
"""
import heapq
import time

from .penalties import spread_pairs

# Work of one search, in swaps weighed (about a microsecond each in CPython): the search stops
# there, or at a cost no schedule can beat, so that a seed gives the same result on any machine.
WORK_BUDGET = 400_000
# Steps without a new best before restarting from the best schedule, perturbed.
STALL_STEPS = 400
# Conflicting players whose swaps are weighed in one step.
MAX_MOVERS = 6
# A moved player may not return for TENURE_MIN + a random share of TENURE_SPAN + n/8 steps.
TENURE_MIN, TENURE_SPAN = 2, 3
# Share of the players swapped at random when a stalled search restarts.
PERTURB = 0.125


class Problem:
    """One seating problem over `rounds` rounds: players are 0..n-1, every round has `sizes`.

    `base[p][q]` counts earlier meetings, `club` gives a club number or None, `odd_base` earlier
    seats at off-size tables; the first round also knows the previous winners, players pinned to
    a table (`fixed0[p]` = table or -1) and, when re-seating a draft, each player's draft table
    (`anchor[p]`)."""

    def __init__(self, n, sizes, rounds, *, club, base, odd_table, odd_base, weight,
                 winners=None, fixed0=None, anchor=None):
        self.n, self.sizes, self.rounds = n, list(sizes), rounds
        self.T = len(self.sizes)
        self.base = base
        self.odd_table = list(odd_table)
        self.odd_base = list(odd_base)
        self.winners = list(winners) if winners else [False] * n
        self.fixed0 = list(fixed0) if fixed0 else [-1] * n
        self.anchor = list(anchor) if anchor else [-1] * n
        self.club = list(club)
        self.wc, self.wr = weight["club"], weight["repeat"]
        self.wf, self.ww = weight["fives"], weight["winners"]
        # Moving a player off their draft table weighs just below the first priority.
        self.wa = max(weight.values()) // 10 or 1
        wc = self.wc
        self.C = [[wc if (club[p] is not None and club[p] == club[q] and p != q) else 0 for q in range(n)]
                  for p in range(n)]
        top = max((max(row) for row in base), default=0) + rounds + 2
        self.SQ = [self.wr * m * m for m in range(top)]
        self.FO = [self.wf * c * c for c in range(max(self.odd_base, default=0) + rounds + 2)]

    # -- figures of a whole schedule -------------------------------------------------------
    def cost(self, schedule):
        """Total cost of `schedule` (a list of rounds, each a list of tables of player numbers)."""
        M = [row[:] for row in self.base]
        oddc = self.odd_base[:]
        total = 0
        for r, tables in enumerate(schedule):
            for t, table in enumerate(tables):
                for i, p in enumerate(table):
                    if self.odd_table[t]:
                        total += self.FO[oddc[p]]
                        oddc[p] += 1
                    if r == 0:
                        if self.anchor[p] >= 0 and self.anchor[p] != t:
                            total += self.wa
                    for q in table[i + 1:]:
                        total += self.C[p][q] + self.SQ[M[p][q]]
                        M[p][q] += 1
                        M[q][p] += 1
                        if r == 0 and self.winners[p] and self.winners[q]:
                            total += self.ww
        return total

    def lower_bound(self):
        """A cost no schedule can beat: a search reaching it stops."""
        n, R, sizes, T = self.n, self.rounds, self.sizes, self.T
        slots = R * sum(s * (s - 1) // 2 for s in sizes)
        fresh = sum(1 for p in range(n) for q in range(p + 1, n) if not self.base[p][q] and not self.C[p][q])
        pair_bound = max(0, slots - fresh) * min(self.wc, self.wr)
        clubs = {}
        for c in self.club:
            if c is not None:
                clubs[c] = clubs.get(c, 0) + 1
        club_bound = R * self.wc * sum(spread_pairs(k, T) for k in clubs.values())
        bound = max(pair_bound, club_bound)
        bound += self.ww * spread_pairs(sum(self.winners), T)
        odd_seats = sum(s for s, odd in zip(sizes, self.odd_table) if odd)
        if odd_seats and self.wf:
            # Separable convex costs: handing out the seats one by one to the cheapest player
            # is optimal, and every such split can be arranged into rounds.
            heap = [(self.FO[c], p, c, 0) for p, c in enumerate(self.odd_base)]
            heapq.heapify(heap)
            for _ in range(R * odd_seats):
                cost, p, c, used = heapq.heappop(heap)
                bound += cost
                if used + 1 < R:
                    heapq.heappush(heap, (self.FO[c + 1], p, c + 1, used + 1))
        return bound


def greedy_round(problem, M, oddc, rng, fixed=None):
    """One round seated player by player at the cheapest table with room: a starting point."""
    n, T, sizes = problem.n, problem.T, problem.sizes
    C, SQ, FO, odd = problem.C, problem.SQ, problem.FO, problem.odd_table
    tables = [[] for _ in range(T)]
    fixed = fixed or [-1] * n
    for p in range(n):
        if fixed[p] >= 0:
            tables[fixed[p]].append(p)
    order = [p for p in range(n) if fixed[p] < 0]
    rng.shuffle(order)
    for p in order:
        Mp, Cp = M[p], C[p]
        best, choice = None, []
        for t in range(T):
            if len(tables[t]) >= sizes[t]:
                continue
            c = FO[oddc[p]] if odd[t] else 0
            for x in tables[t]:
                c += Cp[x] + SQ[Mp[x]]
            if best is None or c < best:
                best, choice = c, [t]
            elif c == best:
                choice.append(t)
        tables[rng.choice(choice)].append(p)
    return tables


def search(problem, start, rng, *, deadline, budget=WORK_BUDGET, frozen=()):
    """Tabu search from `start` (a list of rounds of tables of player numbers); rounds listed in
    `frozen` stay as they are.

    Returns (best schedule, its cost)."""
    n, T, R = problem.n, problem.T, len(start)
    C, SQ, FO = problem.C, problem.SQ, problem.FO
    odd_table, fixed0, anchor, winners = problem.odd_table, problem.fixed0, problem.anchor, problem.winners
    wa, ww = problem.wa, problem.ww
    mem = [[list(t) for t in rnd] for rnd in start]
    tab = [[0] * n for _ in range(R)]
    M = [row[:] for row in problem.base]
    oddc = problem.odd_base[:]
    for r in range(R):
        for t, table in enumerate(mem[r]):
            for p in table:
                tab[r][p] = t
                if odd_table[t]:
                    oddc[p] += 1
            for i, p in enumerate(table):
                for q in table[i + 1:]:
                    M[p][q] += 1
                    M[q][p] += 1
    cur = problem.cost(mem)
    best, best_mem = cur, [[t[:] for t in rnd] for rnd in mem]
    if T < 2:
        return best_mem, best
    lb = problem.lower_bound()
    tabu = [[0] * (n * T) for _ in range(R)]
    work = it = since_best = 0
    movable0 = [fixed0[p] < 0 for p in range(n)]
    while cur > lb and work < budget:
        it += 1
        if time.perf_counter() > deadline:
            break
        # A round with conflicts, starting from a random one; costly conflicts (club, repeat,
        # leaving a draft table) come before the cheap ones (seats at 5-player tables, winners).
        r0 = rng.randrange(R)
        confl = soft = None
        for k in range(R):
            r = (r0 + k) % R
            if r in frozen:
                continue
            hard, cheap = _conflicts(problem, r, mem[r], M, oddc)
            work += n
            if hard:
                confl = hard
                break
            if cheap and soft is None:
                soft = (r, cheap)
        if confl is None:
            if soft is None:
                break
            r, confl = soft
        memr, tabr, tabur = mem[r], tab[r], tabu[r]
        best_d, moves = None, []
        aspire = best - cur
        if len(confl) > MAX_MOVERS:
            confl = rng.sample(confl, MAX_MOVERS)
        work += len(confl) * n
        for p in confl:
            A = tabr[p]
            memA = memr[A]
            othersA = [x for x in memA if x != p]
            Mp, Cp = M[p], C[p]
            leave_p = 0
            for x in othersA:
                leave_p += Cp[x] + SQ[Mp[x] - 1]
            oddA = odd_table[A]
            if r == 0:
                winA = sum(1 for x in memA if winners[x])
            for B in range(T):
                if B == A:
                    continue
                memB = memr[B]
                join_p = 0
                for y in memB:
                    join_p += Cp[y] + SQ[Mp[y]]
                oddB = odd_table[B]
                tabu_p = tabur[p * T + B] > it
                if r == 0:
                    winB = sum(1 for y in memB if winners[y])
                for q in memB:
                    if r == 0 and not movable0[q]:
                        continue
                    Mq, Cq = M[q], C[q]
                    d = join_p - Cp[q] - SQ[Mp[q]] - leave_p
                    for x in othersA:
                        d += Cq[x] + SQ[Mq[x]]
                    for y in memB:
                        if y != q:
                            d -= Cq[y] + SQ[Mq[y] - 1]
                    if oddA != oddB:
                        if oddA:
                            d += FO[oddc[q]] - FO[oddc[p] - 1]
                        else:
                            d += FO[oddc[p]] - FO[oddc[q] - 1]
                    if r == 0:
                        if winners[p] != winners[q]:
                            d += ww * (winB - winA + 1) if winners[p] else ww * (winA - winB + 1)
                        ap, aq = anchor[p], anchor[q]
                        if ap >= 0:
                            d += wa * ((ap != B) - (ap != A))
                        if aq >= 0:
                            d += wa * ((aq != A) - (aq != B))
                    if (tabu_p or tabur[q * T + A] > it) and d >= aspire:
                        continue
                    if best_d is None or d < best_d:
                        best_d, moves = d, [(p, A, q, B)]
                    elif d == best_d:
                        moves.append((p, A, q, B))
        if not moves:
            continue
        p, A, q, B = moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]
        _swap(problem, memr, tabr, M, oddc, p, A, q, B)
        tenure = TENURE_MIN + rng.randrange(TENURE_SPAN + n // 8)
        tabur[p * T + A] = it + tenure
        tabur[q * T + B] = it + tenure
        cur += best_d
        if cur < best:
            best, since_best = cur, 0
            best_mem = [[t[:] for t in rnd] for rnd in mem]
        else:
            since_best += 1
            if since_best >= STALL_STEPS:
                since_best = 0
                mem = [[t[:] for t in rnd] for rnd in best_mem]
                mem, tab, M, oddc = _perturb(problem, mem, rng, frozen)
                cur = problem.cost(mem)
                tabu = [[0] * (n * T) for _ in range(R)]
    return best_mem, best


def frozen_rounds(problem, rounds):
    """Rounds (of a zero-repeat design) without any conflict among themselves and the history:
    kept as they are, so that the next call finds them in its history and continues the design."""
    M = [row[:] for row in problem.base]
    oddc = problem.odd_base[:]
    for tables in rounds:
        for t, table in enumerate(tables):
            for i, p in enumerate(table):
                if problem.odd_table[t]:
                    oddc[p] += 1
                for q in table[i + 1:]:
                    M[p][q] += 1
                    M[q][p] += 1
    return {r for r, tables in enumerate(rounds) if not any(_conflicts(problem, r, tables, M, oddc))}


def _conflicts(problem, r, tables, M, oddc):
    """Players of round r who sit somewhere costly and may move: (costly, cheap)."""
    C, odd_table, fixed0 = problem.C, problem.odd_table, problem.fixed0
    hard, cheap = [], []
    for t, table in enumerate(tables):
        odd = odd_table[t]
        for p in table:
            if r == 0 and fixed0[p] >= 0:
                continue
            Mp, Cp = M[p], C[p]
            for x in table:
                if x != p and (Mp[x] >= 2 or Cp[x]):
                    hard.append(p)
                    break
            else:
                if r == 0 and problem.anchor[p] >= 0 and problem.anchor[p] != t:
                    hard.append(p)
                elif odd and oddc[p] >= 2:
                    cheap.append(p)
                elif r == 0 and problem.winners[p] and sum(1 for x in table if problem.winners[x]) > 1:
                    cheap.append(p)
    return hard, cheap


def _swap(problem, memr, tabr, M, oddc, p, A, q, B):
    memA, memB = memr[A], memr[B]
    Mp, Mq = M[p], M[q]
    for x in memA:
        if x != p:
            Mp[x] -= 1
            M[x][p] -= 1
            Mq[x] += 1
            M[x][q] += 1
    for y in memB:
        if y != q:
            Mq[y] -= 1
            M[y][q] -= 1
            Mp[y] += 1
            M[y][p] += 1
    memA[memA.index(p)] = q
    memB[memB.index(q)] = p
    tabr[p], tabr[q] = B, A
    if problem.odd_table[A] != problem.odd_table[B]:
        if problem.odd_table[A]:
            oddc[p] -= 1
            oddc[q] += 1
        else:
            oddc[p] += 1
            oddc[q] -= 1


def _perturb(problem, mem, rng, frozen):
    """A few random swaps in random rounds, then the derived state rebuilt."""
    n, T, R = problem.n, problem.T, len(mem)
    free = [r for r in range(R) if r not in frozen]
    if T > 1 and free:
        for _ in range(max(2, int(n * PERTURB))):
            r = rng.choice(free)
            A, B = rng.sample(range(T), 2)
            i, j = rng.randrange(len(mem[r][A])), rng.randrange(len(mem[r][B]))
            p, q = mem[r][A][i], mem[r][B][j]
            if r == 0 and (problem.fixed0[p] >= 0 or problem.fixed0[q] >= 0):
                continue
            mem[r][A][i], mem[r][B][j] = q, p
    tab = [[0] * n for _ in range(R)]
    M = [row[:] for row in problem.base]
    oddc = problem.odd_base[:]
    for r in range(R):
        for t, table in enumerate(mem[r]):
            for p in table:
                tab[r][p] = t
                if problem.odd_table[t]:
                    oddc[p] += 1
            for i, p in enumerate(table):
                for q in table[i + 1:]:
                    M[p][q] += 1
                    M[q][p] += 1
    return mem, tab, M, oddc
