"""A club's rule as a document (scoring/rule_document.py, docs/dev/club-rules.md): the published rules
are documents, `python -m scoring` takes a document as its params, and every worked case of
scoring_cases.json gives the same result with its formula and parameters written as a club's rule."""
import json
import time

import pytest

from scoring.__main__ import run
from scoring.errors import ScoringError
from scoring.rule_document import DEFAULT_TIEBREAK, SCHEMA, parse_rule_document, published_rules, rule_to_json

from .conftest import HERE

SCORING_CASES = json.loads((HERE / "scoring_cases.json").read_text(encoding="utf-8"))
VARIANT_CASES = [c for c in json.loads((HERE / "variant_cases.json").read_text(encoding="utf-8"))
                 if c.get("command", "scoring") == "scoring" and not c["expected"].get("error")]
RULE_PARAMS = ("discard_worst", "best_of", "como_reference", "tiebreak", "bonus", "spartaco_malus", "risiko_total",
               "corrective_scope", "spartaco_risiko_losers", "standard_eliminated")


def as_rule(case_input):
    """The case's formula and parameters written as a club's rule, given as the document's params (plain
    parameters without `tiebreak` have none; a rule without it has DEFAULT_TIEBREAK, so it says so)."""
    params = case_input.get("params") or {}
    rule = {"schema": SCHEMA, "name": "Regola del circolo", "formula": case_input["formula"],
            "params": {"tiebreak": [], **{k: v for k, v in params.items() if k in RULE_PARAMS}}}
    rest = {k: v for k, v in params.items() if k not in RULE_PARAMS}
    assert not rest, f"a case's parameter a rule cannot hold: {rest}"
    return {**{k: v for k, v in case_input.items() if k not in ("formula", "params")}, "params": rule}


def _scored(document):
    return run(json.dumps(document).encode("utf-8"))


@pytest.mark.parametrize("case", SCORING_CASES + VARIANT_CASES,
                         ids=[c["name"][:70] for c in SCORING_CASES + VARIANT_CASES])
def test_every_worked_case_scores_the_same_through_a_rule_document(case):
    if not isinstance(case["input"].get("formula"), str) or not isinstance(case["input"].get("params", {}), dict) \
            or "tournament_penalties" in (case["input"].get("params") or {}):
        pytest.skip("the case's parameters are not a rule's (a penalty, or a malformed document)")
    direct = _scored(case["input"])
    through_rule = _scored(as_rule(case["input"]))
    assert through_rule[0] == direct[0]
    if direct[0] == 0:
        assert through_rule == direct
    else:
        assert through_rule[1] == "" and through_rule[2]


def test_the_published_rules_are_the_seven_of_section_13_12_and_gestionetorneos_and_read_back_unchanged():
    """The seven of SCORING.md 13.12, then GestioneTorneo's own scoring of its types, for its workbooks."""
    rules = published_rules()
    assert [r.key for r in rules] == ["raduno_open", "master", "torneo_gufo", "campionato_gufo", "maialino_2024",
                                      "finale_2004", "campionato_squadre", "gt_raduno", "gt_master", "gt_gufo",
                                      "gt_nazionale"]
    raw = json.loads((HERE.parent.parent / "scoring" / "data" / "club_rules.json").read_text(encoding="utf-8"))
    assert [rule_to_json(r) for r in rules] == raw
    assert all(r.published and r.name.get("it") and r.name.get("en") for r in rules)


def test_a_rule_document_as_params_takes_its_formula_and_a_contradicting_formula_is_refused():
    game = {"round": 1, "table": 1, "players": [{"id": "A", "table_points": 60}, {"id": "B", "table_points": 40},
                                                {"id": "C", "table_points": 20}, {"id": "D", "eliminated": 1}]}
    rule = {"schema": SCHEMA, "name": "Finale 2004", "formula": "bonus50", "params": {"bonus": 20}}
    code, out, err = _scored({"params": rule, "games": [game]})
    assert (code, err) == (0, "")
    assert json.loads(out)["standings"][0] == {"rank": 1, "player": "A", "total": 80.0}
    code, out, err = _scored({"formula": "vittorie", "params": rule, "games": [game]})
    assert (code, out) == (2, "")
    assert err.strip() == "formula 'vittorie' contradicts the rule's formula 'bonus50'"


