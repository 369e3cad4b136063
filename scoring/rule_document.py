"""A club's rule as a document (schema "torneo.rule/1"): everything SCORING.md section 13 and the
formats can set, in a small JSON file a club writes once, shares, and checks offline.

Pure Python, no ORM. `parse_rule_document` checks a document and names the field at fault;
`python -m scoring` takes such a document as its `params` (the formula then comes from it). The
published clubs' rules (SCORING.md 13.12) are documents too: `published_rules()` reads them from
scoring/data/club_rules.json. The contract, with examples, is in docs/dev/club-rules.md.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from .engine import score_tournament
from .errors import InvalidDocument, ScoringError
from .formulas import get_formula
from .model import TIEBREAKS, Game, Params, PlayerResult

SCHEMA = "torneo.rule/1"
LANGUAGES = ("it", "en")
PARAMS = ("discard_worst", "best_of", "como_reference", "tiebreak", "bonus", "spartaco_malus", "risiko_total",
          "corrective_scope", "spartaco_risiko_losers", "standard_eliminated")
FORMAT = ("preset",)
TOURNAMENT = {"rounds_planned": (1, 30), "table_size": (4, 5), "dispute_window_minutes": (0, 10080)}
FIELDS = ("schema", "key", "name", "club", "source", "description", "published", "formula", "params",
          "tournament", "format")
KEY = re.compile(r"^[a-z0-9_]{1,24}$")
# The tournament formats a rule may name (`format.preset`): the keys of the formats the site builds
# (tournaments.models.core.FORMAT_PRESETS; a test keeps the two lists one).
FORMATS = ("sum3", "sum3_final", "semis16", "master", "evenings_final", "championship", "evenings_top2_repechage",
           "evenings_top1_repechage", "composed", "knockout", "knockout_second_chance", "como", "teams_2vs2",
           "team_championship", "raduno")
# A text the site keeps and shows: a NUL or half of a surrogate pair is no character of one.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
# The fields of a rule document that plain parameters never have.
RULE_ONLY = ("key", "name", "club", "source", "description", "published", "formula", "params", "tournament", "format")
PUBLISHED_FILE = Path(__file__).resolve().parent / "data" / "club_rules.json"
# The tie-break chain of a rule that names none: `python -m scoring`, the worked example and a tournament
# filled from the rule all rank with it (a tournament's own default, tournaments/club_presets.py, is this).
DEFAULT_TIEBREAK = ("best_results",)


@dataclass(frozen=True)
class RuleDocument:
    key: str
    name: dict  # language -> text
    formula: str
    params: dict  # the document's params, checked (exact numbers, tiebreak a list)
    tournament: dict = field(default_factory=dict)
    format: dict = field(default_factory=dict)
    description: dict = field(default_factory=dict)
    club: str = ""
    source: str = ""
    published: bool = False

    def engine_params(self) -> Params:
        """The engine's parameters; a rule without `tiebreak` ranks by DEFAULT_TIEBREAK."""
        kwargs = {k: v for k, v in self.params.items() if v is not None}
        kwargs["tiebreak"] = tuple(kwargs.get("tiebreak", DEFAULT_TIEBREAK))
        return Params(**kwargs)

    def text(self, which: str, language: str) -> str:
        """The rule's name or description in `language` (Italian, then English, when it has none)."""
        texts = getattr(self, which)
        return texts.get(language) or texts.get("it") or texts.get("en") or ""


def _err(message, field=None):
    return InvalidDocument(message, code="rule_document", field=field, location="rule")


def _texts(value, name: str, required: bool) -> dict:
    """A text in one language (a string, read as Italian) or several ({"it": ..., "en": ...})."""
    if value is None and not required:
        return {}
    if isinstance(value, str) and value.strip():
        return {"it": _storable(value.strip(), name)}
    if isinstance(value, dict) and value and all(k in LANGUAGES and isinstance(v, str) and v.strip()
                                                 for k, v in value.items()):
        return {k: _storable(v.strip(), name) for k, v in value.items()}
    raise _err(f"{name} must be a text, or an object of texts by language ({', '.join(LANGUAGES)})", name)


def _storable(text: str, name: str) -> str:
    if UNSTORABLE.search(text):
        raise _err(f"{name} must not hold a NUL character or a lone surrogate", name)
    return text


def _flag(doc, name: str) -> bool:
    value = doc.get(name, False)
    if not isinstance(value, bool):
        raise _err(f"{name} must be true or false", name)
    return value


def _string(doc, name: str) -> str:
    value = doc.get(name, "")
    if not isinstance(value, str):
        raise _err(f"{name} must be a string", name)
    return _storable(value.strip(), name)


def parse_rule_document(doc) -> RuleDocument:
    """A rule document -> RuleDocument; raises InvalidDocument naming the field at fault."""
    if not isinstance(doc, dict):
        raise _err("a rule document must be a JSON object")
    if "schema" not in doc:
        raise _err(f"schema is missing: a rule document starts with \"schema\": \"{SCHEMA}\"", "schema")
    if doc.get("schema") != SCHEMA:
        raise _err(f"schema must be {SCHEMA!r} (got {doc.get('schema')!r})", "schema")
    unknown = sorted(set(doc) - set(FIELDS))
    if unknown:
        raise _err(f"a rule document has no field {unknown[0]!r}", unknown[0])
    key = doc.get("key", "")
    if key and (not isinstance(key, str) or not KEY.match(key)):
        raise _err("key must be up to 24 lower-case letters, digits or underscores", "key")
    formula = doc.get("formula")
    if not isinstance(formula, str):
        raise _err("formula is missing", "formula")
    try:
        get_formula(formula)
    except ScoringError as exc:
        raise _err(exc.detail, "formula") from None
    params = {} if doc.get("params") is None else doc["params"]
    if not isinstance(params, dict):
        raise _err("params must be an object", "params")
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise _err(f"params has no field {unknown[0]!r}: a rule sets {', '.join(PARAMS)}", unknown[0])
    if "tiebreak" in params:
        _tiebreaks(params["tiebreak"])
    rule = RuleDocument(
        key=key or "", name=_texts(doc.get("name"), "name", True), formula=formula, params=dict(params),
        tournament=_tournament(doc.get("tournament")), format=_format(doc.get("format")),
        description=_texts(doc.get("description"), "description", False), club=_string(doc, "club"),
        source=_string(doc, "source"), published=_flag(doc, "published"))
    try:
        rule.engine_params()  # the engine's own checks of every parameter, by name
    except ScoringError as exc:
        raise _err(exc.detail, exc.field) from None
    return rule


