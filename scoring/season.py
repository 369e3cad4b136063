"""Season rankings as data: a club's "giocatore dell'anno" composed of terms per event category.

Pure Python, no ORM. A season rule is a document (schema "torneo.season/1", docs in
docs/dev/season-rules.md) that names event categories, and for each category the terms that turn a
player's result at one event into season points:

- ``rank_points``: points by final placement, SCORING.md section 11 (``table`` with
  ``participation``, ``participants`` or ``scaled``; ties share the mean of their positions);
- ``stage``: points by the furthest stage reached (``{"winner": 2000, "final": 1000, "semifinal": 500}``);
- ``per_round`` / ``per_game``: points for each qualifying round / each game played;
- ``own_points``: the tournament's own points (after its discards) times a factor;
- ``winner_bonus``: points to the event's winner (rank 1, shared included);
- ``games``: every game result (already in the club's formula) times a factor is a result of its own
  (SCORING.md 13.11, a season of the best N game results).

Each category has a ``weight`` (an event may carry its own, multiplied in). A season counts the best
``best`` events (``count.unit: "events"``) or game results (``"games"``), all when null, and may
publish several ``lists`` (an internal and an external ranking over their own categories). Order:
total, then each key of ``order`` (``counted``: the counted scores best first, a longer list winning
a prefix; ``wins``: events won); players still level share the rank, listed by id.

SCORING.md section 11 and 13.11 are each one season rule (`rule_from_circuit_document`), and so is
RCU Barletta's "Giocatore dell'anno". `python -m scoring season` is the machine contract.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from .circuit import (
    MAX_NUMBER,
    RULES as RANK_RULES,
    _check_player,
    _checked_weight,
    _err,
    _number,
    _player_id,
    _ranked,
    _whole,
    CircuitRule,
    check_competition_ranking,
    circuit_basis,
    parse_circuit_document,
    points_by_rank,
)
from .numeric import ONE, ZERO, as_float, coerce_number, engine_context, shown

SCHEMA = "torneo.season/1"
TERMS = ("rank_points", "stage", "per_round", "per_game", "own_points", "winner_bonus", "games")
UNITS = ("events", "games")
ORDER_KEYS = ("counted", "wins")
EVENT_FIELDS = {"id", "category", "weight", "results"}
RESULT_FIELDS = {"player", "rank", "points", "rounds", "games", "stage"}
STAGES = ("winner", "final", "semifinal", "quarterfinal", "qualifying")


@dataclass(frozen=True)
class Term:
    kind: str
    value: object  # a Decimal factor/points, a CircuitRule (rank_points) or {stage: Decimal}


@dataclass(frozen=True)
class Category:
    name: str
    terms: tuple
    weight: Decimal = ONE


@dataclass(frozen=True)
class SeasonList:
    name: str
    categories: tuple


@dataclass(frozen=True)
class SeasonRule:
    categories: dict  # name -> Category
    unit: str = "events"
    best: int | None = None
    min_events: int = 1
    order: tuple = ("counted", "wins")
    lists: tuple = ()  # of SeasonList; empty: one list "season" of every category
    name: str = ""


@dataclass(frozen=True)
class Result:
    """A player's result at one event, as the event's final order and sheets give it."""
    player: object
    rank: int
    points: Decimal | None = None  # the tournament's own points after its discards
    rounds: int | None = None  # qualifying rounds played
    games: tuple | None = None  # game points, in the club's formula
    games_played: int | None = None
    stage: str | None = None  # the furthest stage reached


@dataclass(frozen=True)
class Event:
    id: object
    category: str
    results: tuple
    weight: Decimal = ONE


@dataclass(frozen=True)
class Unit:
    """One scored unit of a player's season: an event's points, or one game result."""
    event: object
    points: Decimal
    counted: bool = False


@dataclass
class SeasonRow:
    player: object
    rank: int | None
    total: Decimal = ZERO
    counted: list = field(default_factory=list)
    units: list = field(default_factory=list)
    events: int = 0
    played: int = 0
    wins: int = 0


@dataclass
class Ranking:
    name: str
    standings: list
    unranked: list


@dataclass
class SeasonResult:
    points: list  # [(event id, category, {player: Decimal or [Decimal]})]
    rankings: list  # of Ranking


# --- the rule --------------------------------------------------------------------------------------

def _amount(value, what: str, where: str, positive: bool = False) -> Decimal:
    value = coerce_number(value)
    if not _number(value) or not value.is_finite() or value < 0 or (positive and value == 0):
        need = "greater than 0" if positive else "of at least 0"
        raise _err(f"{what} must be a number {need}", code="season_number", field=what, location=where)
    if value > MAX_NUMBER:
        raise _err(f"{what} must be at most {MAX_NUMBER}", code="season_number", field=what, location=where)
    return value


def _term(raw, where: str) -> Term:
    if not isinstance(raw, dict) or len(raw) != 1:
        raise _err("a term must be an object with one key, the term's kind", code="season_term",
                   field="terms", location=where)
    (kind, value), = raw.items()
    if kind not in TERMS:
        raise _err(f"unknown term {kind!r}: expected one of {', '.join(TERMS)}", code="season_term",
                   field="terms", location=where)
    if kind == "rank_points":
        if not isinstance(value, dict) or not isinstance(value.get("rule"), str):
            raise _err("rank_points must be an object with a rule", code="season_term", field="rank_points",
                       location=where)
        unknown = set(value) - {"rule", "table", "participation"}
        if unknown:
            raise _err(f"rank_points has no field {sorted(unknown)[0]!r}", code="season_term",
                       field="rank_points", location=where)
        if value["rule"] not in RANK_RULES:
            raise _err(f"unknown rank rule {value['rule']!r}: expected one of {', '.join(RANK_RULES)}",
                       code="season_term", field="rank_points", location=where)
        table = value.get("table") or []
        if not isinstance(table, list):
            raise _err("rank_points table must be a list of numbers", code="season_term", field="table",
                       location=where)
        return Term(kind, CircuitRule(value["rule"],
                                      tuple(_amount(v, f"table entry {i}", where) for i, v in enumerate(table, 1)),
                                      _amount(value.get("participation") or 0, "participation", where)))
    if kind == "stage":
        if not isinstance(value, dict) or not value:
            raise _err("stage must map stages to points", code="season_term", field="stage", location=where)
        for stage in value:
            if stage not in STAGES:
                raise _err(f"unknown stage {stage!r}: expected one of {', '.join(STAGES)}", code="season_term",
                           field="stage", location=where)
        return Term(kind, {s: _amount(v, f"stage {s}", where) for s, v in value.items()})
    return Term(kind, _amount(value, kind, where))


def parse_rule(doc) -> SeasonRule:
    """A season rule document -> SeasonRule; raises InvalidDocument naming the field."""
    if not isinstance(doc, dict):
        raise _err("the season rule must be a JSON object", code="shape", field="season")
    schema = doc.get("schema", SCHEMA)
    if schema != SCHEMA:
        raise _err(f"unknown schema {schema!r}: this engine reads {SCHEMA!r}", code="season_schema",
                   field="schema")
    unknown = set(doc) - {"schema", "name", "categories", "count", "min_events", "order", "lists"}
    if unknown:
        raise _err(f"the season rule has no field {sorted(unknown)[0]!r}", code="season_field",
                   field=sorted(unknown)[0])
    raw = doc.get("categories")
    if not isinstance(raw, dict) or not raw:
        raise _err("categories must be an object naming at least one category", code="shape", field="categories")
    count = doc.get("count") or {}
    if not isinstance(count, dict) or set(count) - {"unit", "best"}:
        raise _err("count must be an object with unit and best", code="shape", field="count")
    unit = count.get("unit", "events")
    if unit not in UNITS:
        raise _err(f"unknown unit {unit!r}: expected one of {', '.join(UNITS)}", code="season_unit", field="unit")
    best = count.get("best")
    if best is not None and (not _whole(best) or best < 1):
        raise _err("best must be null or a whole number of at least 1", code="circuit_best_of", field="best")
    categories = {}
    for name, c in raw.items():
        where = f"category {name}"
        if not isinstance(c, dict) or not isinstance(c.get("terms"), list) or not c["terms"]:
            raise _err("a category must have a list of terms", code="shape", field="terms", location=where)
        if set(c) - {"terms", "weight", "label"}:
            raise _err(f"a category has no field {sorted(set(c) - {'terms', 'weight', 'label'})[0]!r}",
                       code="season_field", location=where)
        terms = tuple(_term(t, where) for t in c["terms"])
        kinds = [t.kind for t in terms]
        if len(set(kinds)) != len(kinds):
            raise _err("a term is named twice", code="season_term", field="terms", location=where)
        if (unit == "games" and kinds != ["games"]) or (unit != "games" and "games" in kinds):
            raise _err('a season counting games has the one term "games" in every category, and only it'
                       if unit == "games" else 'the term "games" belongs to a season counting games (count.unit)',
                       code="season_unit", field="terms", location=where)
        categories[name] = Category(name, terms, _checked_weight(c.get("weight"), where))
    min_events = doc.get("min_events", 1)
    if not _whole(min_events) or min_events < 1:
        raise _err("min_events must be a whole number of at least 1", code="circuit_min_tournaments",
                   field="min_events")
    order = doc.get("order", ["counted", "wins"])
    if not isinstance(order, list) or any(k not in ORDER_KEYS for k in order) or len(set(order)) != len(order):
        raise _err(f"order must list keys among {', '.join(ORDER_KEYS)}, each once", code="season_order",
                   field="order")
    lists = []
    for i, raw_list in enumerate(doc.get("lists") or [], 1):
        if not isinstance(raw_list, dict) or not isinstance(raw_list.get("name"), str) or not raw_list["name"] \
                or not isinstance(raw_list.get("categories"), list) or not raw_list["categories"]:
            raise _err(f"list {i} must have a name and a list of categories", code="shape", field="lists")
        for c in raw_list["categories"]:
            if c not in categories:
                raise _err(f"list {raw_list['name']} names the unknown category {c!r}", code="season_category",
                           field="lists")
        lists.append(SeasonList(raw_list["name"], tuple(raw_list["categories"])))
    if len({sl.name for sl in lists}) != len(lists):
        raise _err("two lists have one name", code="season_list", field="lists")
    listed = {c for sl in lists for c in sl.categories}
    unlisted = [name for name in categories if lists and name not in listed]
    if unlisted:
        raise _err(f"no list names the category {unlisted[0]!r}: its events would count in no ranking",
                   code="season_category", field="lists")
    name = doc.get("name", "")
    if not isinstance(name, str):
        raise _err("name must be a string", code="shape", field="name")
    return SeasonRule(categories, unit, best, min_events, tuple(order), tuple(lists), name)


# --- the events ------------------------------------------------------------------------------------

def _whole_or_none(value, what: str, where: str):
    if value is not None and (not _whole(value) or value < 0):
        raise _err(f"{what} must be a whole number of at least 0", code="shape", field=what, location=where)
    if value is not None and value > MAX_NUMBER:
        raise _err(f"{what} must be at most {MAX_NUMBER}", code="shape", field=what, location=where)
    return value


def parse_events(raw, rule: SeasonRule) -> list:
    """The document's `events` -> [Event]; every field a term needs is checked here, by name."""
    if not isinstance(raw, list):
        raise _err("events must be a list", code="shape", field="events")
    events, ids, id_types = [], set(), set()
    for i, e in enumerate(raw, 1):
        if not isinstance(e, dict):
            raise _err(f"event {i} must be an object", code="shape", field="events")
        eid = e.get("id")
        if not _player_id(eid):
            raise _err(f"event {i}: id must be a non-empty string or a whole number", code="shape", field="id")
        if eid in ids:
            raise _err(f"two events have the id {eid}", code="circuit_tournament_twice", field="id")
        ids.add(eid)
        where = f"event {eid}"
        unknown = sorted(set(e) - EVENT_FIELDS)
        if unknown:
            raise _err(f"an event has no field {unknown[0]!r}", code="season_field", field=unknown[0], location=where)
        category = e.get("category")
        if category not in rule.categories:
            raise _err(f"unknown category {category!r}: the rule has {', '.join(rule.categories)}",
                       code="season_category", field="category", location=where)
        needs = {t.kind for t in rule.categories[category].terms}
        rows = e.get("results")
        if not isinstance(rows, list):
            raise _err("results must be a list", code="shape", field="results", location=where)
        seen, results = set(), []
        for j, r in enumerate(rows, 1):
            if not isinstance(r, dict):
                raise _err(f"results row {j} must be an object", code="shape", field="results", location=where)
            result = _result(r, where, needs)
            _check_player(result.player, seen, where)
            id_types.add(type(result.player))
            results.append(result)
        if "rank_points" in needs:  # points by placement need the whole final order
            check_competition_ranking([r.rank for r in results], where)
        events.append(Event(eid, category, tuple(results), _checked_weight(e.get("weight"), where)))
    if len(id_types) > 1:
        raise _err("player ids must be all strings or all whole numbers", code="shape", field="player")
    return events