@pytest.mark.parametrize("change, words", [
    ({"schema": "torneo.rule/2"}, "schema must be 'torneo.rule/1'"),
    ({"colour": "red"}, "a rule document has no field 'colour'"),
    ({"formula": "f1"}, "f1"),
    ({"params": {"bonus": 50, "malus": 3}}, "params has no field 'malus'"),
    ({"params": {"como_reference": 9}}, "como_reference must be empty or a table size from 3 to 6"),
    ({"params": {"tiebreak": "wins"}}, "tiebreak must be a list of tie-break names"),
    ({"tournament": {"rounds_planned": 0}}, "rounds_planned must be a whole number from 1 to 30"),
    ({"tournament": {"tables": 4}}, "tournament has no field 'tables'"),
    ({"format": "master"}, 'format must be an object {"preset": "<format key>"}'),
    ({"format": {}}, 'format must be an object {"preset": "<format key>"}'),
    ({"format": {"preset": "master", "rounds": 4}}, "format has no field 'rounds': a rule sets preset"),
    ({"name": ""}, "name must be a text"),
    ({"key": "Master Roma"}, "key must be up to 24 lower-case letters"),
    ({"published": "sì"}, "published must be true or false"),
    ({"format": {"preset": "torneo_di_natale"}}, "unknown format 'torneo_di_natale' (known: sum3, "),
    ({"params": []}, "params must be an object"),
    ({"params": False}, "params must be an object"),
    ({"params": {"tiebreak": ["wins", "best_results", "wins"]}},
     "tiebreak names 'wins' twice: each tie-break is given once"),
    ({"name": "Coppa\x00"}, "name must not hold a NUL character or a lone surrogate"),
    ({"club": "RCU \ud800"}, "club must not hold a NUL character or a lone surrogate"),
    ({"description": {"en": "Our \x00 rule"}}, "description must not hold a NUL character or a lone surrogate"),
])
def test_a_rule_document_the_engine_cannot_read_is_refused_by_its_field(change, words):
    doc = {"schema": SCHEMA, "name": "Regola", "formula": "bonus50", "params": {}, **change}
    with pytest.raises(ScoringError) as refused:
        parse_rule_document(doc)
    assert words in refused.value.message
    code, out, err = _scored({"params": doc, "games": []})
    assert (code, out) == (2, "") and words in err


@pytest.mark.parametrize("name, low, high", [
    ("rounds_planned", 1, 30), ("table_size", 4, 5), ("dispute_window_minutes", 0, 10080)])
def test_a_tournament_setting_is_taken_at_both_of_its_bounds_and_refused_one_past_either(name, low, high):
    """Tables of 5 are a rule's as much as tables of 4: each bound is inside, one past it is outside."""
    doc = {"schema": SCHEMA, "name": "Regola", "formula": "bonus50"}
    for value in (low, high):
        assert parse_rule_document({**doc, "tournament": {name: value}}).tournament == {name: value}
    for value in (low - 1, high + 1):
        with pytest.raises(ScoringError) as refused:
            parse_rule_document({**doc, "tournament": {name: value}})
        assert (refused.value.field, refused.value.detail) == (
            name, f"{name} must be a whole number from {low} to {high}")


def test_a_format_is_kept_with_its_preset_and_an_unknown_key_under_it_is_refused_by_its_name():
    doc = {"schema": SCHEMA, "name": "Regola", "formula": "bonus50"}
    assert parse_rule_document({**doc, "format": {"preset": "master"}}).format == {"preset": "master"}
    with pytest.raises(ScoringError) as refused:
        parse_rule_document({**doc, "format": {"preset": "master", "final_tables": 1}})
    assert (refused.value.field, refused.value.detail) == (
        "final_tables", "format has no field 'final_tables': a rule sets preset")


