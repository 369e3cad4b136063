"""Table sizes for the players present (SEATING.md section 1; seeds 000 and 004)."""
from dataclasses import dataclass

from scoring.phases import MAX_TABLE, MIN_TABLE, PREFERRED_SIZES
from scoring.phases import table_sizes as rule_sizes

from .model import SeatingError


@dataclass(frozen=True)
class SizePlan:
    sizes: tuple[int, ...]
    # True when tables of 4 and 5 alone cannot seat everyone and 3- or 6-player tables are used
    # (the Como correctives then apply, seed 000 rule 5).
    fallback: bool = False
    message: str | None = None


def table_sizes(n, prefer=4, override=None):
    """Sizes of the tables for `n` players, larger tables first: the one rule of SEATING.md
    section 1 (`scoring.phases.table_sizes`, also used by the knockout stages), with the note the
    organiser sees when tables of 3 or 6 are needed. `override` is the organiser's own list,
    checked and kept in its order."""
    if n < MIN_TABLE:
        raise SeatingError(f"at least {MIN_TABLE} players are needed, {n} present", code="too_few_players", n=n)
    if override is not None:
        return SizePlan(tuple(validate_sizes(n, override)))
    if prefer not in PREFERRED_SIZES:
        raise SeatingError(f"the preferred table size must be 4 or 5, not {prefer}")
    sizes = tuple(rule_sizes(n, prefer))
    odd = sorted({s for s in sizes if s not in PREFERRED_SIZES})
    if not odd:
        return SizePlan(sizes)
    kinds = " and ".join(f"{s}-player" for s in odd)
    return SizePlan(sizes, True,
                    f"{n} players cannot all sit at tables of 4 and 5: {kinds} tables are used "
                    f"({'+'.join(map(str, sizes))})")


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
