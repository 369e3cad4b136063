"""Season circuits: one ranking across tournaments (SCORING.md section 11).

Pure Python, no ORM. `score_circuit` takes the circuit's rule and each tournament's final order
and returns every tournament's circuit points and the circuit standings; `score_games_circuit` ranks
weighted game results instead (section 13.11, `basis: "games"`); `parse_circuit_document` and
`circuit_to_json` are the machine contract of `python -m scoring circuit`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from .errors import InvalidDocument
from .numeric import ONE, ZERO, HUNDRED, as_float, coerce_number, engine_context, shown

RULES = ("table", "participants", "scaled")
BASES = ("rank", "games")


@dataclass(frozen=True)
class CircuitRule:
    """The organiser's rule: `rule` is one of RULES; `table` and `participation` serve "table"."""
    rule: str
    table: tuple = ()
    participation: Decimal = ZERO
    best_of: int | None = None
    min_tournaments: int = 1


@dataclass(frozen=True)
class Entry:
    """One row of a tournament's final order."""
    rank: int
    player: object


@dataclass(frozen=True)
class CircuitTournament:
    id: object
    standings: tuple  # of Entry, in the tournament's order
    weight: Decimal = ONE


@dataclass(frozen=True)
class Score:
    """A player's circuit points from one tournament (exact), with the rank that earned them."""
    tournament: object
    points: Decimal
    rank: int
    participants: int
    counted: bool = False


@dataclass
class CircuitRow:
    player: object
    rank: int | None  # None when unranked (fewer than min_tournaments scores)
    total: Decimal
    counted: list  # exact counted scores, best first
    scores: list = field(default_factory=list)  # every Score, in tournament order
    played: int = 0
    wins: int = 0


@dataclass
class CircuitResult:
    points: list  # [(tournament id, {player: Decimal})] in input order
    standings: list  # ranked CircuitRow
    unranked: list  # CircuitRow without rank


def _err(message, code="circuit", **kw):
    return InvalidDocument(message, code=code, **kw)


def _number(value) -> bool:
    return isinstance(value, (int, Decimal, float)) and type(value) is not bool


def _whole(value) -> bool:
    return isinstance(value, int) and type(value) is not bool


def _player_id(value) -> bool:
    return (isinstance(value, str) and value != "") or _whole(value)


def validate_rule(rule: CircuitRule) -> CircuitRule:
    """Check a rule and return it with exact numbers; raises InvalidDocument."""
    if rule.rule not in RULES:
        raise _err(f"unknown rule {rule.rule!r}: expected one of {', '.join(RULES)}",
                   code="circuit_rule", field="rule")
    table = []
    for i, v in enumerate(rule.table or (), 1):
        v = coerce_number(v)
        if not _number(v) or not v.is_finite():
            raise _err(f"points table entry {i} is not a number", code="circuit_table", field="table")
        if v < 0:
            raise _err(f"points table entry {i} is negative", code="circuit_table", field="table")
        table.append(v)
    participation = coerce_number(rule.participation if rule.participation is not None else ZERO)
    if not _number(participation) or not participation.is_finite() or participation < 0:
        raise _err("participation must be a number of at least 0", code="circuit_participation",
                   field="participation")
    _check_counting(rule.best_of, rule.min_tournaments)
    return CircuitRule(rule.rule, tuple(table), participation, rule.best_of, rule.min_tournaments)


def _check_counting(best_of, min_tournaments) -> None:
    """How many scores count and how many make a player ranked: the same checks for both bases."""
    if best_of is not None and (not _whole(best_of) or best_of < 1):
        raise _err("best_of must be null or a whole number of at least 1", code="circuit_best_of",
                   field="best_of")
    if not _whole(min_tournaments) or min_tournaments < 1:
        raise _err("min_tournaments must be a whole number of at least 1",
                   code="circuit_min_tournaments", field="min_tournaments")