def _result(r: dict, where: str, needs: set) -> Result:
    player = r.get("player")
    at = f"{where} player {player}"
    unknown = sorted(set(r) - RESULT_FIELDS)
    if unknown:
        raise _err(f"a result has no field {unknown[0]!r}", code="season_field", field=unknown[0], location=at)
    rank = r.get("rank")
    if not _whole(rank) or rank < 1:
        raise _err("rank must be a whole number of at least 1", code="shape", field="rank", location=at)
    points = r.get("points")
    if points is not None:
        points = _amount(points, "points", at)   # a tournament's own points: never below 0
    games = r.get("games")
    games_played = None
    if isinstance(games, list):
        games = tuple(_amount(g, f"game {k}", at) for k, g in enumerate(games, 1))
        games_played = len(games)
    elif games is not None:
        games_played, games = _whole_or_none(games, "games", at), None
    stage = r.get("stage")
    if stage is not None and stage not in STAGES:
        raise _err(f"unknown stage {stage!r}: expected one of {', '.join(STAGES)}", code="season_term",
                   field="stage", location=at)
    result = Result(player, rank, points, _whole_or_none(r.get("rounds"), "rounds", at), games, games_played, stage)
    required = {"own_points": ("points", result.points), "per_round": ("rounds", result.rounds),
                "per_game": ("games", result.games_played), "games": ("games", result.games)}
    for kind, (name, value) in required.items():
        if kind in needs and value is None:
            what = "a list of game points" if kind == "games" else name
            raise _err(f"the term {kind} needs {what}", code="season_missing", field=name, location=at)
    return result


