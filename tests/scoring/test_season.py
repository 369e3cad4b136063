"""Season rankings composed of terms per event category (scoring/season.py, `python -m scoring season`).

Section 11's circuits and 13.11's game-result circuit are each one season rule: every worked case of
circuit_cases.json and of variant_cases.json's circuits comes out the same through the season engine.
RCU Barletta's "Giocatore dell'anno" is another rule, with the club's own numbers."""
import json

import pytest

from scoring.__main__ import run
from scoring.errors import ScoringError
from scoring.season import SCHEMA, rule_from_circuit_document

from .conftest import HERE

CIRCUIT_CASES = json.loads((HERE / "circuit_cases.json").read_text(encoding="utf-8"))
GAMES_CASES = [c for c in json.loads((HERE / "variant_cases.json").read_text(encoding="utf-8"))
               if c.get("command") == "circuit"]

BARLETTA = {
    "schema": SCHEMA,
    "name": "RCU Barletta, Giocatore dell'anno",
    "categories": {
        "master": {"terms": [{"stage": {"winner": 2000, "final": 1000, "semifinal": 500}},
                             {"per_round": 75}, {"own_points": 100}]},
        "ufficiale": {"terms": [{"per_game": 50}, {"winner_bonus": 100}]},
        "club": {"terms": [{"own_points": 1}]},
    },
}


def season(doc):
    code, out, err = run(json.dumps(doc).encode("utf-8"), "season")
    assert (code, err) == (0, ""), err
    return json.loads(out)


def refusal(doc):
    code, out, err = run(json.dumps(doc).encode("utf-8"), "season")
    assert (code, out) == (2, "")
    assert "\n" not in err.strip() and "Traceback" not in err
    return err.strip()


def refused_as_a_season(circuit_document):
    """The circuit document, read as a season, is refused: by the reading itself (a field a season
    has no place for) or by the season engine (exit 2, one line)."""
    try:
        doc = rule_from_circuit_document(circuit_document)
    except ScoringError:
        return True
    return bool(refusal(doc))


def _without(rows, *keys):
    return [{k: v for k, v in r.items() if k not in keys} for r in rows]


@pytest.mark.parametrize("case", CIRCUIT_CASES, ids=[c["name"][:70] for c in CIRCUIT_CASES])
def test_every_section_11_circuit_is_one_season_rule(case):
    if case["expected"].get("error"):
        assert refused_as_a_season(case["input"])
        return
    got = season(rule_from_circuit_document(case["input"]))
    assert [{"id": e["id"], "points": e["points"]} for e in got["events"]] == case["expected"]["tournaments"]
    (ranking,) = got["rankings"]
    assert _without(ranking["standings"], "events") == case["expected"]["standings"]
    assert _without(ranking["unranked"], "events") == case["expected"]["unranked"]


@pytest.mark.parametrize("case", GAMES_CASES, ids=[c["name"][:70] for c in GAMES_CASES])
def test_modena_s_best_game_results_are_one_season_rule(case):
    if case["expected"].get("error"):
        assert refused_as_a_season(case["input"])
        return
    got = season(rule_from_circuit_document(case["input"]))
    assert [{"id": e["id"], "points": e["points"]} for e in got["events"]] == case["expected"]["tournaments"]
    (ranking,) = got["rankings"]
    rows = [{**_without([r], "events", "wins")[0], "tournaments": r["events"]} for r in ranking["standings"]]
    assert rows == case["expected"]["standings"]


def test_barletta_master_qualifying_counts_75_a_round_and_the_millesimi_times_100():
    # A win with 50 then a loss with 41: 1.091 in the tournament, so 109.1 + 150.
    got = season({"season": BARLETTA, "events": [
        {"id": "Master", "category": "master", "results": [
            {"player": "Anna", "rank": 9, "points": 1.091, "rounds": 2}]}]})
    assert got["events"][0]["points"] == {"Anna": 259.1}


