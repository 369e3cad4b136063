"""Who qualifies for the final and the semifinals, with repêchage (SCORING.md section 12).

Pure Python: the web application and `python -m scoring qualify` call `qualify()` alike.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from .errors import InvalidDocument


@dataclass(frozen=True)
class QualifyRules:
    """`direct` straight to the final; ranks `semifinal` = (a, b) to the semifinals (None: none);
    `repechage_seats` more semifinal seats by best single game among players with at least
    `min_games` games."""
    direct: int = 0
    semifinal: tuple[int, int] | None = None
    repechage_seats: int = 0
    min_games: int = 1
    # SCORING.md 13.8: the semifinal range (2, b') when a sole unbeaten leader goes straight to the
    # final (`direct_if_unbeaten`); None: no such condition.
    unbeaten_semifinal: tuple[int, int] | None = None

    @property
    def semifinal_seats(self) -> int:
        return 0 if self.semifinal is None else self.semifinal[1] - self.semifinal[0] + 1


@dataclass(frozen=True)
class Candidate:
    """One standings row: rank, player id, game points of every round played (in round order),
    games won (SCORING.md 13.8)."""
    rank: int
    player: object
    games: tuple[Decimal, ...] = ()
    present: bool = True
    wins: int = 0


@dataclass(frozen=True)
class Qualification:
    final: list = field(default_factory=list)
    semifinal: list = field(default_factory=list)
    repechage: list = field(default_factory=list)
    absent: list = field(default_factory=list)
    order: list = field(default_factory=list)  # every candidate's id in candidate order
    direct_if_unbeaten: bool | None = None  # whether 13.8's condition held; None without the option


def _games_key(games) -> tuple:
    """Best game first, then second best...; when one list runs out first the longer one wins."""
    return tuple((0, -g) for g in sorted(games, reverse=True)) + ((1,),)


def decided_by(ahead, behind) -> int | None:
    """Which game put `ahead` before `behind`, both lists of game points, under the order of
    `_games_key`: k for their k-th best game (1 = the best), 0 when `ahead` has more games and
    every game they share is equal, None when they are equal in every game (then the standings
    position or the id decides)."""
    a, b = sorted(ahead, reverse=True), sorted(behind, reverse=True)
    for k, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return k
    return 0 if len(a) != len(b) else None


def candidate_order(candidates: list[Candidate]) -> list[Candidate]:
    """Standings order; a shared rank by best single game, second best, ..., then by id."""
    return sorted(candidates, key=lambda c: (c.rank, _games_key(c.games), c.player))


def check_rules(rules: QualifyRules) -> None:
    """Raise InvalidDocument when the settings break section 12."""
    for name, value in (("direct", rules.direct), ("repechage seats", rules.repechage_seats),
                        ("repechage min_games", rules.min_games)):
        if value < 0:
            raise InvalidDocument(f"{name} must not be negative (got {value})", code="negative",
                                  field="qualify")
    if rules.semifinal is not None:
        a, b = rules.semifinal
        if a != rules.direct + 1:
            raise InvalidDocument(f"the semifinal range must start at rank {rules.direct + 1} "
                                  f"(direct + 1), not {a}", code="range_start", field="semifinal")
        if b < a:
            raise InvalidDocument(f"the semifinal range ends at {b}, before its start {a}",
                                  code="range_end", field="semifinal")
    if rules.unbeaten_semifinal is not None:
        if rules.direct != 0:
            raise InvalidDocument("direct_if_unbeaten needs direct 0 (the leader goes to the final only "
                                  f"when unbeaten), not {rules.direct}", code="unbeaten_direct",
                                  field="direct_if_unbeaten")
        a, b = rules.unbeaten_semifinal
        if a != 2 or b < 2:
            raise InvalidDocument(f"direct_if_unbeaten: the semifinal range must be [2, b] with b of at "
                                  f"least 2, not [{a}, {b}]", code="unbeaten_range",
                                  field="direct_if_unbeaten")


def check_candidates(candidates: list[Candidate]) -> None:
    """Raise InvalidDocument on a player twice, a negative game or ranks not a competition ranking."""
    seen = set()
    for c in candidates:
        if c.player in seen:
            raise InvalidDocument("listed twice", code="duplicate", player=c.player)
        seen.add(c.player)
        for g in c.games:
            if g < 0:
                raise InvalidDocument(f"game points must not be negative (got {g})", code="negative",
                                      player=c.player, field="games")
        if not _whole(c.wins) or not 0 <= c.wins <= len(c.games):
            raise InvalidDocument(f"wins must be a whole number from 0 to the number of games "
                                  f"({len(c.games)})", code="wins", player=c.player, field="wins")
    previous = None
    for position, c in enumerate(sorted(candidates, key=lambda c: c.rank), 1):
        if c.rank != position and c.rank != previous:
            raise InvalidDocument(f"rank {c.rank} at place {position}: the ranks are not a "
                                  "competition ranking (1, 2, 2, 4, ...)", code="ranking",
                                  player=c.player, field="rank")
        previous = c.rank


def sole_unbeaten_leader(candidates: list[Candidate]) -> bool:
    """SCORING.md 13.8 (Master rules: "un solo giocatore ... da solo in testa alla classifica, ed abbia
    comunque vinto entrambe le partite"): exactly one row has rank 1, that player is present, and
    with R the longest list of games of any row (R >= 1) the player played R games and won R.

    Interpretation (13.8.5): "da solo in testa" means the only row ranked 1 (the standings' own
    tie-breaks already decided who is alone), where the club's program compares totals strictly."""
    leaders = [c for c in candidates if c.rank == 1]
    if len(leaders) != 1 or not leaders[0].present:
        return False
    played = max(len(c.games) for c in candidates)
    leader = leaders[0]
    return played >= 1 and len(leader.games) == played and leader.wins == played


def unbeaten_rules(rules: QualifyRules) -> QualifyRules:
    """The plan of SCORING.md 13.8 once its condition holds: the 1st straight to the final, the
    semifinals of ranks 2..b' (the repêchage unchanged)."""
    return QualifyRules(direct=1, semifinal=rules.unbeaten_semifinal, repechage_seats=rules.repechage_seats,
                        min_games=rules.min_games)


def qualify(rules: QualifyRules, candidates: list[Candidate]) -> Qualification:
    """Section 12: direct finalists, semifinalists, repêchage, absent players skipped; with 13.8's
    `direct_if_unbeaten`, a sole unbeaten leader straight to the final and the semifinals of ranks
    2..b' (otherwise the base plan)."""
    check_rules(rules)
    check_candidates(candidates)
    unbeaten = None
    if rules.unbeaten_semifinal is not None:
        unbeaten = sole_unbeaten_leader(candidates)
        if unbeaten:
            rules = unbeaten_rules(rules)
    order = candidate_order(candidates)
    final, semifinal, absent = [], [], []
    wanted = rules.direct + rules.semifinal_seats
    for c in order:
        if len(final) + len(semifinal) >= wanted:
            break
        if not c.present:
            absent.append(c.player)
        elif len(final) < rules.direct:
            final.append(c.player)
        else:
            semifinal.append(c.player)
    taken = set(final) | set(semifinal)
    position = {c.player: i for i, c in enumerate(order)}
    eligible = [c for c in order if c.present and c.player not in taken
                and len(c.games) >= rules.min_games]
    eligible.sort(key=lambda c: (_games_key(c.games), position[c.player]))
    repechage = [c.player for c in eligible[:rules.repechage_seats]]
    return Qualification(final=final, semifinal=semifinal, repechage=repechage, absent=absent,
                         order=[c.player for c in order], direct_if_unbeaten=unbeaten)


# --- the JSON contract of `python -m scoring qualify` -------------------------------------------

def _whole(value) -> bool:
    return isinstance(value, int) and type(value) is not bool


def _number(value) -> bool:
    return isinstance(value, (int, Decimal)) and type(value) is not bool


def _count(obj: dict, key: str, default: int, where: str) -> int:
    value = obj.get(key, default)
    if value is None:
        return default
    if not _whole(value):
        raise InvalidDocument(f"{where}{key} must be a whole number", code="shape", field=key)
    return value


def parse_qualify_document(doc) -> tuple[QualifyRules, list[Candidate]]:
    """Validate an input document of section 12; returns (rules, candidates)."""
    if not isinstance(doc, dict):
        raise InvalidDocument("the input must be a JSON object", code="shape")
    raw = doc.get("qualify")
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InvalidDocument("qualify must be an object", code="shape", field="qualify")
    direct = _count(raw, "direct", 0, "")
    semifinal = raw.get("semifinal")
    if semifinal is not None:
        if not (isinstance(semifinal, list) and len(semifinal) == 2 and all(map(_whole, semifinal))):
            raise InvalidDocument("semifinal must be a list of two whole numbers [a, b]", code="shape",
                                  field="semifinal")
        semifinal = (semifinal[0], semifinal[1])
    rep = raw.get("repechage")
    if rep is None:
        rep = {}
    if not isinstance(rep, dict):
        raise InvalidDocument("repechage must be an object", code="shape", field="repechage")
    unbeaten = raw.get("direct_if_unbeaten")
    if unbeaten is not None:
        range_ = unbeaten.get("semifinal") if isinstance(unbeaten, dict) else None
        if not (isinstance(range_, list) and len(range_) == 2 and all(map(_whole, range_))):
            raise InvalidDocument("direct_if_unbeaten must be an object {\"semifinal\": [2, b]}", code="shape",
                                  field="direct_if_unbeaten")
        unbeaten = (range_[0], range_[1])
    rules = QualifyRules(direct=direct, semifinal=semifinal,
                         repechage_seats=_count(rep, "seats", 0, "repechage "),
                         min_games=_count(rep, "min_games", 1, "repechage "), unbeaten_semifinal=unbeaten)
    check_rules(rules)

    rows = doc.get("standings")
    if not isinstance(rows, list):
        raise InvalidDocument("standings must be a list", code="shape", field="standings")
    candidates, id_types = [], set()
    for i, row in enumerate(rows, 1):
        where = f"standings row {i}"
        if not isinstance(row, dict):
            raise InvalidDocument("must be an object", code="shape", location=where)
        pid = row.get("player")
        if not ((isinstance(pid, str) and pid) or _whole(pid)):
            raise InvalidDocument("player must be a non-empty string or a whole number", code="shape",
                                  location=where, field="player")
        id_types.add(type(pid))
        rank = row.get("rank")
        if not _whole(rank) or rank < 1:
            raise InvalidDocument("rank must be a whole number of at least 1", code="shape",
                                  player=pid, field="rank")
        games = row.get("games", [])
        if not isinstance(games, list) or not all(map(_number, games)):
            raise InvalidDocument("games must be a list of numbers", code="shape", player=pid,
                                  field="games")
        present = row.get("present", True)
        if present is None:
            present = True
        if not isinstance(present, bool):
            raise InvalidDocument("present must be true or false", code="shape", player=pid,
                                  field="present")
        wins = row.get("wins", 0)
        if wins is None:
            wins = 0
        if not _whole(wins):
            raise InvalidDocument("wins must be a whole number", code="shape", player=pid, field="wins")
        candidates.append(Candidate(rank=rank, player=pid,
                                    games=tuple(Decimal(g) for g in games), present=present, wins=wins))
    if len(id_types) > 1:
        raise InvalidDocument("player ids must be all strings or all whole numbers", code="shape",
                              field="player")
    check_candidates(candidates)
    return rules, candidates


def qualification_to_json(result: Qualification) -> dict:
    out = {"final": list(result.final), "semifinal": list(result.semifinal),
           "repechage": list(result.repechage), "absent": list(result.absent)}
    if result.direct_if_unbeaten is not None:
        out["direct_if_unbeaten"] = result.direct_if_unbeaten
    return out


# --- composed formats: settings by number of participants, semifinal tables ---------------------

@dataclass(frozen=True)
class Tier:
    """The rules that apply up to `up_to` participants (None: any number)."""
    up_to: int | None
    rules: QualifyRules


def composition_tiers(composition: dict) -> list[Tier]:
    """The tiers of a composed format's settings as the organiser saves them ({"tiers": [{"up_to",
    "direct", "semifinal", "repechage": {"seats", "min_games"}}], "final_size": n})."""
    tiers = []
    for t in composition.get("tiers", []):
        rep = t.get("repechage") or {}
        semifinal = tuple(t["semifinal"]) if t.get("semifinal") else None
        # SCORING.md 13.8 (the Master): {"direct_if_unbeaten": {"semifinal": [2, b']}} beside the base plan.
        unbeaten = (t.get("direct_if_unbeaten") or {}).get("semifinal")
        tiers.append(Tier(t.get("up_to"), QualifyRules(direct=t.get("direct", 0), semifinal=semifinal,
                                                       repechage_seats=rep.get("seats", 0),
                                                       min_games=rep.get("min_games", 1),
                                                       unbeaten_semifinal=tuple(unbeaten) if unbeaten else None)))
    return tiers


def rules_for(tiers, participants: int) -> QualifyRules:
    """The first tier whose `up_to` is at least `participants` (the last one otherwise)."""
    if not tiers:
        return QualifyRules()
    for tier in tiers:
        if tier.up_to is None or participants <= tier.up_to:
            return tier.rules
    return tiers[-1].rules


def semifinal_table_count(rules: QualifyRules, final_size: int) -> int:
    """One finalist per semifinal table: the final's seats left after the direct finalists."""
    return max(final_size - rules.direct, 0)


def semifinal_sizes(seats: int, tables: int) -> list[int]:
    """Seats spread over tables as evenly as possible, larger tables first (11 over 3: 4, 4, 3)."""
    if tables <= 0:
        return []
    base, extra = divmod(seats, tables)
    return [base + (1 if i < extra else 0) for i in range(tables)]


def semifinal_seating(players: list, tables: int) -> list[list]:
    """Players (semifinalists in candidate order, then the repêchage) spread over the tables in a
    snake, 1..T, T..1, ..., so that each table gets one player of each band."""
    out = [[] for _ in range(tables)]
    for i, player in enumerate(players):
        row, col = divmod(i, tables)
        out[col if row % 2 == 0 else tables - 1 - col].append(player)
    return [t for t in out if t]


def check_composition(tiers, final_size: int, table_size_range=(3, 6)) -> None:
    """Raise InvalidDocument when a tier cannot make a final of `final_size` with one finalist per
    semifinal table of 3 to 6 players."""
    low, high = table_size_range
    if not tiers:
        raise InvalidDocument("no qualification rules", code="empty", field="qualify")
    plans = []
    for tier in tiers:
        check_rules(tier.rules)
        plans.append(tier.rules)
        if tier.rules.unbeaten_semifinal is not None:
            plans.append(unbeaten_rules(tier.rules))  # 13.8: the plan with the leader straight to the final
    for rules in plans:
        if rules.semifinal is None:
            if rules.direct + rules.repechage_seats != final_size:
                raise InvalidDocument(
                    f"without semifinals the final of {final_size} takes the direct finalists and the "
                    f"repêchage: {rules.direct} + {rules.repechage_seats} is not {final_size}",
                    code="final_seats", field="direct", context={"size": final_size})
            continue
        tables = semifinal_table_count(rules, final_size)
        seats = rules.semifinal_seats + rules.repechage_seats
        if tables < 1:
            raise InvalidDocument(f"{rules.direct} direct finalists fill the final of {final_size}: "
                                  "no seat is left for a semifinal winner", code="no_semifinal_seat",
                                  field="direct", context={"size": final_size})
        if not tables * low <= seats <= tables * high:
            raise InvalidDocument(
                f"{seats} semifinal seats cannot make {tables} tables of {low} to {high} players "
                "(one finalist per table)", code="semifinal_tables", field="semifinal",
                context={"seats": seats, "tables": tables})
