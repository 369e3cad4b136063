"""Known zero-repeat schedules (resolvable designs) and how to continue one from the history.

A schedule of R rounds in which no two players meet twice is a set of R parallel classes of a
resolvable packing. The constructions used:

- the affine plane AG(2, q) over the field GF(q), q = 3, 4, 5: q*q players, q + 1 rounds of q tables
  of q; every pair meets exactly once (16 players x 5 rounds at 4, 25 x 6 at 5);
- the 2-flats of AG(d, 2): 2**d players at tables of 4, one round per 2-dimensional subspace of a
  partial spread (32 players get 9 rounds this way, 64 players 21);
- schedules developed from one base round under the cyclic group Z_R: players are R copies of m
  orbits plus f fixed players, and round t adds t to every orbit position. If the pairs of the
  base round fall into distinct pair orbits, no pair ever repeats. Base rounds for small tournaments
  are listed in `CYCLIC_BASE_ROUNDS`; they were found by a local search over base rounds, and the
  tests check each of them;
- schedules developed from several base rounds, each invariant under a subgroup of Z_R and so
  developed only R / (order of that subgroup) times (`MIXED_BASE_ROUNDS`). 32 players x 10 rounds at
  tables of 4 (the social golfer problem 8-4-10): Z_8 on 4 orbits of 8, two base rounds invariant
  under +4 developed 4 times each, the round of the cosets of {0, 2, 4, 6} in each orbit and the
  round of the transversals {(x, 0), (x, 1), (x, 2), (x, 3)}; the only pairs that never meet are
  (x, orbit 0)-(x + 4, orbit 1) and (x, orbit 2)-(x + 4, orbit 3). Found by an exact-cover search
  over the Z_8-invariant rounds and the base rounds that complete them.

To continue a tournament the earlier rounds are embedded in a design (a backtracking search maps
players to points so that each earlier round is a parallel class); the unused classes are the
remaining rounds. Each call re-derives the same kind of continuation from the history alone.
"""
import json
from itertools import combinations

# (players, table size) -> (rounds R, orbits m, fixed players f, base round). In a base round,
# a negative number -a is fixed player a; a number v is position v % R of orbit v // R.
CYCLIC_BASE_ROUNDS = {
    (16, 4): (5, 3, 1, "[6,-1,12,0],[7,5,10,14],[4,8,9,1],[13,2,11,3]"),
    (20, 4): (5, 4, 0, "[13,5,15,17],[14,12,2,8],[4,16,1,10],[0,9,7,18],[6,19,11,3]"),
    (24, 4): (7, 3, 3, "[15,6,9,-3],[2,11,13,7],[5,0,20,1],[16,18,8,19],[-1,3,17,10],[12,14,-2,4]"),
    (28, 4): (9, 3, 1, "[10,18,6,9],[12,4,3,1],[20,-1,14,7],[22,23,8,26],[13,24,11,17],[21,19,2,16],"
                       "[5,15,0,25]"),
    (32, 4): (9, 3, 5, "[2,10,-3,26],[13,14,19,17],[20,8,11,-2],[7,6,16,3],[25,-5,15,0],[4,9,22,-1],"
                       "[12,24,-4,5],[21,23,1,18]"),
    (36, 4): (11, 3, 3, "[15,19,20,24],[-3,28,6,17],[11,-2,9,23],[22,10,14,2],[1,5,7,31],[18,-1,8,25],"
                        "[21,3,12,4],[29,0,32,27],[30,26,16,13]"),
    (40, 4): (11, 3, 7, "[26,2,-7,18],[7,16,32,-4],[3,15,-2,25],[23,8,14,-5],[5,4,1,24],[31,29,28,17],"
                        "[19,0,11,21],[22,20,-3,6],[12,27,-1,10],[13,30,9,-6]"),
    (44, 4): (12, 3, 8, "[32,7,24,25],[5,23,26,-2],[33,13,-6,9],[22,-1,11,27],[8,21,35,-5],[15,-7,28,6],"
                        "[20,29,17,19],[-8,34,16,2],[3,10,1,18],[30,-3,4,14],[12,31,0,-4]"),
    (48, 4): (12, 4, 0, "[10,16,15,34],[22,19,42,47],[33,13,11,6],[25,29,14,26],[39,2,35,0],[7,37,24,20],"
                        "[44,27,36,8],[18,23,3,28],[38,32,4,30],[43,41,17,31],[1,45,12,46],[40,9,21,5]"),
    (30, 5): (6, 5, 0, "[17,22,24,1,15],[28,12,26,11,0],[16,3,27,20,7],[14,23,5,6,8],[21,9,13,19,25],"
                       "[18,2,4,29,10]"),
    (35, 5): (7, 4, 7, "[-1,26,0,12,14],[10,18,21,-2,1],[22,9,20,5,-6],[-7,23,15,8,2],[3,-4,13,25,19],"
                       "[4,27,-3,16,11],[17,-5,24,6,7]"),
    (40, 5): (7, 5, 5, "[-3,8,24,28,5],[17,27,34,26,15],[1,20,33,19,4],[9,-2,22,2,16],[7,3,25,-5,30],"
                       "[21,-4,13,31,0],[12,10,14,18,29],[23,32,6,11,-1]"),
    (45, 5): (8, 5, 5, "[13,17,23,32,22],[27,30,36,35,3],[28,12,29,7,15],[-1,6,37,8,26],[21,33,-5,5,31],"
                       "[34,4,-2,11,18],[2,0,25,19,14],[-3,38,1,16,10],[39,24,-4,9,20]"),
    (50, 5): (9, 5, 5, "[31,5,29,32,40],[15,35,19,-2,38],[37,23,17,39,36],[25,27,22,7,21],[42,2,8,18,6],"
                       "[16,14,11,0,41],[-3,30,26,9,44],[-4,4,34,12,24],[43,10,-1,1,33],[28,3,-5,20,13]"),
}

