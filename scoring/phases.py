"""Plans of multi-phase tournaments: table sizes, knockout stages, phase tables, knockout order.

Pure helpers for the formats of seed 004 ("Formule per un Torneo Ufficiale", "eliminazione
diretta") and seed 003 (Firenze knockout). The web application turns their plain results into
rounds; nothing here touches a database.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Hashable, NamedTuple, Sequence

from .errors import InvalidParams
from .placement import id_key

MIN_TABLE, MAX_TABLE = 3, 6
PREFERRED_SIZES = (4, 5)  # the official sizes; 3 and 6 only when these cannot seat everyone


def table_sizes(players: int, preferred: int = 4) -> list[int]:
    """SEATING.md section 1: prefer 4: as many tables of 4 as possible, the rest of 5 (13 = 5+4+4);
    prefer 5: as many tables of 5 as possible, the rest of 4 (14 = 5+5+4). When neither works
    (6, 7, 11...), tables of 3 or 6 as close as possible to the preferred size. Largest first."""
    if not isinstance(players, int) or players < MIN_TABLE:
        raise InvalidParams(f"a table needs at least {MIN_TABLE} players", field="players")
    if preferred not in PREFERRED_SIZES:
        raise InvalidParams("the preferred table size is 4 or 5", field="preferred")
    other = 9 - preferred  # 5 when 4 is preferred, 4 when 5 is
    for count_other in range(players // other + 1):
        rest = players - other * count_other
        if rest % preferred == 0:
            sizes = [preferred] * (rest // preferred) + [other] * count_other
            return sorted(sizes, reverse=True)
    lowest, highest = math.ceil(players / MAX_TABLE), players // MIN_TABLE
    tables = min(range(lowest, highest + 1), key=lambda t: (abs(players / t - preferred), t))
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


# Winners that cannot go on: 2 make no final table, 7 or 8 cannot sit at 3 tables of 3 or more.
DEAD_ENDS = frozenset({2, 7, 8})


def knockout_table_sizes(players: int, preferred: int = 4, offset: int = 0) -> list[int]:
    """Table sizes of one knockout game: the usual `table_sizes`, unless their number of winners (plus
    `offset` players already through, e.g. the first game's winners beside a second chance) would be
    2, 7 or 8; then the nearest workable number of tables, preferring tables of 4 and 5."""
    sizes = table_sizes(players, preferred)
    if players <= MAX_TABLE or len(sizes) + offset not in DEAD_ENDS:
        return sizes
    options = [t for t in range(math.ceil(players / MAX_TABLE), players // MIN_TABLE + 1)
               if t + offset not in DEAD_ENDS]
    if not options:
        return sizes

    def cost(tables):
        base, extra = divmod(players, tables)
        official = {base, base + 1} if extra else {base}
        return (not official <= set(PREFERRED_SIZES), abs(players / tables - preferred), tables)

    tables = min(options, key=cost)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def deal(players: Sequence[Hashable], sizes: Sequence[int]) -> list[list]:
    """Cut `players` (already in the wanted order) into tables of `sizes`."""
    if sum(sizes) != len(players):
        raise InvalidParams(f"the sizes add up to {sum(sizes)}, not {len(players)}", field="sizes")
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start:start + size]))
        start += size
    return tables


def draw_tables(players: Sequence[Hashable], preferred: int = 4, seed: int = 0, offset: int = 0) -> list[list]:
    """Seed 003: the tables of a knockout stage are drawn, and the draw is not changed afterwards.
    The same players and seed give the same tables."""
    ordered = sorted(players, key=id_key)
    random.Random(seed).shuffle(ordered)
    return deal(ordered, knockout_table_sizes(len(ordered), preferred, offset))


@dataclass(frozen=True)
class Stage:
    """One game of a knockout tournament: `players` play at `tables` tables, one winner each."""
    kind: str      # "knockout", "second_chance", "semifinal" or "final"
    players: int
    tables: int


def knockout_stages(players: int, preferred: int = 4, second_chance: bool = False) -> list[Stage]:
    """Seed 004, "eliminazione diretta": without second chance (64-125 players: 16-25 tables, 4-5
    semifinals, a final of 4-5) and with second chance (37-69 players: the losers of the first
    game play a second one, the winners of both go to the semifinals). Stages repeat while more
    than 6 players are left; the last one before the final is the semifinal. Table counts that would
    leave 2, 7 or 8 winners are avoided (`knockout_table_sizes`)."""
    if not isinstance(players, int) or players < MIN_TABLE:
        raise InvalidParams(f"a knockout needs at least {MIN_TABLE} players", field="players")
    if players <= MAX_TABLE:
        return [Stage("final", players, 1)]
    first = len(knockout_table_sizes(players, preferred))
    stages = [Stage("knockout", players, first)]
    advancing = first
    if second_chance:
        losers = players - first
        if losers >= MIN_TABLE:
            again = len(knockout_table_sizes(losers, preferred, offset=first))
            stages.append(Stage("second_chance", losers, again))
            advancing += again
    while advancing > MAX_TABLE:
        tables = len(knockout_table_sizes(advancing, preferred))
        stages.append(Stage("knockout", advancing, tables))
        advancing = tables
    if advancing < MIN_TABLE:
        raise InvalidParams(f"with {players} players the knockout ends with {advancing} winners: a final "
                            f"needs {MIN_TABLE} to {MAX_TABLE}", field="players",
                            context={"players": players, "advancing": advancing})
    last = stages[-1]
    if len(stages) > 1 and last.kind == "knockout":
        stages[-1] = Stage("semifinal", last.players, last.tables)
    stages.append(Stage("final", advancing, 1))
    return stages


class Ranked(NamedTuple):
    """A player and a comparable rank: equal ranks share a position in `final_classification`."""
    player: Hashable
    rank: tuple


def knockout_order(stages: Sequence[Sequence], finalists: Sequence[Hashable] = ()) -> list[Ranked]:
    """The players who did not reach the final, best first: knocked out later ranks higher, then the
    place at the table where they were knocked out (seconds before thirds); equal stage and place
    share the position (Interpretation: the seeds rank only the final table).

    stages: the games (scoring.Game) of each knockout game played, earliest first.
    """
    placed = set(finalists)
    out: list[Ranked] = []
    total = len(stages)
    for index, games in enumerate(reversed(stages)):
        group = []
        for game in games:
            for seat in game.placement.seats:
                if seat.player not in placed:
                    group.append((seat.rank, seat.player))
        for place, player in sorted(group, key=lambda item: (item[0], id_key(item[1]))):
            if player in placed:
                continue
            placed.add(player)
            out.append(Ranked(player, (total - index, -place)))
    # Ranks compare "higher is better"; final_classification only needs equality between neighbours.
    return out


def semifinal_tables(order: Sequence[Hashable], plan) -> tuple[list, list[list]]:
    """Apply a scoring.standings.SemifinalPlan to the qualifying order (players, best first):
    (players seeded straight to the final, the semifinal tables)."""
    needed = max([*plan.seeded_to_final, *(p for table in plan.semifinals for p in table)])
    if len(order) < needed:
        raise InvalidParams(f"the plan needs {needed} players, the standings have {len(order)}",
                            field="players", context={"needed": needed})
    seeded = [order[p - 1] for p in plan.seeded_to_final]
    tables = [[order[p - 1] for p in table] for table in plan.semifinals]
    return seeded, tables
