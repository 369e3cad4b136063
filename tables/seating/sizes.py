"""Table sizes for the players present (SEATING.md section 1; seeds 000 and 004)."""
from dataclasses import dataclass
from itertools import product

from .model import SeatingError

MIN_TABLE, MAX_TABLE = 3, 6


@dataclass(frozen=True)
class SizePlan:
    sizes: tuple[int, ...]
    # True when tables of 4 and 5 alone cannot seat everyone and 3- or 6-player tables are used
    # (the Como correctives then apply, seed 000 rule 5).
    fallback: bool = False
    message: str | None = None


def table_sizes(n, prefer=4, override=None):
    """Sizes of the tables for `n` players, larger tables first.

    prefer 4: as many tables of 4 as possible, the rest of 5 (13 = 5+4+4, 18 = 5+5+4+4);
    prefer 5: as many tables of 5 as possible, the rest of 4 (13 = 5+4+4, 14 = 5+5+4).
    When neither works (3, 6, 7 and 11 players) 3- or 6-player tables are used and the plan says so.
    `override` is the organiser's own list, checked and kept in its order."""
    if n < MIN_TABLE:
        raise SeatingError(f"at least {MIN_TABLE} players are needed, {n} present", code="too_few_players", n=n)
    if override is not None:
        return SizePlan(tuple(validate_sizes(n, override)))
    if prefer not in (4, 5):
        raise SeatingError(f"the preferred table size must be 4 or 5, not {prefer}")
    if prefer == 4:
        fives = n % 4  # each table of 5 absorbs one player beyond a multiple of 4
        fours = (n - 5 * fives) // 4
    else:
        fours = (4 * n) % 5  # 4 * fours = n (mod 5), and 4 is its own inverse mod 5
        fives = (n - 4 * fours) // 5
    if fours >= 0 and fives >= 0 and 4 * fours + 5 * fives == n:
        return SizePlan((5,) * fives + (4,) * fours)
    sizes = _fallback(n, prefer)
    odd = sorted({s for s in sizes if s not in (4, 5)})
    kinds = " and ".join(f"{s}-player" for s in odd)
    return SizePlan(sizes, True,
                    f"{n} players cannot all sit at tables of 4 and 5: {kinds} tables are used "
                    f"({'+'.join(map(str, sizes))})")


def _fallback(n, prefer):
    # Few players only (the rules above fail for 3, 6, 7 and 11): try every mix of 3..6 and keep
    # the one closest to the preferred size, then with fewest tables of 3 or 6.
    best = None
    for counts in product(range(n // 3 + 1), repeat=4):
        if sum(c * s for c, s in zip(counts, (3, 4, 5, 6))) != n:
            continue
        sizes = tuple(s for s, c in zip((6, 5, 4, 3), counts[::-1]) for _ in range(c))
        key = (sum(abs(s - prefer) for s in sizes), counts[0] + counts[3])
        if best is None or key < best[0]:
            best = (key, sizes)
    return best[1]


def validate_sizes(n, sizes):
    """The organiser's list of sizes, checked against the `n` players present."""
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise SeatingError("sizes must be a non-empty list of table sizes")
    for s in sizes:
        if isinstance(s, bool) or not isinstance(s, int) or not MIN_TABLE <= s <= MAX_TABLE:
            raise SeatingError(f"every table size must be a whole number from {MIN_TABLE} to {MAX_TABLE}",
                               code="size_range")
    if sum(sizes) != n:
        raise SeatingError(f"the table sizes add up to {sum(sizes)} seats for {n} players present",
                           code="sizes_sum", seats=sum(sizes), n=n)
    return list(sizes)