# --- scoring ---------------------------------------------------------------------------------------

def _rank_points(rule: CircuitRule, event: Event) -> dict:
    """SCORING.md section 11 for one event: {rank: points}, ties sharing the mean of their positions."""
    return points_by_rank(rule, [r.rank for r in event.results])


def event_points(category: Category, event: Event, weight: Decimal) -> dict:
    """{player: Decimal} (or {player: [Decimal]} under the term "games") for one event."""
    by_rank = {}
    out = {}
    for term in category.terms:
        if term.kind == "rank_points":
            by_rank = _rank_points(term.value, event)
    for r in event.results:
        if category.terms[0].kind == "games":
            out[r.player] = [g * category.terms[0].value * weight for g in r.games]
            continue
        total = ZERO
        for term in category.terms:
            if term.kind == "rank_points":
                total += by_rank[r.rank]
            elif term.kind == "stage":
                total += term.value.get(r.stage or ("winner" if r.rank == 1 and "winner" in term.value else ""), ZERO)
            elif term.kind == "per_round":
                total += term.value * r.rounds
            elif term.kind == "per_game":
                total += term.value * r.games_played
            elif term.kind == "own_points":
                total += term.value * r.points
            elif term.kind == "winner_bonus":
                total += term.value if r.rank == 1 else ZERO
        out[r.player] = total * weight
    return out


