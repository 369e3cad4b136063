"""A seating problem for the search: players 0..n-1, the tables of each round, the history and
the weights of SEATING.md section 3, with the cost of a whole schedule and a bound no schedule beats."""
import heapq

from .penalties import spread_pairs


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
        # Whether the first round has costs of its own (winners together, players off their draft table).
        self.first_round_terms = any(self.winners) or any(t >= 0 for t in self.anchor)
        self.club = list(club)
        self.wc, self.wr = weight["club"], weight["repeat"]
        self.wf, self.ww = weight["fives"], weight["winners"]
        # Moving a player off their draft table weighs just below the first priority.
        self.wa = max(weight.values()) // 10 or 1
        # Price tables: C[p][q] is the club weight when p and q are club mates, SQ[m] the cost of a
        # pair's (m+1)-th meeting ((k-1)**2 for the k-th), FO[c] that of a (c+1)-th off-size seat.
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
