"""Whole-schedule local search for seating rounds.

Seating a tournament so that players of one club stay apart and nobody meets anyone twice is the
social golfer problem (CSPLib 10): n players, tables of 4 or 5, R rounds, no pair together twice.
Seating one round at a time greedily paints itself into a corner: 16 players can play 5 rounds of
4 tables with no repeat (the affine plane of order 4), yet a round-by-round annealer is left with
about 8 repeats. So when several rounds are still to play (`rounds_left` > 1) they are planned
together:

1. a known zero-repeat design is used when the players and table sizes fit one: the affine planes
   AG(2, q) over GF(q) for q = 3, 4, 5, the 2-flats of AG(d, 2) for 2**d players, and resolvable
   schedules developed from base rounds under a cyclic group (`designs.py`; 32 players get 10
   rounds at tables of 4, the social golfer problem 8-4-10). The earlier
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
import time

from .moves import conflicts, exchange_costs, join_cost, leave_cost
from .schedule import Schedule, tally

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


def greedy_round(problem, meetings, odd, rng, fixed=None):
    """One round seated player by player (in random order) at the table with room where their
    club mates, meetings and off-size seats cost least: a starting point for the search."""
    fixed = fixed or [-1] * problem.n
    tables = [[] for _ in range(problem.T)]
    for p in range(problem.n):
        if fixed[p] >= 0:
            tables[fixed[p]].append(p)
    order = [p for p in range(problem.n) if fixed[p] < 0]
    rng.shuffle(order)
    for p in order:
        met, club = meetings[p], problem.C[p]
        best, choice = None, []
        for t, table in enumerate(tables):
            if len(table) >= problem.sizes[t]:
                continue
            cost = problem.FO[odd[p]] if problem.odd_table[t] else 0
            for x in table:
                cost += club[x] + problem.SQ[met[x]]
            if best is None or cost < best:
                best, choice = cost, [t]
            elif cost == best:
                choice.append(t)
        tables[rng.choice(choice)].append(p)
    return tables


def search(problem, start, rng, *, deadline, budget=WORK_BUDGET, frozen=()):
    """Tabu search from `start` (a list of rounds of tables of player numbers); rounds listed in
    `frozen` stay as they are.

    Returns (best schedule, its cost)."""
    state = Schedule(problem, start)
    current = problem.cost(state.rounds)
    best, best_rounds = current, state.snapshot()
    if problem.T < 2:
        return best_rounds, best
    bound = problem.lower_bound()
    tabu = Tabu(problem, len(start))
    work = step = stalled = 0
    while current > bound and work < budget:
        step += 1
        if time.perf_counter() > deadline:
            break
        r, movers, spent = _round_to_repair(problem, state, rng, frozen)
        work += spent
        if r is None:
            break
        if len(movers) > MAX_MOVERS:
            movers = rng.sample(movers, MAX_MOVERS)
        work += len(movers) * problem.n
        delta, moves = _best_swaps(problem, state, r, movers, tabu, step, aspire=best - current)
        if not moves:
            continue
        p, a, q, b = moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]
        state.swap(r, p, a, q, b)
        tabu.forbid(r, p, a, q, b, until=step + TENURE_MIN + rng.randrange(TENURE_SPAN + problem.n // 8))
        current += delta
        if current < best:
            best, best_rounds, stalled = current, state.snapshot(), 0
        else:
            stalled += 1
            if stalled >= STALL_STEPS:
                stalled = 0
                state = Schedule(problem, _perturb(problem, best_rounds, rng, frozen))
                current = problem.cost(state.rounds)
                tabu = Tabu(problem, len(start))
    return best_rounds, best


class Tabu:
    """Moves forbidden for a while: `until[r][p * T + t]` is the step from which player p may go
    back to table t in round r."""

    def __init__(self, problem, rounds):
        self.tables = problem.T
        self.until = [[0] * (problem.n * problem.T) for _ in range(rounds)]

    def forbid(self, r, p, a, q, b, *, until):
        """p just left table a and q table b: neither goes back before `until`."""
        self.until[r][p * self.tables + a] = until
        self.until[r][q * self.tables + b] = until


def _round_to_repair(problem, state, rng, frozen):
    """A round with conflicts, starting from a random one; costly conflicts (club, repeat, leaving
    a draft table) come before the cheap ones (seats at off-size tables, winners together).
    Returns (round, its conflicting players, work spent), round None when all is clean."""
    rounds = len(state.rounds)
    first = rng.randrange(rounds)
    spent, soft = 0, None
    for k in range(rounds):
        r = (first + k) % rounds
        if r in frozen:
            continue
        hard, cheap = conflicts(problem, r, state.rounds[r], state.meetings, state.odd)
        spent += problem.n
        if hard:
            return r, hard, spent
        if cheap and soft is None:
            soft = (r, cheap)
    if soft is None:
        return None, [], spent
    return soft[0], soft[1], spent


def _best_swaps(problem, state, r, movers, tabu, step, *, aspire):
    """The cheapest swaps of a mover with a player at another table of round r: (their cost
    change, [(p, table of p, q, table of q), ...]). Tabu swaps count only when they would beat
    the best schedule (`aspire`: its cost minus the current one)."""
    best_delta, moves = None, []
    forbidden = tabu.until[r]
    tables = problem.T
    for p in movers:
        a = state.table_of[r][p]
        leave_p = leave_cost(problem, state, r, p)
        for b in range(tables):
            if b == a:
                continue
            join_p = join_cost(problem, state, r, p, b)
            p_tabu = forbidden[p * tables + b] > step
            for q, delta in exchange_costs(problem, state, r, p, a, b, join_p, leave_p):
                if (p_tabu or forbidden[q * tables + a] > step) and delta >= aspire:
                    continue
                if best_delta is None or delta < best_delta:
                    best_delta, moves = delta, [(p, a, q, b)]
                elif delta == best_delta:
                    moves.append((p, a, q, b))
    return best_delta, moves


def frozen_rounds(problem, rounds):
    """Rounds (of a zero-repeat design) without any conflict among themselves and the history:
    kept as they are, so that the next call finds them in its history and continues the design."""
    meetings, odd = tally(problem, rounds)
    return {r for r, tables in enumerate(rounds) if not any(conflicts(problem, r, tables, meetings, odd))}


def _perturb(problem, rounds, rng, frozen):
    """A copy of `rounds` with a few random swaps in random rounds (pinned players stay)."""
    rounds = [[t[:] for t in tables] for tables in rounds]
    free = [r for r in range(len(rounds)) if r not in frozen]
    if problem.T > 1 and free:
        for _ in range(max(2, int(problem.n * PERTURB))):
            r = rng.choice(free)
            a, b = rng.sample(range(problem.T), 2)
            i, j = rng.randrange(len(rounds[r][a])), rng.randrange(len(rounds[r][b]))
            p, q = rounds[r][a][i], rounds[r][b][j]
            if r == 0 and (problem.fixed0[p] >= 0 or problem.fixed0[q] >= 0):
                continue
            rounds[r][a][i], rounds[r][b][j] = q, p
    return rounds
