"""A forfeit (sconfitta a tavolino) is an absence (SCORING.md section 5), under every formula.

Cases are written as the documents of scoring_cases.json: the optional `"void": true` of a player
marks the forfeited game."""
import json

import pytest

from scoring import FORMULAS, InvalidResult
from scoring.contract import loads, parse_document, result_to_json
from scoring.engine import score_tournament

TABLE = [{"id": "A", "table_points": 130}, {"id": "B", "table_points": 20}, {"id": "C", "table_points": 10},
         {"id": "D", "eliminated": 1}]
ROUND_2 = [{"id": "A", "table_points": 10}, {"id": "B", "table_points": 20}, {"id": "C", "table_points": 30},
           {"id": "D", "table_points": 40}]


def _doc(formula, first, params=None, absences=None):
    doc = {"formula": formula, "games": [{"round": 1, "table": 1, "players": first},
                                         {"round": 2, "table": 1, "players": ROUND_2}]}
    if params:
        doc["params"] = params
    if absences:
        doc["absences"] = absences
    return doc


def _run(doc):
    formula, params, games, absences = parse_document(loads(json.dumps(doc)))
    return score_tournament(formula, params, games, absences=absences)


def _forfeit(player, table=TABLE):
    return [dict(p, void=True) if p["id"] == player else p for p in table]