# The largest number a weight, a season's points or factors may be: far above any club's, small
# enough that their products and sums keep every digit the engine shows (40 significant digits).
MAX_NUMBER = 1_000_000


def _checked_weight(weight, where: str) -> Decimal:
    weight = coerce_number(ONE if weight is None else weight)
    if not _number(weight) or not weight.is_finite() or weight <= 0:
        raise _err("weight must be a number greater than 0", code="circuit_weight", field="weight",
                   location=where)
    if weight > MAX_NUMBER:
        raise _err(f"weight must be at most {MAX_NUMBER}", code="circuit_weight", field="weight", location=where)
    return weight


def _check_player(player, seen: set, where: str) -> None:
    """A player of one tournament: a valid id, listed once (`seen` gathers them)."""
    if not _player_id(player):
        raise _err("player must be a non-empty string or a whole number", code="shape",
                   field="player", location=where)
    if player in seen:
        raise _err(f"player {player} is listed twice", code="circuit_player_twice",
                   field="player", location=where)
    seen.add(player)


def _checked_tournaments(tournaments, check, players) -> list:
    """Every tournament through `check`, with ids valid and distinct and player ids (`players(t)`)
    all of one type."""
    checked, ids, id_types = [], set(), set()
    for t in tournaments:
        if not _player_id(t.id):
            raise _err("tournament id must be a non-empty string or a whole number", code="shape",
                       field="id")
        if t.id in ids:
            raise _err(f"two tournaments have the id {t.id}", code="circuit_tournament_twice",
                       field="id")
        ids.add(t.id)
        t = check(t)
        id_types.update(map(type, players(t)))
        checked.append(t)
    if len(id_types) > 1:
        raise _err("player ids must be all strings or all whole numbers", code="shape", field="player")
    return checked


def _ranked(rows, key, enough) -> tuple[list, list]:
    """Rows in order (by `key`, higher first; equal keys by player id) split into the ranked ones,
    numbered as a competition ranking among themselves, and those short of `enough(row)`."""
    ordered = sorted(rows, key=lambda r: r.player)
    ordered.sort(key=key, reverse=True)
    ranked = [r for r in ordered if enough(r)]
    unranked = [r for r in ordered if not enough(r)]
    previous = None
    for i, row in enumerate(ranked, 1):
        row.rank = previous.rank if previous is not None and key(previous) == key(row) else i
        previous = row
    return ranked, unranked


def validate_tournament(t: CircuitTournament) -> CircuitTournament:
    where = f"tournament {t.id}"
    weight = _checked_weight(t.weight, where)
    seen = set()
    for e in t.standings:
        _check_player(e.player, seen, where)
        if not _whole(e.rank):
            raise _err(f"player {e.player}: rank must be a whole number", code="shape", field="rank",
                       location=where)
    check_competition_ranking([e.rank for e in t.standings], where)
    return CircuitTournament(t.id, tuple(t.standings), weight)


def check_competition_ranking(ranks, where: str) -> None:
    """Ranks 1, 1, 3, ... as a final order gives them; raises InvalidDocument otherwise."""
    ranks = sorted(ranks)
    for i, r in enumerate(ranks):
        if r != i + 1 and not (i > 0 and r == ranks[i - 1]):
            raise _err(f"ranks {ranks} are not a competition ranking (1, 1, 3, ...)",
                       code="circuit_ranks", field="rank", location=where)


def _base_points(rule: CircuitRule, position: int, n: int) -> Decimal:
    if rule.rule == "table":
        return rule.table[position - 1] if position <= len(rule.table) else ZERO
    if rule.rule == "participants":
        return Decimal(n - position + 1)
    return HUNDRED * Decimal(n - position + 1) / Decimal(n)


