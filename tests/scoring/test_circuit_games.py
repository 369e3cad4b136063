"""A circuit of weighted game results (SCORING.md 13.11, `circuit.basis: "games"`, RCU Modena 2024)."""
import json
from decimal import Decimal

import pytest

from scoring.__main__ import run
from scoring.circuit import GamesRule, GamesTournament, PlayerGames, score_games_circuit
from scoring.errors import InvalidDocument

D = Decimal


def circuit(doc):
    code, out, err = run(json.dumps(doc).encode("utf-8"), "circuit")
    return code, (json.loads(out) if out else None), err


def test_modena_example_weighted_best_results():
    doc = {"circuit": {"basis": "games", "best_of": 2}, "tournaments": [
        {"id": "Coppa", "weight": 1, "results": [{"player": "A", "games": [200, 75]}]},
        {"id": "Open", "weight": 1.25, "results": [{"player": "A", "games": [99]}]}]}
    code, out, err = circuit(doc)
    assert (code, err) == (0, "")
    assert out == {"tournaments": [{"id": "Coppa", "points": {"A": [200.0, 75.0]}},
                                   {"id": "Open", "points": {"A": [123.75]}}],
                   "standings": [{"rank": 1, "player": "A", "total": 323.75, "counted": [200.0, 123.75],
                                  "played": 3, "tournaments": 2}],
                   "unranked": []}


def test_every_result_counts_without_best_of_and_the_weight_defaults_to_1():
    result = score_games_circuit(GamesRule(), [GamesTournament("T", (PlayerGames("A", (D(10), D(20))),))])
    assert [(r.rank, r.total, r.counted, r.played) for r in result.standings] == [(1, D(30), [D(20), D(10)], 2)]


def test_equal_totals_counted_results_best_first_then_a_shared_rank_by_id():
    doc = {"circuit": {"basis": "games"}, "tournaments": [
        {"id": "T", "results": [{"player": "C", "games": [50, 50]}, {"player": "B", "games": [50, 50]},
                                {"player": "A", "games": [90, 10]}, {"player": "D", "games": [100]}]}]}
    code, out, _ = circuit(doc)
    assert [(r["rank"], r["player"], r["total"]) for r in out["standings"]] == [
        (1, "D", 100.0), (2, "A", 100.0), (3, "B", 100.0), (3, "C", 100.0)]


def test_min_tournaments_counts_tournaments_with_a_game():
    doc = {"circuit": {"basis": "games", "min_tournaments": 2}, "tournaments": [
        {"id": "T1", "results": [{"player": "A", "games": [10]}, {"player": "B", "games": [30]}]},
        {"id": "T2", "results": [{"player": "A", "games": [5]}, {"player": "B", "games": []}]}]}
    code, out, _ = circuit(doc)
    assert out["standings"] == [{"rank": 1, "player": "A", "total": 15.0, "counted": [10.0, 5.0], "played": 2,
                                 "tournaments": 2}]
    assert out["unranked"] == [{"player": "B", "total": 30.0, "counted": [30.0], "played": 1, "tournaments": 1}]
    assert out["tournaments"][1]["points"] == {"A": [5.0], "B": []}


def test_basis_rank_is_todays_circuit():
    doc = {"circuit": {"basis": "rank", "rule": "participants"},
           "tournaments": [{"id": "T", "standings": [{"rank": 1, "player": "A"}, {"rank": 2, "player": "B"}]}]}
    code, out, _ = circuit(doc)
    assert code == 0 and [(r["player"], r["total"], r["wins"]) for r in out["standings"]] == [
        ("A", 2.0, 1), ("B", 1.0, 0)]


@pytest.mark.parametrize("change, message", [
    ({"circuit": {"basis": "games", "rule": "table"}},
     'rule belongs to a circuit of final ranks: a circuit with basis "games" has none'),
    ({"circuit": {"basis": "games", "table": [10, 5]}},
     'table belongs to a circuit of final ranks: a circuit with basis "games" has none'),
    ({"circuit": {"basis": "games", "participation": 1}},
     'participation belongs to a circuit of final ranks: a circuit with basis "games" has none'),
    ({"circuit": {"basis": "matches"}}, "unknown basis 'matches': expected one of rank, games"),
    ({"circuit": {"basis": "games", "best_of": 0}}, "best_of must be null or a whole number of at least 1"),
    ({"tournaments": [{"id": "T", "weight": 0, "results": []}]},
     "tournament T: weight must be a number greater than 0"),
    ({"tournaments": [{"id": "T", "results": [{"player": "A", "games": [-1]}]}]},
     "tournament T: player A: game 1 is negative"),
    ({"tournaments": [{"id": "T", "results": [{"player": "A", "games": ["10"]}]}]},
     "tournament T: player A: game 1 is not a number"),
    ({"tournaments": [{"id": "T", "results": [{"player": "A", "games": [1]}, {"player": "A", "games": [2]}]}]},
     "tournament T: player A is listed twice"),
    ({"tournaments": [{"id": "T", "results": []}, {"id": "T", "results": []}]}, "two tournaments have the id T"),
    ({"tournaments": [{"id": "T", "results": [{"player": "A", "games": 10}]}]},
     "tournament T: results row 1: games must be a list of numbers"),
])
def test_games_circuit_errors_are_one_line(change, message):
    doc = {"circuit": {"basis": "games"}, "tournaments": [{"id": "T", "results": [{"player": "A", "games": [1]}]}]}
    doc.update(change)
    assert circuit(doc) == (2, None, message)


def test_the_api_checks_the_games_too():
    with pytest.raises(InvalidDocument):
        score_games_circuit(GamesRule(), [GamesTournament("T", (PlayerGames("A", (D(-1),)),))])