# One case per formula (SCORING.md section 4): the forfeited result is 0, never below (spartaco), and
# the other players of the table keep what the game gave them.
CASES = [
    {"name": "spartaco: a forfeited eliminated player 130 TP behind the winner scores 0, not -30",
     "input": _doc("spartaco", _forfeit("D")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 230.0, "B": -10.0, "C": -20.0, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 140.0, "C": 90.0, "B": 80.0, "A": 70.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 300.0},
                                {"rank": 2, "player": "D", "total": 140.0},
                                {"rank": 3, "player": "B", "total": 70.0},
                                {"rank": 3, "player": "C", "total": 70.0}]}},
    {"name": "vittorie: a forfeited winner keeps no win",
     "input": _doc("vittorie", _forfeit("A")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 0.0, "B": 20.0, "C": 10.0, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 90.0, "C": 30.0, "B": 20.0, "A": 10.0}}],
                  "standings": [{"rank": 1, "player": "D", "total": 90.0, "wins": 1},
                                {"rank": 2, "player": "B", "total": 40.0, "wins": 0},
                                {"rank": 2, "player": "C", "total": 40.0, "wins": 0},
                                {"rank": 4, "player": "A", "total": 10.0, "wins": 0}]}},
    {"name": "medagliere: a forfeited game adds no medal",
     "input": _doc("medagliere", _forfeit("B")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 130.0, "B": 0.0, "C": 10.0, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 40.0, "C": 30.0, "B": 20.0, "A": 10.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 140.0, "medals": [1, 0, 0, 1, 0]},
                                {"rank": 1, "player": "D", "total": 40.0, "medals": [1, 0, 0, 1, 0]},
                                {"rank": 3, "player": "C", "total": 40.0, "medals": [0, 1, 1, 0, 0]},
                                {"rank": 4, "player": "B", "total": 20.0, "medals": [0, 0, 1, 0, 0]}]}},
    {"name": "conversione150 with discard_worst 1: the forfeit is the discarded result",
     "input": _doc("conversione150", _forfeit("C"), params={"discard_worst": 1}),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 151.1, "B": 80.0, "C": 0.0, "D": 10.0}},
                            {"round": 2, "table": 1, "points": {"D": 150.1, "C": 90.0, "B": 60.0, "A": 40.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 151.1},
                                {"rank": 2, "player": "D", "total": 150.1},
                                {"rank": 3, "player": "C", "total": 90.0},
                                {"rank": 4, "player": "B", "total": 80.0}]}},
    {"name": "bonus50: the runner-up's forfeited game scores 0, the table keeps its points",
     "input": _doc("bonus50", _forfeit("B")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 180.0, "B": 0.0, "C": 10.0, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 90.0, "C": 30.0, "B": 20.0, "A": 10.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 190.0},
                                {"rank": 2, "player": "D", "total": 90.0},
                                {"rank": 3, "player": "C", "total": 40.0},
                                {"rank": 4, "player": "B", "total": 20.0}]}},
    {"name": "conversione200: the runner-up's forfeited game scores 0, the table keeps its points",
     "input": _doc("conversione200", _forfeit("B")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 201.1, "B": 0.0, "C": 60.0, "D": 10.0}},
                            {"round": 2, "table": 1, "points": {"D": 200.1, "C": 90.0, "B": 60.0, "A": 40.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 241.1},
                                {"rank": 2, "player": "D", "total": 210.1},
                                {"rank": 3, "player": "C", "total": 150.0},
                                {"rank": 4, "player": "B", "total": 60.0}]}},
    {"name": "faentino: the runner-up's forfeited game scores 0, the table keeps its points",
     "input": _doc("faentino", _forfeit("B")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 100.0, "B": 0.0, "C": 10.0, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 100.0, "C": 50.0, "B": 10.0, "A": 10.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 110.0},
                                {"rank": 2, "player": "D", "total": 100.0},
                                {"rank": 3, "player": "C", "total": 60.0},
                                {"rank": 4, "player": "B", "total": 10.0}]}},
    {"name": "millesimi: a forfeited winner keeps no unit, and the results show thousandths",
     "input": _doc("millesimi", _forfeit("A")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 0.0, "B": 0.02, "C": 0.01, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 1.04, "C": 0.03, "B": 0.02, "A": 0.01}}],
                  "standings": [{"rank": 1, "player": "D", "total": 1.04},
                                {"rank": 2, "player": "B", "total": 0.04},
                                {"rank": 2, "player": "C", "total": 0.04},
                                {"rank": 4, "player": "A", "total": 0.01}]}},
    {"name": "maialino_2024: a forfeited survivor 120 TP behind the winner scores 0, not -20",
     "input": _doc("maialino_2024", _forfeit("C")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 200.0, "B": -10.0, "C": 0.0, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 200.0, "C": 90.0, "B": 80.0, "A": 70.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 270.0},
                                {"rank": 2, "player": "D", "total": 200.0},
                                {"rank": 3, "player": "C", "total": 90.0},
                                {"rank": 4, "player": "B", "total": 70.0}]}},
    {"name": "maialino: the runner-up's forfeited game scores 0, the table keeps its points",
     "input": _doc("maialino", _forfeit("B")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 125.0, "B": 0.0, "C": 10.0, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 80.0, "C": 25.0, "B": 15.0, "A": 5.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 130.0},
                                {"rank": 2, "player": "D", "total": 80.0},
                                {"rank": 3, "player": "C", "total": 35.0},
                                {"rank": 4, "player": "B", "total": 15.0}]}},
    {"name": "punti_tavolo: the runner-up's forfeited game scores 0, the table keeps its points",
     "input": _doc("punti_tavolo", _forfeit("B")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 130.0, "B": 0.0, "C": 10.0, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 40.0, "C": 30.0, "B": 20.0, "A": 10.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 140.0},
                                {"rank": 2, "player": "C", "total": 40.0},
                                {"rank": 2, "player": "D", "total": 40.0},
                                {"rank": 4, "player": "B", "total": 20.0}]}},
    {"name": "standard: the runner-up's forfeited game scores 0, the table keeps its points",
     "input": _doc("standard", _forfeit("B")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 13.3, "B": 0.0, "C": 5.1, "D": 1.0}},
                            {"round": 2, "table": 1, "points": {"D": 12.4, "C": 7.3, "B": 5.2, "A": 3.1}}],
                  "standings": [{"rank": 1, "player": "A", "total": 16.4},
                                {"rank": 2, "player": "D", "total": 13.4},
                                {"rank": 3, "player": "C", "total": 12.4},
                                {"rank": 4, "player": "B", "total": 5.2}]}},
    {"name": "triestino: the runner-up's forfeited game scores 0, the table keeps its points",
     "input": _doc("triestino", _forfeit("B")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 325.0, "B": 0.0, "C": 25.0, "D": 0.0}},
                            {"round": 2, "table": 1, "points": {"D": 160.0, "C": 120.0, "B": 80.0, "A": 40.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 365.0, "wins": 1},
                                {"rank": 2, "player": "D", "total": 160.0, "wins": 1},
                                {"rank": 3, "player": "C", "total": 145.0, "wins": 0},
                                {"rank": 4, "player": "B", "total": 80.0, "wins": 0}]}},
    {"name": "veronese: the runner-up's forfeited game scores 0, the table keeps its points",
     "input": _doc("veronese", _forfeit("B")),
     "expected": {"games": [{"round": 1, "table": 1, "points": {"A": 230.0, "B": 0.0, "C": 50.0, "D": 20.0}},
                            {"round": 2, "table": 1, "points": {"D": 140.0, "C": 90.0, "B": 60.0, "A": 30.0}}],
                  "standings": [{"rank": 1, "player": "A", "total": 260.0},
                                {"rank": 2, "player": "D", "total": 160.0},
                                {"rank": 3, "player": "C", "total": 140.0},
                                {"rank": 4, "player": "B", "total": 60.0}]}},
]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_forfeit_case_python_api(case):
    out = json.loads(json.dumps(result_to_json(_run(case["input"]))))
    assert out == case["expected"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_forfeit_case_cli(case, run_cli):
    code, stdout, stderr = run_cli(json.dumps(case["input"]))
    assert (code, stderr) == (0, "")
    assert json.loads(stdout) == case["expected"]


@pytest.mark.parametrize("formula", sorted(FORMULAS))
@pytest.mark.parametrize("player", ["A", "B", "D"])
def test_forfeit_scores_like_an_absence_under_every_formula(formula, player):
    forfeited = _run(_doc(formula, _forfeit(player)))
    played = _run(_doc(formula, TABLE))
    absent = _run(_doc(formula, [p for p in TABLE if p["id"] != player] + [{"id": "E", "table_points": 5}],
                       absences=[{"round": 1, "player": player}]))
    # The forfeited game scores 0 for that player, whatever the formula gave (even below 0) ...
    assert forfeited.games[0].points[player] == 0
    # ... the others keep the points of the game as it was played ...
    assert {p: v for p, v in forfeited.games[0].points.items() if p != player} == \
        {p: v for p, v in played.games[0].points.items() if p != player}
    # ... and the player's row is that of a player absent in round 1.
    row = next(r for r in forfeited.standings if r.player == player)
    absent_row = next(r for r in absent.standings if r.player == player)
    assert (row.total, row.wins, row.medals, row.results, row.games, row.table_points) == \
        (absent_row.total, absent_row.wins, absent_row.medals, absent_row.results, absent_row.games,
         absent_row.table_points)


def test_void_must_be_true_or_false():
    with pytest.raises(InvalidResult) as exc:
        _run(_doc("spartaco", [dict(TABLE[0], void="yes")] + TABLE[1:]))
    assert (exc.value.code, exc.value.field, exc.value.player) == ("void_type", "void", "A")


def test_a_forfeit_case_for_every_formula():
    assert sorted({case["input"]["formula"] for case in CASES}) == sorted(FORMULAS)