def test_a_text_in_one_language_is_read_as_italian_and_shown_in_either():
    rule = parse_rule_document({"schema": SCHEMA, "name": "Coppa del Gufo", "formula": "standard"})
    assert rule.name == {"it": "Coppa del Gufo"}
    assert (rule.text("name", "it"), rule.text("name", "en")) == ("Coppa del Gufo", "Coppa del Gufo")


def test_a_rule_document_without_its_schema_is_said_to_miss_it_not_its_formula():
    code, out, err = _scored({"params": {"name": "Regola", "formula": "bonus50"}, "games": []})
    assert (code, out, err) == (2, "", 'rule: schema is missing: a rule document starts with "schema": "torneo.rule/1"')
    code, out, err = _scored({"params": {"name": "Regola"}, "games": []})
    assert err == 'rule: schema is missing: a rule document starts with "schema": "torneo.rule/1"'


@pytest.mark.parametrize("params", [{"tiebreak": ["wins"] * 100_000},
                                    {"schema": SCHEMA, "name": "R", "formula": "standard",
                                     "params": {"tiebreak": ["wins", "best_results"] * 50_000}}])
def test_a_hundred_thousand_tie_breaks_are_refused_at_once(params):
    games = [{"round": r, "table": 1, "players": [{"id": p, "table_points": 50} for p in "ABCD"]} for r in (1, 2)]
    document = {"params": params, "games": games, **({} if "schema" in params else {"formula": "standard"})}
    started = time.perf_counter()
    code, out, err = _scored(document)
    assert time.perf_counter() - started < 1
    where = "rule" if "schema" in params else "params"
    assert (code, out, err) == (2, "", f"{where}: tiebreak names 'wins' twice: each tie-break is given once")


def test_the_formats_a_rule_may_name_are_the_formats_the_site_builds():
    from scoring.rule_document import FORMATS
    assert sorted(FORMATS) == sorted(_site_formats())


def _site_formats():
    """The keys of tournaments.models.core.FORMAT_PRESETS, read from its source: this folder's tests run
    without Django."""
    import ast
    source = (HERE.parents[1] / "tournaments" / "models" / "core.py").read_text(encoding="utf-8")
    keys = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if getattr(target, "id", "") == "FORMAT_PRESETS":
                keys += [element.elts[0].value for element in node.value.elts]
    return keys


def _ranks(document):
    code, out, _err = _scored(document)
    assert code == 0
    return {row["player"]: row["rank"] for row in json.loads(out)["standings"]}


def test_a_rule_without_tiebreak_ranks_by_the_contract_default_on_the_command_line_and_on_the_site():
    """A and B both on 100 table points, B with the better single game (80 to 70): `python -m scoring`
    given a rule without `tiebreak` ranks B 1st and A 2nd, as a tournament filled from the rule does
    (its chain is the same default); plain parameters and a rule saying `tiebreak: []` keep them 1st and 1st."""
    from tournaments.club_presets import BASE_SETTINGS

    games = [{"round": 1, "table": 1, "players": [{"id": "A", "table_points": 70}, {"id": "B", "table_points": 20},
                                                    {"id": "C", "table_points": 10}, {"id": "D", "table_points": 0}]},
             {"round": 2, "table": 1, "players": [{"id": "A", "table_points": 30}, {"id": "B", "table_points": 80},
                                                    {"id": "C", "table_points": 10}, {"id": "D", "table_points": 0}]}]
    rule = {"schema": SCHEMA, "name": "Senza spareggi", "formula": "punti_tavolo", "params": {}}
    assert DEFAULT_TIEBREAK == ("best_results",)
    assert parse_rule_document(rule).engine_params().tiebreak == DEFAULT_TIEBREAK
    assert tuple(BASE_SETTINGS["tiebreak"].split(",")) == DEFAULT_TIEBREAK
    through_rule = _ranks({"params": rule, "games": games})
    assert (through_rule["B"], through_rule["A"]) == (1, 2)
    plain = _ranks({"formula": "punti_tavolo", "params": {}, "games": games})
    assert (plain["B"], plain["A"]) == (1, 1)
    none = _ranks({"params": dict(rule, params={"tiebreak": []}), "games": games})
    assert (none["B"], none["A"]) == (1, 1)