def score_season(rule: SeasonRule, events) -> SeasonResult:
    """Every event's season points and each list's standings."""
    with engine_context():
        points = []
        for e in events:
            category = rule.categories[e.category]
            points.append((e.id, e.category, event_points(category, e, category.weight * e.weight)))
        lists = rule.lists or (SeasonList("season", tuple(rule.categories)),)
        rankings = [_ranking(rule, sl, events, points) for sl in lists]
        return SeasonResult(points, rankings)


def _ranking(rule: SeasonRule, season_list: SeasonList, events, points) -> Ranking:
    rows: dict = {}
    for e, (eid, category, pts) in zip(events, points):
        if category not in season_list.categories:
            continue
        for r in e.results:
            row = rows.setdefault(r.player, SeasonRow(r.player, None))
            value = pts[r.player]
            row.units.extend(Unit(eid, v) for v in (value if isinstance(value, list) else [value]))
            row.events += 1 if not isinstance(value, list) or value else 0
            row.played += len(value) if isinstance(value, list) else 1
            row.wins += r.rank == 1
    for row in rows.values():
        best = sorted(range(len(row.units)), key=lambda i: (-row.units[i].points, i))
        if rule.best is not None:
            best = best[:rule.best]
        chosen = set(best)
        row.units = [Unit(u.event, u.points, i in chosen) for i, u in enumerate(row.units)]
        row.counted = [row.units[i].points for i in best]
        row.total = sum(row.counted, ZERO)

    def key(row):
        parts = [shown(row.total)]
        for k in rule.order:
            parts.append(tuple(shown(c) for c in row.counted) if k == "counted" else row.wins)
        return tuple(parts)

    ranked, unranked = _ranked(rows.values(), key, lambda r: r.events >= rule.min_events)
    return Ranking(season_list.name, ranked, unranked)


