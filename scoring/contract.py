"""The JSON contract of `python -m scoring` (SCORING.md section 9): parsing and output."""
from __future__ import annotations

import json
from decimal import Decimal

from .errors import InvalidDocument, InvalidParams
from .formulas import get_formula
from .model import CLUB_PARAMETERS, TIEBREAKS, Absence, Game, Params, PlayerResult
from .numeric import ZERO, as_float_for
from .rule_document import is_rule_document, parse_rule_document

_PARAM_KEYS = ("discard_worst", "best_of", "como_reference", "tiebreak", "bonus", "spartaco_malus",
               "tournament_penalties", *CLUB_PARAMETERS)


def _reject_constant(name):
    raise InvalidDocument(f"invalid JSON: {name} is not a valid number", code="not_finite")


def _object(pairs):
    """A JSON object whose keys are each given once: a key given twice would leave one value unread."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        twice = next(k for k, _v in pairs if k in seen or seen.add(k))
        raise InvalidDocument(f"invalid JSON: the key {twice!r} is given twice in one object", code="json_key_twice",
                              field=twice)
    return obj


def loads(text: str):
    """JSON -> Python with exact decimals; NaN and Infinity are refused, and so is a key given twice in
    one object (JSON leaves it open; the last would silently win). Every document of `python -m scoring`
    and every rule document the site reads goes through here."""
    if not text.strip():
        raise InvalidDocument("empty input: expected a JSON object", code="empty")
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=_reject_constant, object_pairs_hook=_object)
    except InvalidDocument:
        raise
    except json.JSONDecodeError as exc:
        raise InvalidDocument(f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                              code="json") from None
    except RecursionError:
        raise InvalidDocument("invalid JSON: nested too deeply", code="json") from None
    except ValueError as exc:  # e.g. an integer with thousands of digits
        raise InvalidDocument(f"invalid JSON: {exc}", code="json") from None


def loads_bytes(data: bytes):
    """A file's bytes -> Python, as `loads`: UTF-8 text, a byte-order mark before it allowed (as Windows'
    editors write it). `python -m scoring` reads its input so, and the site an uploaded rule."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidDocument("invalid input: not UTF-8 text", code="not_utf8") from None
    return loads(text)


def is_whole(value) -> bool:
    """A whole number of the document (a JSON true or false is not one)."""
    return isinstance(value, int) and type(value) is not bool


def is_player_id(value) -> bool:
    """An id of the document (a player's, a team's): a non-empty string or a whole number."""
    return (isinstance(value, str) and value != "") or is_whole(value)


def parse_document(doc):
    """Validate the shape of an input document; returns (formula, Params, [Game], [Absence]).

    Field values (TP, places, ...) are checked by the engine's validation, which names the round,
    table and player.
    """
    if not isinstance(doc, dict):
        raise InvalidDocument("the input must be a JSON object", code="shape")
    formula, params = _formula_and_params(doc)

    raw_games = doc.get("games")
    if not isinstance(raw_games, list):
        raise InvalidDocument("games must be a list", code="shape", field="games")
    games = []
    id_types = set()
    for i, raw in enumerate(raw_games, 1):
        if not isinstance(raw, dict):
            raise InvalidDocument("must be an object", code="shape", location=f"game {i}")
        round_, table = raw.get("round"), raw.get("table")
        if not is_whole(round_) or round_ < 0:
            raise InvalidDocument("round must be a whole number of at least 0", code="shape",
                                  field="round", location=f"game {i}")
        if not is_whole(table) or table < 0:
            raise InvalidDocument("table must be a whole number of at least 0", code="shape",
                                  field="table", location=f"game {i} (round {round_})")
        games.append(Game(round_, table, parse_players(raw.get("players"), round_, table, id_types)))
    if len(id_types) > 1:
        raise InvalidDocument("player ids must be all strings or all whole numbers", code="shape",
                              field="id")

    absences = []
    raw_absences = doc.get("absences")
    if raw_absences is not None:
        if not isinstance(raw_absences, list):
            raise InvalidDocument("absences must be a list", code="shape", field="absences")
        for i, a in enumerate(raw_absences, 1):
            if not isinstance(a, dict) or not is_whole(a.get("round")) or not is_player_id(a.get("player")):
                raise InvalidDocument(f"absence {i} must be an object with a whole round and a player id",
                                      code="shape", field="absences")
            absences.append(Absence(a["round"], a["player"]))
    return formula, params, games, absences


