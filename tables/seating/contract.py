"""The JSON machine contract of SEATING.md section 4: one document in, one document out.

Fields beyond the section's example (all optional):
  "sizes": [5, 4, 4]            the organiser's table sizes, table 1 first
  "pinned": {"P03": 2}          players who cannot move, and their table number
  "previous": [["P01", ...]]    last round's tables ordered by place (greek; winners kept apart)
  "winners": ["P01", ...]       last round's winners, when `previous` is not given
  "plan": [["P01", ...], ...]   the organiser's tables (fixed)
  "priorities": ["club", "repeat", "fives", "winners"]   penalty kinds, most important first
  "direct": 1, "qualifiers": 11 semifinal: players seeded to the final, players in semifinals
  "finalists": ["P01", ...], "finalina": true            final
  "draft": [["P01", ...], ...]  re-seat this unpublished draft for the players present now
Output adds "messages" (e.g. 3-player tables used) when there are any, "direct" and "bye" (players
present with no table) for semifinals and finals.
"""
import json
import math

from .methods import seat_round
from .model import Player, SeatingError, SeatingRequest
from .reseat import reseat

# A draw of more players is refused by name (a national Raduno seats about 500; at 1,000 a round still
# takes a few seconds, bench/bench_seating.py).
MAX_PLAYERS = 1000
MAX_TEXT = 200
MAX_TABLES = 20000
FIELDS = {"method", "table_size", "sizes", "seed", "time_limit_s", "rounds_left", "players", "history",
          "fives", "pinned", "previous", "winners", "plan", "priorities", "direct", "qualifiers",
          "finalists", "finalina", "draft"}


def handle(text):
    """The output document for the input document `text`; SeatingError on bad input."""
    doc = _load(text)
    request, draft = parse(doc)
    result = reseat(request, draft) if draft is not None else seat_round(request)
    out = {"tables": result.tables, "penalties": result.penalties.as_contract(), "seconds": result.seconds}
    if result.messages:
        out["messages"] = result.messages
    if request.method in ("semifinal", "final") and draft is None:
        out["direct"] = result.direct
        out["bye"] = result.bye
    return json.dumps(out)


def _load(text):
    def reject(name):
        raise SeatingError(f"{name} is not a number")
    try:
        return json.loads(text, parse_constant=reject)
    except SeatingError:
        raise
    except RecursionError:
        raise SeatingError("the input nests too deeply") from None
    except ValueError as exc:
        raise SeatingError(f"the input is not valid JSON: {str(exc).splitlines()[0]}") from None


def parse(doc):
    """A SeatingRequest (and the draft to re-seat, or None) from a decoded document."""
    if not isinstance(doc, dict):
        raise SeatingError("the input must be a JSON object")
    unknown = sorted(set(doc) - FIELDS)
    if unknown:
        raise SeatingError(f"unknown field {unknown[0]!r}")
    players = doc.get("players")
    if isinstance(players, list) and len(players) > MAX_PLAYERS:
        raise SeatingError(f"at most {MAX_PLAYERS} players can be seated in one draw, {len(players)} are present",
                           code="too_many_players", n=len(players), limit=MAX_PLAYERS)
    players = _list(players, "players", MAX_PLAYERS)
    parsed = []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise SeatingError(f"players[{i}] must be an object with an id")
        extra = sorted(set(p) - {"id", "club", "rank"})
        if extra:
            raise SeatingError(f"players[{i}] has an unknown field {extra[0]!r}")
        club = p.get("club")
        if club is not None:
            club = _text(club, f"players[{i}].club", allow_empty=True) or None
        rank = p.get("rank")
        if rank is not None:
            rank = _int(rank, f"players[{i}].rank", 0, 10 ** 6)
        parsed.append(Player(id=_text(p.get("id"), f"players[{i}].id"), club=club, rank=rank))
    req = SeatingRequest(players=parsed)
    req.method = _text(doc.get("method", "random"), "method")
    req.table_size = _int(doc.get("table_size", 4), "table_size", 3, 6)
    if "sizes" in doc and doc["sizes"] is not None:
        req.sizes = [_int(s, "sizes[]", 1, 100) for s in _list(doc["sizes"], "sizes", MAX_PLAYERS)]
    req.seed = _int(doc.get("seed", 0), "seed", -(2 ** 63), 2 ** 63 - 1)
    req.time_limit_s = _number(doc.get("time_limit_s", 1.0), "time_limit_s", 60)
    req.rounds_left = _int(doc.get("rounds_left", 1), "rounds_left", 1, 100)
    req.history = _tables(doc.get("history", []), "history")
    req.fives = _counts(doc.get("fives", {}), "fives", 0, 10 ** 4)
    req.pinned = _counts(doc.get("pinned", {}), "pinned", 1, 1000)
    req.previous = _tables(doc.get("previous", []), "previous")
    req.winners = _ids(doc.get("winners", []), "winners")
    req.plan = _tables(doc.get("plan", []), "plan")
    req.priorities = [_text(p, "priorities[]") for p in _list(doc.get("priorities", []), "priorities", 10)] \
        or req.priorities
    for name in ("direct", "qualifiers"):
        if doc.get(name) is not None:
            setattr(req, name, _int(doc[name], name, 0, MAX_PLAYERS))
    req.finalists = _ids(doc.get("finalists", []), "finalists")
    finalina = doc.get("finalina", False)
    if not isinstance(finalina, bool):
        raise SeatingError("finalina must be true or false")
    req.finalina = finalina
    draft = _tables(doc["draft"], "draft") if doc.get("draft") is not None else None
    return req, draft


def _list(value, name, limit):
    if not isinstance(value, list):
        raise SeatingError(f"{name} must be a list")
    if len(value) > limit:
        raise SeatingError(f"{name} has more than {limit} entries")
    return value


def _int(value, name, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        raise SeatingError(f"{name} must be a whole number")
    if not lo <= value <= hi:
        raise SeatingError(f"{name} must be from {lo} to {hi}")
    return value


def _number(value, name, hi):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SeatingError(f"{name} must be a number")
    if not math.isfinite(value) or not 0 < value <= hi:
        raise SeatingError(f"{name} must be above 0 and at most {hi}")
    return float(value)


def _text(value, name, allow_empty=False):
    if not isinstance(value, str):
        raise SeatingError(f"{name} must be a string")
    if not value and not allow_empty:
        raise SeatingError(f"{name} must not be empty")
    if len(value) > MAX_TEXT:
        raise SeatingError(f"{name} is longer than {MAX_TEXT} characters")
    if any(ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise SeatingError(f"{name} contains control characters")
    return value


def _ids(value, name):
    return [_text(i, f"{name}[]") for i in _list(value, name, MAX_TABLES)]


def _tables(value, name):
    tables = _list(value, name, MAX_TABLES)
    out = []
    for t in tables:
        ids = _ids(t, f"{name}[]")
        if not ids or len(ids) > 10:
            raise SeatingError(f"every table of {name} has 1 to 10 players")
        out.append(ids)
    return out


def _counts(value, name, lo, hi):
    if not isinstance(value, dict):
        raise SeatingError(f"{name} must be an object of player id to number")
    if len(value) > MAX_TABLES:
        raise SeatingError(f"{name} has too many entries")
    return {_text(k, f"{name} key"): _int(v, f"{name}[{k!r}]", lo, hi) for k, v in value.items()}