# (players, table size) -> (group order R, orbits m, fixed players f, [(translates, base round), ...]).
# Each base round is developed `translates` times (t = 0 .. translates - 1): it is invariant under
# adding R / translates, so further translates repeat it. Numbers as in CYCLIC_BASE_ROUNDS.
MIXED_BASE_ROUNDS = {
    (32, 4): (8, 4, 0, [
        (4, "[0,3,9,20],[1,8,11,28],[2,23,25,30],[4,7,13,16],[5,12,15,24],[6,19,26,29],[10,17,22,31],"
            "[14,18,21,27]"),
        (4, "[0,1,19,30],[2,13,27,28],[3,8,17,18],[4,5,23,26],[6,9,24,31],[7,12,21,22],[10,11,16,29],"
            "[14,15,20,25]"),
        (1, "[0,2,4,6],[1,3,5,7],[8,10,12,14],[9,11,13,15],[16,18,20,22],[17,19,21,23],[24,26,28,30],"
            "[25,27,29,31]"),
        (1, "[0,8,16,24],[1,9,17,25],[2,10,18,26],[3,11,19,27],[4,12,20,28],[5,13,21,29],[6,14,22,30],"
            "[7,15,23,31]"),
    ]),
}


def gf(q):
    """Addition and multiplication tables of the field with q elements (q prime, or 4, 8, 9)."""
    primes = {2: None, 3: None, 5: None, 7: None}
    if q in primes:
        return ([[(a + b) % q for b in range(q)] for a in range(q)],
                [[(a * b) % q for b in range(q)] for a in range(q)])
    polys = {4: (2, 2, 0b111), 8: (2, 3, 0b1011), 9: (3, 2, None)}
    if q not in polys:
        raise ValueError(f"no field of order {q} here")
    p, deg, modulus = polys[q]
    # Elements are polynomials over GF(p) in base-p digits; GF(9) = GF(3)[x]/(x^2 + 1).
    def digits(a):
        return [(a // p ** i) % p for i in range(deg)]

    def number(ds):
        return sum(d * p ** i for i, d in enumerate(ds))

    def mul(a, b):
        da, db = digits(a), digits(b)
        prod = [0] * (2 * deg - 1)
        for i, x in enumerate(da):
            for j, y in enumerate(db):
                prod[i + j] = (prod[i + j] + x * y) % p
        mod = digits(modulus) + [1] if modulus is not None else [1, 0, 1]
        for i in range(len(prod) - 1, deg - 1, -1):
            c = prod[i]
            if c:
                for j in range(deg + 1):
                    prod[i - deg + j] = (prod[i - deg + j] - c * mod[j]) % p
        return number(prod[:deg])

    add = [[number([(x + y) % p for x, y in zip(digits(a), digits(b))]) for b in range(q)] for a in range(q)]
    return add, [[mul(a, b) for b in range(q)] for a in range(q)]


def affine_plane(q):
    """The q + 1 parallel classes of lines of AG(2, q); point (x, y) is number x * q + y."""
    add, mul = gf(q)
    classes = [[tuple(x * q + y for y in range(q)) for x in range(q)]]
    for m in range(q):
        classes.append([tuple(x * q + add[mul[m][x]][b] for x in range(q)) for b in range(q)])
    return classes


def binary_flats(d, want):
    """Up to `want` parallel classes of 2-flats of AG(d, 2) from a partial spread of planes."""
    n = 2 ** d
    # Each plane uses 3 of the n - 1 non-zero vectors; a depth-first search (few nodes for the
    # sizes met here) finds a longest partial spread up to `want` planes.
    target = min(want, (n - 1) // 3)
    best, spread, used = [], [], [False] * n
    nodes = 0

    def extend(a):
        nonlocal best, nodes
        nodes += 1
        if len(spread) > len(best):
            best = spread[:]
        if len(best) >= target or nodes > 20000:
            return
        while a < n and used[a]:
            a += 1
        if a >= n or len(spread) + (n - a) // 3 < len(best) + 1:
            return
        for b in range(a + 1, n):
            c = a ^ b
            if used[b] or used[c] or c < b:
                continue
            spread.append((a, b, c))
            used[a] = used[b] = used[c] = True
            extend(a + 1)
            used[a] = used[b] = used[c] = False
            spread.pop()
            if len(best) >= target:
                return
        extend(a + 1)  # leave a out of the spread

    extend(1)
    spread = best
    classes = []
    for a, b, c in spread:
        seen, blocks = set(), []
        for x in range(n):
            if x not in seen:
                block = (x, x ^ a, x ^ b, x ^ c)
                seen.update(block)
                blocks.append(tuple(sorted(block)))
        classes.append(blocks)
    return classes


def _develop(n, R, text, translates):
    """The first `translates` translates under Z_R of a base round (see CYCLIC_BASE_ROUNDS)."""
    base = json.loads(f"[{text}]")
    classes = []
    for t in range(translates):
        # Fixed players take the last numbers, n - 1 down to n - f.
        classes.append([tuple(sorted(n + v if v < 0 else (v // R) * R + (v % R + t) % R for v in block))
                        for block in base])
    return classes


def cyclic_design(n, k):
    """The schedule developed from the catalogued base round for n players at tables of k."""
    entry = CYCLIC_BASE_ROUNDS.get((n, k))
    if entry is None:
        return None
    R, m, f, text = entry
    return _develop(n, R, text, R)


def mixed_design(n, k):
    """The schedule developed from the catalogued base rounds of MIXED_BASE_ROUNDS, if any."""
    entry = MIXED_BASE_ROUNDS.get((n, k))
    if entry is None:
        return None
    R, m, f, bases = entry
    return [cl for translates, text in bases for cl in _develop(n, R, text, translates)]


def designs_for(n, k, want):
    """Zero-repeat designs for n players at tables of k, the one with most rounds first."""
    found = []
    for q in (3, 4, 5):
        if k == q and n == q * q:
            found.append(affine_plane(q))
    # Flats before the cyclic schedules: at equal length their unused pairs (4-cycles) let a
    # round beyond the design get by with fewer repeats (16 rather than 18 at 32 players).
    if k == 4 and n >= 16 and n & (n - 1) == 0:
        found.append(binary_flats(n.bit_length() - 1, want))
    for design in (mixed_design(n, k), cyclic_design(n, k)):
        if design:
            found.append(design)
    found.sort(key=len, reverse=True)
    return found


def is_zero_repeat(classes, n):
    """Every class splits 0..n-1 and no pair shares two blocks: the tests' check of a design."""
    seen = set()
    for cl in classes:
        if sorted(x for b in cl for x in b) != list(range(n)):
            return False
        for b in cl:
            for pair in combinations(sorted(b), 2):
                if pair in seen:
                    return False
                seen.add(pair)
    return True


def embed(classes, rounds, n, budget=20000, limit=1):
    """Map players 0..n-1 to points so that every earlier round (a list of tables of player
    numbers) is a parallel class of the design. Returns a list of up to `limit` such maps, each
    (point of each player, class of each earlier round); empty when there is none or the search
    runs out of budget."""
    pair_class = [[-1] * n for _ in range(n)]
    block_of = []
    for ci, cl in enumerate(classes):
        where = [None] * n
        for b in cl:
            for x in b:
                where[x] = b
            for x, y in combinations(b, 2):
                pair_class[x][y] = pair_class[y][x] = ci
        block_of.append(where)
    met = [[-1] * n for _ in range(n)]
    for h, rnd in enumerate(rounds):
        for table in rnd:
            for p, q in combinations(table, 2):
                if met[p][q] >= 0:
                    return []  # a repeat: not part of any zero-repeat design
                met[p][q] = met[q][p] = h
    if not rounds:
        return [(list(range(n)), [])]
    # Players in an order where each is tied to many placed before it: the search stays narrow.
    order, placed = [], [False] * n
    links = [0] * n
    for _ in range(n):
        p = max((p for p in range(n) if not placed[p]), key=lambda p: (links[p], -p))
        order.append(p)
        placed[p] = True
        for q in range(n):
            if met[p][q] >= 0:
                links[q] += 1
    pt = [-1] * n
    used_pt = [False] * n
    sigma = [-1] * len(rounds)
    owner = [-1] * len(classes)
    banned = [0] * len(classes)
    nodes = [0]
    found = []

    def place(i):
        nodes[0] += 1
        if nodes[0] > budget:
            raise _OutOfBudget
        if i == n:
            found.append((pt[:], sigma[:]))
            return len(found) >= limit
        p = order[i]
        cands = None
        for q in order[:i]:
            h = met[p][q]
            if h >= 0 and sigma[h] >= 0:
                cands = [x for x in block_of[sigma[h]][pt[q]] if x != pt[q]]
                break
        for x in cands if cands is not None else range(n):
            if used_pt[x]:
                continue
            undo_sigma, undo_ban, ok = [], [], True
            for q in order[:i]:
                c = pair_class[x][pt[q]]
                h = met[p][q]
                if h >= 0:
                    if c < 0:
                        ok = False
                    elif sigma[h] >= 0:
                        ok = sigma[h] == c
                    elif owner[c] >= 0 or banned[c]:
                        ok = False
                    else:
                        sigma[h], owner[c] = c, h
                        undo_sigma.append(h)
                elif c >= 0:
                    if owner[c] >= 0:
                        ok = False
                    else:
                        banned[c] += 1
                        undo_ban.append(c)
                if not ok:
                    break
            if ok:
                pt[p], used_pt[x] = x, True
                if place(i + 1):
                    return True
                pt[p], used_pt[x] = -1, False
            for h in undo_sigma:
                owner[sigma[h]] = -1
                sigma[h] = -1
            for c in undo_ban:
                banned[c] -= 1
        return False

    try:
        place(0)
    except _OutOfBudget:
        pass
    return found


class _OutOfBudget(Exception):
    pass


def design_rounds(n, k, history_rounds, rounds_left, limit=1):
    """Rounds continuing `history_rounds` (each a list of tables of player numbers, all n players
    at tables of k) without any repeat, from the first design that embeds them: a list of up to
    `rounds_left` rounds, or None. With `limit` > 1, a list of up to `limit` such continuations
    (one per embedding found), each with every round the design has left."""
    want = len(history_rounds) + rounds_left
    for classes in designs_for(n, k, want):
        if len(classes) <= len(history_rounds):
            continue
        found = embed(classes, history_rounds, n, limit=max(1, limit))
        if not found:
            continue
        continuations = []
        for pt, sigma in found:
            player_at = {x: p for p, x in enumerate(pt)}
            free = [c for i, c in enumerate(classes) if i not in set(sigma)]
            continuations.append([[[player_at[x] for x in block] for block in cl] for cl in free])
        if limit > 1:
            return continuations
        return continuations[0][:rounds_left]
    return None