def _formula_and_params(doc):
    """The document's formula and Params: from `formula` and `params`, or from a club's rule document
    given as `params` (docs/dev/club-rules.md), whose formula a `formula` field may repeat but not
    contradict."""
    raw_params = doc.get("params")
    if raw_params is None:
        raw_params = {}
    if not isinstance(raw_params, dict):
        raise InvalidDocument("params must be an object", code="shape", field="params")
    if is_rule_document(raw_params):
        rule = parse_rule_document(raw_params)
        if doc.get("formula") is not None and doc["formula"] != rule.formula:
            raise InvalidDocument(f"formula {doc['formula']!r} contradicts the rule's formula {rule.formula!r}",
                                  code="shape", field="formula")
        return get_formula(rule.formula), rule.engine_params()
    if "formula" not in doc:
        raise InvalidDocument("formula is missing", code="shape", field="formula")
    formula = doc["formula"]
    if not isinstance(formula, str):
        raise InvalidDocument("formula must be a string", code="shape", field="formula")
    formula = get_formula(formula)
    kwargs = {k: raw_params[k] for k in _PARAM_KEYS if raw_params.get(k) is not None}
    if isinstance(kwargs.get("tiebreak"), list):
        _each_once(kwargs["tiebreak"])
        kwargs["tiebreak"] = tuple(kwargs["tiebreak"])
    return formula, Params(**kwargs)


def _each_once(chain) -> None:
    """A tie-break given twice is refused (as the tournament's form refuses it), in one pass: a list of
    100,000 is refused at its second name, never compared with at every tie."""
    seen = set()
    for name in chain:
        if isinstance(name, str) and name in seen:
            raise InvalidParams(f"tiebreak names {name!r} twice: each tie-break is given once", field="tiebreak")
        if isinstance(name, str):
            seen.add(name)
        if len(seen) > len(TIEBREAKS):
            return   # an unknown name is among them: Params says which


def parse_players(raw_players, round_, table, id_types: set) -> tuple[PlayerResult, ...]:
    """The "players" of one game of the input document; the type of every id is added to `id_types`."""
    if not isinstance(raw_players, list):
        raise InvalidDocument("players must be a list", code="shape", round=round_, table=table,
                              field="players")
    players = []
    for j, p in enumerate(raw_players, 1):
        if not isinstance(p, dict):
            raise InvalidDocument(f"player {j} must be an object", code="shape", round=round_,
                                  table=table, field="players")
        pid = p.get("id")
        if not is_player_id(pid):
            raise InvalidDocument(f"player {j}: id must be a non-empty string or a whole number",
                                  code="shape", round=round_, table=table, field="id")
        id_types.add(type(pid))
        players.append(_player(p, pid, round_, table))
    return tuple(players)


def _player(p: dict, pid, round_, table) -> PlayerResult:
    """One player of a game; the optional "void": true marks a forfeit, scored as an absence."""
    eliminated = p.get("eliminated")
    if eliminated is False:
        eliminated = None
    risiko = p.get("risiko")
    disqualified = p.get("disqualified")
    if "table_points" in p and p["table_points"] is not None:
        tp = p["table_points"]
    elif eliminated is not None or risiko is True or disqualified is True:
        tp = ZERO  # nothing to record: an eliminated player holds 0, RisiKo! counts 100 anyway
    else:
        raise InvalidDocument("table points are missing", code="shape", round=round_, table=table,
                              player=pid, field="table_points")
    return PlayerResult(
        id=pid, table_points=tp, risiko=False if risiko is None else risiko, eliminated=eliminated,
        place=p.get("place"), penalty=ZERO if p.get("penalty") is None else p["penalty"],
        disqualified=False if disqualified is None else disqualified,
        void=False if p.get("void") is None else p["void"])


def games_to_json(result) -> list:
    """The "games" of the output document: each game's points as shown (section 9)."""
    as_float = as_float_for(get_formula(result.formula).decimals)
    return [{"round": g.round, "table": g.table, "points": {p: as_float(v) for p, v in g.points.items()}}
            for g in result.games]


def result_to_json(result) -> dict:
    """Result -> the output document: numbers rounded half-up to 2 decimals (3 under `millesimi`,
    section 13.4) as floats."""
    formula = get_formula(result.formula)
    ranking = formula.ranking
    as_float = as_float_for(formula.decimals)
    games = games_to_json(result)
    rows = []
    for r in result.standings:
        row = {"rank": r.rank, "player": r.player, "total": as_float(r.total)}
        if ranking == "wins":
            row["wins"] = r.wins
        elif ranking == "medals":
            row["medals"] = list(r.medals)
        rows.append(row)
    return {"games": games, "standings": rows}


def dumps(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=True, allow_nan=False) + "\n"