def test_barletta_master_winner_finalist_and_semifinalist_add_their_stage():
    got = season({"season": BARLETTA, "events": [
        {"id": "Master", "category": "master", "results": [
            {"player": "Anna", "rank": 1, "points": 2.05, "rounds": 2, "stage": "winner"},
            {"player": "Bruno", "rank": 2, "points": 1.5, "rounds": 2, "stage": "final"},
            {"player": "Carla", "rank": 6, "points": 1.2, "rounds": 2, "stage": "semifinal"},
            {"player": "Dario", "rank": 17, "points": 0.9, "rounds": 2}]}]})
    assert got["events"][0]["points"] == {"Anna": 2355.0, "Bruno": 1300.0, "Carla": 770.0, "Dario": 240.0}


def test_barletta_other_official_tournaments_50_a_game_and_100_more_to_the_winner():
    got = season({"season": BARLETTA, "events": [
        {"id": "Open", "category": "ufficiale", "results": [
            {"player": "Anna", "rank": 1, "games": 4}, {"player": "Bruno", "rank": 2, "games": 3}]}]})
    assert got["events"][0]["points"] == {"Anna": 300.0, "Bruno": 150.0}


def test_barletta_club_tournaments_count_their_own_points_after_discards():
    got = season({"season": BARLETTA, "events": [
        {"id": "Club 1", "category": "club", "results": [{"player": "Anna", "rank": 1, "points": 450}]},
        {"id": "Club 2", "category": "club", "results": [{"player": "Anna", "rank": 2, "points": 352},
                                                          {"player": "Bruno", "rank": 1, "points": 400}]}]})
    (ranking,) = got["rankings"]
    assert ranking["standings"][0] == {"rank": 1, "player": "Anna", "total": 802.0, "counted": [450.0, 352.0],
                                       "events": 2, "played": 2, "wins": 1}


def test_internal_and_external_lists_rank_the_same_year_apart():
    rule = {**BARLETTA, "lists": [{"name": "interna", "categories": ["club"]},
                                  {"name": "esterna", "categories": ["master", "ufficiale"]}]}
    got = season({"season": rule, "events": [
        {"id": "Club 1", "category": "club", "results": [{"player": "Anna", "rank": 1, "points": 450},
                                                         {"player": "Bruno", "rank": 2, "points": 300}]},
        {"id": "Open", "category": "ufficiale", "results": [{"player": "Bruno", "rank": 1, "games": 4}]}]})
    interna, esterna = got["rankings"]
    assert (interna["name"], [r["player"] for r in interna["standings"]]) == ("interna", ["Anna", "Bruno"])
    assert (esterna["name"], [(r["player"], r["total"]) for r in esterna["standings"]]) == ("esterna", [("Bruno", 300.0)])


def test_a_category_weight_and_an_event_weight_multiply():
    rule = {"categories": {"open": {"weight": 1.25, "terms": [{"own_points": 1}]}}}
    got = season({"season": rule, "events": [
        {"id": "O", "category": "open", "weight": 2, "results": [{"player": "A", "rank": 1, "points": 10}]}]})
    assert got["events"][0]["points"] == {"A": 25.0}


def test_best_events_counts_the_best_and_marks_them():
    rule = {"categories": {"club": {"terms": [{"own_points": 1}]}}, "count": {"unit": "events", "best": 2}}
    got = season({"season": rule, "events": [
        {"id": i, "category": "club", "results": [{"player": "A", "rank": 1, "points": p}]}
        for i, p in ((1, 10), (2, 30), (3, 20))]})
    assert got["rankings"][0]["standings"][0]["counted"] == [30.0, 20.0]
    assert got["rankings"][0]["standings"][0]["total"] == 50.0