def points_by_rank(rule: CircuitRule, ranks) -> dict:
    """{rank: exact points before the weight} of one final order (`ranks`, one per player): k players
    sharing rank r get the mean of the points of positions r .. r+k-1, `participation` added once."""
    n = len(ranks)
    tied = {}
    for r in ranks:
        tied[r] = tied.get(r, 0) + 1
    by_rank = {}
    for r, k in tied.items():
        mean = sum((_base_points(rule, p, n) for p in range(r, r + k)), ZERO) / Decimal(k)
        by_rank[r] = mean + rule.participation if rule.rule == "table" else mean
    return by_rank


def tournament_points(rule: CircuitRule, t: CircuitTournament) -> dict:
    """{player: exact circuit points} of one tournament (weight applied)."""
    by_rank = points_by_rank(rule, [e.rank for e in t.standings])
    return {e.player: by_rank[e.rank] * t.weight for e in t.standings}


def _order_key(row: CircuitRow):
    return (shown(row.total), tuple(shown(c) for c in row.counted), row.wins)


def score_circuit(rule: CircuitRule, tournaments) -> CircuitResult:
    """Circuit points per tournament and the circuit standings (SCORING.md section 11)."""
    with engine_context():
        rule = validate_rule(rule)
        checked = _checked_tournaments(tournaments, validate_tournament,
                                       lambda t: [e.player for e in t.standings])

        rows: dict = {}
        points = []
        for t in checked:
            pts = tournament_points(rule, t)
            points.append((t.id, pts))
            n = len(t.standings)
            for e in t.standings:
                row = rows.setdefault(e.player, CircuitRow(e.player, None, ZERO, []))
                row.scores.append(Score(t.id, pts[e.player], e.rank, n))
                row.played += 1
                if e.rank == 1:
                    row.wins += 1
        for row in rows.values():
            best = sorted(range(len(row.scores)), key=lambda i: (-row.scores[i].points, i))
            if rule.best_of is not None:
                best = best[:rule.best_of]
            chosen = set(best)
            row.scores = [Score(s.tournament, s.points, s.rank, s.participants, i in chosen)
                          for i, s in enumerate(row.scores)]
            row.counted = [row.scores[i].points for i in best]
            row.total = sum(row.counted, ZERO)

        ranked, unranked = _ranked(rows.values(), _order_key, lambda r: r.played >= rule.min_tournaments)
        return CircuitResult(points, ranked, unranked)


# --- machine contract -------------------------------------------------------------------------

def circuit_basis(doc) -> str:
    """The document's `circuit.basis`: "rank" (section 11, the default) or "games" (13.11)."""
    if not isinstance(doc, dict):
        raise _err("the input must be a JSON object", code="shape")
    c = doc.get("circuit")
    if not isinstance(c, dict):
        raise _err("circuit must be an object", code="shape", field="circuit")
    basis = c.get("basis")
    if basis is None:
        return "rank"
    if not isinstance(basis, str) or basis not in BASES:
        raise _err(f"unknown basis {basis!r}: expected one of {', '.join(BASES)}", code="circuit_basis",
                   field="basis")
    return basis


def parse_circuit_document(doc):
    """Input document -> (CircuitRule, [CircuitTournament]), or with `basis: "games"` (GamesRule,
    [GamesTournament]); raises InvalidDocument."""
    basis = circuit_basis(doc)
    c = doc["circuit"]
    if basis == "games":
        raw = doc.get("tournaments")
        if not isinstance(raw, list):
            raise _err("tournaments must be a list", code="shape", field="tournaments")
        return parse_games_circuit(c, raw)
    rule_name = c.get("rule")
    if not isinstance(rule_name, str):
        raise _err("circuit rule must be a string", code="shape", field="rule")
    table = c.get("table")
    if table is None:
        table = []
    if not isinstance(table, list):
        raise _err("points table must be a list of numbers", code="circuit_table", field="table")
    rule = CircuitRule(rule_name, tuple(table),
                       ZERO if c.get("participation") is None else c["participation"],
                       c.get("best_of"),
                       1 if c.get("min_tournaments") is None else c["min_tournaments"])
    raw = doc.get("tournaments")
    if not isinstance(raw, list):
        raise _err("tournaments must be a list", code="shape", field="tournaments")
    tournaments = []
    for i, t in enumerate(raw, 1):
        if not isinstance(t, dict):
            raise _err(f"tournament {i} must be an object", code="shape", field="tournaments")
        tid = t.get("id")
        if not _player_id(tid):
            raise _err(f"tournament {i}: id must be a non-empty string or a whole number",
                       code="shape", field="id")
        standings = t.get("standings")
        if not isinstance(standings, list):
            raise _err("standings must be a list", code="shape", field="standings",
                       location=f"tournament {tid}")
        entries = []
        for j, s in enumerate(standings, 1):
            if not isinstance(s, dict):
                raise _err(f"standings row {j} must be an object", code="shape", field="standings",
                           location=f"tournament {tid}")
            entries.append(Entry(s.get("rank"), s.get("player")))
        tournaments.append(CircuitTournament(tid, tuple(entries), ONE if t.get("weight") is None else t["weight"]))
    return rule, tournaments


