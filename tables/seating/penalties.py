"""Penalties of a seating (SEATING.md section 3) and their weights.

1. two players of the same club at one table;
2. two players who already met (the k-th meeting of a pair costs (k-1)**2, so a third meeting is
   worse than two second ones);
3. a player sent again to a table of the non-preferred size (a 5-player table when 4 is preferred,
   or a 3- or 6-player table) while others have not been there yet;
4. two winners of the previous round at one table.
"""
from collections import Counter
from itertools import combinations

from .model import PRIORITIES, Penalties, SeatingError

# Each priority level outweighs the next by this factor: enough for the counts met in practice
# to keep the order of SEATING.md section 3 strict, small enough to keep integers short.
LEVEL = 1000


def weights(priorities=PRIORITIES):
    """Weight of one unit of each penalty kind, from the organiser's priority order."""
    order = list(dict.fromkeys(priorities))
    unknown = [p for p in order if p not in PRIORITIES]
    if unknown:
        raise SeatingError(f"unknown priority {unknown[0]!r}: use {', '.join(PRIORITIES)}")
    order += [p for p in PRIORITIES if p not in order]
    return {kind: LEVEL ** (len(order) - 1 - i) for i, kind in enumerate(order)}


def spread_pairs(k, tables):
    """Fewest pairs when k players are spread over `tables` tables."""
    q, rem = divmod(k, tables)
    return rem * (q + 1) * q // 2 + (tables - rem) * q * (q - 1) // 2


def forced_club_pairs(clubs, tables):
    """Clubs with more players than there are tables, as {club: (players, fewest pairs)}: those
    pairs no seating at `tables` tables can avoid (SEATING.md section 3.1). `clubs` holds each
    player's club (None for none)."""
    counts = Counter(c for c in clubs if c)
    return {club: (k, spread_pairs(k, tables)) for club, k in sorted(counts.items()) if k > tables}


def meeting_cost(k):
    """Cost of a pair's k-th meeting: the first is free, then 1, 4, 9..."""
    return (k - 1) ** 2 if k > 1 else 0


def pair_counts(history):
    """How often each pair met: Counter of (a, b) with a < b."""
    counts = Counter()
    for table in history:
        for a, b in combinations(sorted(set(table)), 2):
            counts[(a, b)] += 1
    return counts


def meetings_matrix(history):
    """How often each two players met at a table in `history`: m[a][b] == m[b][a]; pairs that
    never met are left out."""
    matrix = {}
    for (a, b), k in pair_counts(history).items():
        matrix.setdefault(a, {})[b] = k
        matrix.setdefault(b, {})[a] = k
    return matrix


def odd_counts(ids, history, fives, table_size):
    """Earlier seats of each player at tables of a size other than `table_size`: from `fives`
    when it names the player, counted in `history` otherwise."""
    counted = Counter()
    for table in history:
        if len(table) != table_size:
            counted.update(set(table))
    fives = fives or {}
    return {i: fives[i] if i in fives else counted[i] for i in ids}


def repeat_fives(tables, odd_before, table_size):
    """Players at an off-size table who had been at one more often than someone who now sits at
    a table of the preferred size: each could have been spared by a swap."""
    regular = [odd_before.get(p, 0) for t in tables if len(t) == table_size for p in t]
    if not regular:
        return 0
    least = min(regular)
    return sum(1 for t in tables if len(t) != table_size for p in t if odd_before.get(p, 0) > least)


def repeat_five_tables(tables, odd_before, table_size):
    """The off-size tables where `repeat_fives` counts at least one player: the figure in tables."""
    regular = [odd_before.get(p, 0) for t in tables if len(t) == table_size for p in t]
    if not regular:
        return 0
    least = min(regular)
    return sum(1 for t in tables if len(t) != table_size and any(odd_before.get(p, 0) > least for p in t))


def evaluate(tables, players, history=(), fives=None, *, table_size=4, winners=()):
    """Penalty figures of `tables` (lists of ids) given earlier rounds: what the organiser sees
    after a draw or a manual swap. `players` are Player objects (for their clubs)."""
    clubs = {p.id: p.club for p in players}
    counts = pair_counts(history)
    winners = set(winners)
    same_club = repeats = winner_pairs = 0
    max_meetings = max(counts.values(), default=0)
    for table in tables:
        for a, b in combinations(sorted(table), 2):
            if clubs.get(a) and clubs.get(a) == clubs.get(b):
                same_club += 1
            earlier = counts.get((a, b), 0)
            if earlier:
                repeats += 1
            max_meetings = max(max_meetings, earlier + 1)
            if a in winners and b in winners:
                winner_pairs += 1
    seated = [p for t in tables for p in t]
    odd_before = odd_counts(seated, history, fives, table_size)
    return Penalties(same_club_pairs=same_club, repeat_pairs=repeats, max_meetings=max_meetings,
                     repeat_fives=repeat_fives(tables, odd_before, table_size), winner_pairs=winner_pairs,
                     repeat_five_tables=repeat_five_tables(tables, odd_before, table_size))