# --- the machine contract --------------------------------------------------------------------------

def parse_season_document(doc):
    """{"season": rule document, "events": [...]} -> (SeasonRule, [Event])."""
    if not isinstance(doc, dict):
        raise _err("the input must be a JSON object", code="shape")
    rule = parse_rule(doc.get("season"))
    return rule, parse_events(doc.get("events"), rule)


def _row_json(row: SeasonRow, ranked: bool) -> dict:
    out = {"rank": row.rank} if ranked else {}
    out.update({"player": row.player, "total": as_float(row.total), "counted": [as_float(c) for c in row.counted],
                "events": row.events, "played": row.played, "wins": row.wins})
    return out


def season_to_json(result: SeasonResult) -> dict:
    def shown_points(value):
        return [as_float(v) for v in value] if isinstance(value, list) else as_float(value)
    return {"events": [{"id": eid, "category": category, "points": {p: shown_points(v) for p, v in pts.items()}}
                       for eid, category, pts in result.points],
            "rankings": [{"name": r.name, "standings": [_row_json(row, True) for row in r.standings],
                          "unranked": [_row_json(row, False) for row in r.unranked]} for r in result.rankings]}


def rule_from_circuit_document(doc) -> dict:
    """A `python -m scoring circuit` document (SCORING.md 11 or 13.11) as a season document: one
    category "event", the tournaments' weights carried by the events. A field the season has no
    place for (a rank rule under `basis: "games"`) is refused here; the rest by the season engine."""
    parse_circuit_document(doc)
    basis = circuit_basis(doc)
    c = doc["circuit"]
    count = {"unit": "games" if basis == "games" else "events", "best": c.get("best_of")}
    if basis == "games":
        terms, order = [{"games": 1}], ["counted"]
    else:
        spec = {"rule": c.get("rule")}
        for key in ("table", "participation"):
            if c.get(key) is not None:
                spec[key] = c[key]
        terms, order = [{"rank_points": spec}], ["counted", "wins"]
    season = {"schema": SCHEMA, "categories": {"event": {"terms": terms}}, "count": count,
              "min_events": 1 if c.get("min_tournaments") is None else c["min_tournaments"], "order": order}
    events = []
    for t in doc.get("tournaments") or []:
        if not isinstance(t, dict):
            events.append(t)
            continue
        event = {"id": t.get("id"), "category": "event"}
        if t.get("weight") is not None:
            event["weight"] = t["weight"]
        if basis == "games":
            # 13.11 ranks no event: each player's results, listed in order, rank 1 for every one.
            event["results"] = [dict(r, rank=1) if isinstance(r, dict) else r for r in t.get("results") or []]
        else:
            event["results"] = t.get("standings")
        events.append(event)
    return {"season": season, "events": events}