@pytest.mark.parametrize("doc, words", [
    ({"season": {"categories": {"c": {"terms": [{"per_round": 75}]}}},
      "events": [{"id": "M", "category": "c", "results": [{"player": "A", "rank": 1}]}]},
     "event M player A: the term per_round needs rounds"),
    ({"season": {"categories": {"c": {"terms": [{"own_points": 1}]}}},
      "events": [{"id": "M", "category": "x", "results": []}]},
     "event M: unknown category 'x': the rule has c"),
    ({"season": {"categories": {"c": {"terms": [{"stage": {"final": 1000}}]}}},
      "events": [{"id": "M", "category": "c", "results": [{"player": "A", "rank": 2, "stages": "final"}]}]},
     "event M player A: a result has no field 'stages'"),
    ({"season": {"categories": {"c": {"terms": [{"own_points": 1}]}}},
      "events": [{"id": "M", "category": "c", "peso": 2, "results": []}]},
     "event M: an event has no field 'peso'"),
    ({"season": {"categories": {"c": {"terms": [{"bonus": 1}]}}}, "events": []},
     "category c: unknown term 'bonus'"),
    ({"season": {"categories": {"c": {"terms": [{"own_points": -1}]}}}, "events": []},
     "category c: own_points must be a number of at least 0"),
    ({"season": {"schema": "torneo.season/9", "categories": {}}, "events": []},
     "unknown schema 'torneo.season/9'"),
    ({"season": {"categories": {"c": {"terms": [{"own_points": 1}]}}, "count": {"unit": "games"}}, "events": []},
     'category c: a season counting games has the one term "games" in every category'),
    # a "games" term beside others, in a season counting events, would be left out unread
    ({"season": {"categories": {"c": {"terms": [{"own_points": 1}, {"games": 1}]}}}, "events": []},
     'category c: the term "games" belongs to a season counting games'),
    ({"season": {"categories": {"c": {"terms": [{"own_points": 1}]}}, "lists": [{"name": "x", "categories": ["d"]}]},
      "events": []},
     "list x names the unknown category 'd'"),
])
def test_a_rule_or_an_event_the_engine_cannot_read_is_refused_by_name(doc, words):
    assert words in refusal(doc)


def test_the_season_command_runs_as_a_process(run_cli_args):
    code, out, err = run_cli_args(["season"], json.dumps({"season": BARLETTA, "events": [
        {"id": "Club", "category": "club", "results": [{"player": "A", "rank": 1, "points": 450}]}]}))
    assert (code, err) == (0, "")
    assert json.loads(out)["rankings"][0]["standings"][0]["total"] == 450.0


def _one_result(**result):
    return {"season": {"categories": {"c": {"terms": [{"own_points": 1}, {"per_round": 5}]}}},
            "events": [{"id": "M", "category": "c", "results": [{"player": "A", "rank": 1, "points": 10, "rounds": 3,
                                                                 **result}]}]}


@pytest.mark.parametrize("doc, words", [
    # a category no list names would have its events dropped from every ranking
    ({"season": {"categories": {"c": {"terms": [{"own_points": 1}]}, "d": {"terms": [{"own_points": 1}]}},
                 "lists": [{"name": "x", "categories": ["c"]}]}, "events": []},
     "no list names the category 'd': its events would count in no ranking"),
    (_one_result(points=-5), "event M player A: points must be a number of at least 0"),
    # numbers the engine reads but whose products no longer fit the digits it shows: the field is named
    (_one_result(points=1e308), "event M player A: points must be at most 1000000"),
    (_one_result(rounds=10 ** 4000), "event M player A: rounds must be at most 1000000"),
    ({"season": {"categories": {"c": {"weight": 1e300, "terms": [{"own_points": 1}]}}}, "events": []},
     "category c: weight must be at most 1000000"),
    ({"season": {"categories": {"c": {"terms": [{"own_points": 1e300}]}}}, "events": []},
     "category c: own_points must be at most 1000000"),
])
def test_a_season_number_or_category_the_engine_would_misread_is_refused_by_name(doc, words):
    assert refusal(doc) == words


def test_a_huge_number_written_in_the_file_is_refused_by_its_field_not_as_an_internal_error():
    text = ('{"season": {"categories": {"c": {"terms": [{"own_points": 1e999999}]}}}, "events": [{"id": 1, '
            '"category": "c", "weight": 1e999999, "results": [{"player": "A", "rank": 1, "points": 1e999999}]}]}')
    assert run(text.encode(), "season") == (2, "", "category c: own_points must be at most 1000000")


def test_a_key_given_twice_in_a_season_document_is_refused_not_the_last_taken():
    text = ('{"season": {"categories": {"c": {"terms": [{"own_points": 1}]}}, '
            '"categories": {"d": {"terms": [{"own_points": 2}]}}}, "events": []}')
    assert run(text.encode(), "season") == (2, "", "invalid JSON: the key 'categories' is given twice in one object")