def _tiebreaks(chain) -> None:
    """A list of tie-break names, each once (as the tournament's form asks): at most as many as there
    are, checked in one pass however long the list."""
    if not isinstance(chain, list):
        raise _err("tiebreak must be a list of tie-break names", "tiebreak")
    seen = set()
    for name in chain:
        if not isinstance(name, str):
            raise _err("tiebreak must be a list of tie-break names", "tiebreak")
        if name in seen:
            raise _err(f"tiebreak names {name!r} twice: each tie-break is given once", "tiebreak")
        seen.add(name)
        if name not in TIEBREAKS:
            raise _err(f"unknown tie-break {name!r} (known: {', '.join(TIEBREAKS)})", "tiebreak")


def _tournament(value) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _err("tournament must be an object", "tournament")
    for name, number in value.items():
        if name not in TOURNAMENT:
            raise _err(f"tournament has no field {name!r}: a rule sets {', '.join(TOURNAMENT)}", name)
        low, high = TOURNAMENT[name]
        if not isinstance(number, int) or isinstance(number, bool) or not low <= number <= high:
            raise _err(f"{name} must be a whole number from {low} to {high}", name)
    return dict(value)


def _format(value) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _err('format must be an object {"preset": "<format key>"}', "format")
    unknown = sorted(set(value) - set(FORMAT))
    if unknown:
        raise _err(f"format has no field {unknown[0]!r}: a rule sets {', '.join(FORMAT)}", unknown[0])
    if not isinstance(value.get("preset"), str) or not KEY.match(value["preset"]):
        raise _err('format must be an object {"preset": "<format key>"}', "format")
    if value["preset"] not in FORMATS:
        raise _err(f"unknown format {value['preset']!r} (known: {', '.join(FORMATS)})", "preset")
    return dict(value)


def rule_to_json(rule: RuleDocument) -> dict:
    """The document as it is downloaded: only what the rule says, in the schema's order."""
    doc = {"schema": SCHEMA}
    if rule.key:
        doc["key"] = rule.key
    doc["name"] = rule.name
    for name in ("club", "source"):
        if getattr(rule, name):
            doc[name] = getattr(rule, name)
    if rule.description:
        doc["description"] = rule.description
    if rule.published:
        doc["published"] = True
    doc["formula"] = rule.formula
    doc["params"] = {k: _plain(v) for k, v in rule.params.items()}
    if rule.tournament:
        doc["tournament"] = rule.tournament
    if rule.format:
        doc["format"] = rule.format
    return doc


def _plain(value):
    """Exact decimals back to JSON numbers (a whole value as an integer)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


@lru_cache(maxsize=1)
def published_rules() -> tuple:
    """The published clubs' rules (SCORING.md 13.12), in the order the site offers them."""
    docs = json.loads(PUBLISHED_FILE.read_text(encoding="utf-8"), parse_float=Decimal)
    rules = tuple(parse_rule_document(d) for d in docs)
    assert all(r.key and r.published for r in rules), "every published rule has a key and says it is published"
    return rules


def is_rule_document(value) -> bool:
    """A `params` object that is a rule document rather than plain parameters: it names its schema, or
    holds a field only a rule document has (then it is read as one, and a missing schema is said so)."""
    return isinstance(value, dict) and ("schema" in value or any(name in value for name in RULE_ONLY))


def dumps_rule(rule: RuleDocument) -> str:
    return json.dumps(rule_to_json(rule), ensure_ascii=False, indent=2) + "\n"


# --- the worked example of a rule being composed (the rule form's, as the formulas' help pages have) ----

def _p(pid, tp, **kw):
    return PlayerResult(pid, Decimal(tp), **kw)


EXAMPLE_GAMES = (
    Game(1, 1, (_p("Anna", 62), _p("Bruno", 48), _p("Carla", 30), _p("Dario", 0, eliminated=1))),
    Game(1, 2, (_p("Elena", 40, risiko=True), _p("Fabio", 55), _p("Gino", 20), _p("Ilaria", 12))),
    Game(2, 1, (_p("Anna", 35), _p("Elena", 35), _p("Gino", 50), _p("Ilaria", 0, eliminated=1))),
    # Dario's 56 puts him level with Carla (30 + 26) under most formulas: the tie-breaks part them.
    Game(2, 2, (_p("Bruno", 60), _p("Dario", 56), _p("Fabio", 44), _p("Carla", 26))),
)


def run_example(rule: RuleDocument):
    """Eight players, two rounds (a RisiKo!, an elimination, a tie at a table, two players level on total)
    scored under `rule`, exactly as `python -m scoring` scores them with the rule document as its `params`."""
    return score_tournament(rule.formula, rule.engine_params(), EXAMPLE_GAMES)
