"""A schedule under search and what the search derives from it.

The search keeps, beside the rounds themselves, how often each pair has met (the history plus every
round planned) and how often each player sat at a table of the non-preferred size; `tally` builds
both, `Schedule.swap` keeps them up to date move by move."""


def add_round(problem, tables, meetings, odd):
    """Count one round (tables of player numbers) into `meetings` and `odd`."""
    for t, table in enumerate(tables):
        off_size = problem.odd_table[t]
        for i, p in enumerate(table):
            if off_size:
                odd[p] += 1
            for q in table[i + 1:]:
                meetings[p][q] += 1
                meetings[q][p] += 1


def tally(problem, rounds):
    """(meetings of every pair, seats at off-size tables of every player): the history's and
    those of `rounds`."""
    meetings = [row[:] for row in problem.base]
    odd = problem.odd_base[:]
    for tables in rounds:
        add_round(problem, tables, meetings, odd)
    return meetings, odd


class Schedule:
    """Rounds of tables of player numbers, each player's table in each round, and the tallies."""

    def __init__(self, problem, rounds):
        self.problem = problem
        self.rounds = [[list(t) for t in tables] for tables in rounds]
        self.meetings, self.odd = tally(problem, self.rounds)
        self.table_of = [[0] * problem.n for _ in self.rounds]
        for r, tables in enumerate(self.rounds):
            for t, table in enumerate(tables):
                for p in table:
                    self.table_of[r][p] = t

    def snapshot(self):
        return [[t[:] for t in tables] for tables in self.rounds]

    def swap(self, r, p, a, q, b):
        """Player p (at table a) and player q (at table b) change places in round r."""
        table_a, table_b = self.rounds[r][a], self.rounds[r][b]
        met = self.meetings
        for x in table_a:
            if x != p:
                _move_meeting(met, x, p, q)
        for y in table_b:
            if y != q:
                _move_meeting(met, y, q, p)
        table_a[table_a.index(p)] = q
        table_b[table_b.index(q)] = p
        self.table_of[r][p], self.table_of[r][q] = b, a
        off_a, off_b = self.problem.odd_table[a], self.problem.odd_table[b]
        if off_a != off_b:
            step = 1 if off_b else -1  # p goes to b, q to a
            self.odd[p] += step
            self.odd[q] -= step


def _move_meeting(met, x, gone, come):
    """x no longer sits with `gone` but with `come`."""
    met[gone][x] -= 1
    met[x][gone] -= 1
    met[come][x] += 1
    met[x][come] += 1