def _row_json(row: CircuitRow, ranked: bool) -> dict:
    out = {"rank": row.rank} if ranked else {}
    out.update({"player": row.player, "total": as_float(row.total),
                "counted": [as_float(c) for c in row.counted], "played": row.played, "wins": row.wins})
    return out


def circuit_to_json(result: CircuitResult) -> dict:
    return {"tournaments": [{"id": tid, "points": {p: as_float(v) for p, v in pts.items()}}
                            for tid, pts in result.points],
            "standings": [_row_json(r, True) for r in result.standings],
            "unranked": [_row_json(r, False) for r in result.unranked]}


# --- a circuit of weighted game results (SCORING.md 13.11, `basis: "games"`) ---------------------

@dataclass(frozen=True)
class GamesRule:
    """13.11: the best `best_of` weighted game results count (all when None)."""
    best_of: int | None = None
    min_tournaments: int = 1


@dataclass(frozen=True)
class PlayerGames:
    """A player's game points in one tournament, already in the club's formula."""
    player: object
    games: tuple


@dataclass(frozen=True)
class GamesTournament:
    id: object
    results: tuple  # of PlayerGames
    weight: Decimal = ONE


@dataclass
class GamesRow:
    player: object
    rank: int | None  # None when unranked (fewer than min_tournaments tournaments with a game)
    total: Decimal
    counted: list  # exact counted weighted results, best first
    played: int = 0  # games
    tournaments: int = 0  # tournaments with at least one game
    # Which results those are: (tournament id, game index in the tournament's list) beside each counted
    # value; among equal results the earlier tournament's, then the earlier game's, counts.
    counted_games: list = field(default_factory=list)


@dataclass
class GamesResult:
    points: list  # [(tournament id, {player: [weighted results]})] in input order
    standings: list
    unranked: list


def _games_order_key(row: GamesRow):
    # A longer list of counted results wins when the other is its prefix (tuple comparison).
    return (shown(row.total), tuple(shown(c) for c in row.counted))


def score_games_circuit(rule: GamesRule, tournaments) -> GamesResult:
    """SCORING.md 13.11 (RCU Modena 2024: "Ranking annuale basata sui 30 migliori risultati ... pesati
    secondo uno specifico moltiplicatore"): every game result times its tournament's weight; a
    player's total is the sum of their best `best_of` weighted results across the tournaments.
    Order: total, then the counted results best first (a longer list wins when the other is its
    prefix); players still level share the rank, listed by id."""
    with engine_context():
        _check_counting(rule.best_of, rule.min_tournaments)
        checked = _checked_tournaments(tournaments, _checked_games_tournament,
                                       lambda t: [r.player for r in t.results])

        rows: dict = {}
        points = []
        every: dict = {}  # player -> [(weighted result, tournament index, game index, tournament id)]
        for i, t in enumerate(checked):
            weighted = {r.player: [g * t.weight for g in r.games] for r in t.results}
            points.append((t.id, weighted))
            for player, results in weighted.items():
                row = rows.setdefault(player, GamesRow(player, None, ZERO, []))
                every.setdefault(player, []).extend((value, i, j, t.id) for j, value in enumerate(results))
                row.played += len(results)
                if results:
                    row.tournaments += 1
        for player, row in rows.items():
            best = sorted(every[player], key=lambda r: (-r[0], r[1], r[2]))
            if rule.best_of is not None:
                best = best[:rule.best_of]
            row.counted = [value for value, _i, _j, _id in best]
            row.counted_games = [(tid, j) for _value, _i, j, tid in best]
            row.total = sum(row.counted, ZERO)

        ranked, unranked = _ranked(rows.values(), _games_order_key,
                                   lambda r: r.tournaments >= rule.min_tournaments)
        return GamesResult(points, ranked, unranked)


