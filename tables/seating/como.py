"""Como's tables (seed 000, rule 4): "I tavoli sono di preferenza a 5 giocatori. Se ci sono almeno
9 giocatori presenti, il tavolo 1 è formato dai primi 5 giocatori della classifica del torneo in quel
momento."

Table 1 is exactly the current top five whatever the other tables become: the other players are
seated at the sizes of SEATING.md section 1 with the organiser's preferred size (11 present: 5+6
preferring 5, 5+3+3 preferring 4; 12: 5+4+3; 16: 5+6+5 or 5+4+4+3). The Como correctives of rule 5
then apply to the tables of 3, 4 and 6."""
from scoring.phases import PREFERRED_SIZES

from .model import SeatingError
from .sizes import SizePlan, table_sizes

TOP_TABLE = 5
MIN_PRESENT = 9


def top_table_applies(n):
    """Rule 4 puts the top five at table 1 from 9 players present."""
    return n >= MIN_PRESENT


def como_sizes(n, prefer=5):
    """The table sizes with table 1 of the top five, then the others larger first."""
    if not top_table_applies(n):
        raise SeatingError(f"table 1 of the top {TOP_TABLE} needs at least {MIN_PRESENT} players, {n} present",
                           code="como_too_few", n=n)
    rest = table_sizes(n - TOP_TABLE, prefer)
    sizes = (TOP_TABLE,) + rest.sizes
    if not rest.fallback:
        return SizePlan(sizes)
    odd = sorted({s for s in rest.sizes if s not in PREFERRED_SIZES})
    kinds = " and ".join(f"{s}-player" for s in odd)
    return SizePlan(sizes, True, f"{n} players with the top {TOP_TABLE} at table 1: {kinds} tables are used "
                                 f"({'+'.join(map(str, sizes))})")


def check_override(n, sizes):
    """The organiser's sizes for a Como draw keep table 1 at five."""
    if top_table_applies(n) and sizes[0] != TOP_TABLE:
        raise SeatingError(f"table 1 is the top {TOP_TABLE}: its size must be {TOP_TABLE}, not {sizes[0]}",
                           code="como_top_size", size=sizes[0])