def _checked_games_tournament(t: GamesTournament) -> GamesTournament:
    where = f"tournament {t.id}"
    weight = _checked_weight(t.weight, where)
    seen, results = set(), []
    for r in t.results:
        _check_player(r.player, seen, where)
        games = []
        for i, g in enumerate(r.games, 1):
            g = coerce_number(g)
            if not _number(g) or not g.is_finite():
                raise _err(f"player {r.player}: game {i} is not a number", code="circuit_game",
                           field="games", location=where)
            if g < 0:
                raise _err(f"player {r.player}: game {i} is negative", code="circuit_game",
                           field="games", location=where)
            games.append(g)
        results.append(PlayerGames(r.player, tuple(games)))
    return GamesTournament(t.id, tuple(results), weight)


def parse_games_circuit(c: dict, raw: list):
    """`circuit` (with `basis: "games"`) and `tournaments` of the input document -> (GamesRule,
    [GamesTournament]). The rank-based rule's fields (`rule`, `table`, `participation`) are refused."""
    for key in ("rule", "table", "participation"):
        if c.get(key) is not None:
            raise _err(f"{key} belongs to a circuit of final ranks: a circuit with basis \"games\" has none",
                       code="circuit_basis", field=key)
    rule = GamesRule(c.get("best_of"), 1 if c.get("min_tournaments") is None else c["min_tournaments"])
    tournaments = []
    for i, t in enumerate(raw, 1):
        if not isinstance(t, dict):
            raise _err(f"tournament {i} must be an object", code="shape", field="tournaments")
        tid = t.get("id")
        if not _player_id(tid):
            raise _err(f"tournament {i}: id must be a non-empty string or a whole number",
                       code="shape", field="id")
        where = f"tournament {tid}"
        results = t.get("results")
        if not isinstance(results, list):
            raise _err("results must be a list", code="shape", field="results", location=where)
        rows = []
        for j, r in enumerate(results, 1):
            if not isinstance(r, dict):
                raise _err(f"results row {j} must be an object", code="shape", field="results",
                           location=where)
            games = r.get("games")
            if not isinstance(games, list):
                raise _err(f"results row {j}: games must be a list of numbers", code="shape",
                           field="games", location=where)
            rows.append(PlayerGames(r.get("player"), tuple(games)))
        tournaments.append(GamesTournament(tid, tuple(rows), ONE if t.get("weight") is None else t["weight"]))
    return rule, tournaments


def games_circuit_to_json(result: GamesResult) -> dict:
    def row_json(row: GamesRow, ranked: bool) -> dict:
        out = {"rank": row.rank} if ranked else {}
        out.update({"player": row.player, "total": as_float(row.total),
                    "counted": [as_float(c) for c in row.counted], "played": row.played,
                    "tournaments": row.tournaments})
        return out
    return {"tournaments": [{"id": tid, "points": {p: [as_float(v) for v in results]
                                                   for p, results in pts.items()}}
                            for tid, pts in result.points],
            "standings": [row_json(r, True) for r in result.standings],
            "unranked": [row_json(r, False) for r in result.unranked]}
