"""The national team championship (SCORING.md 13.10): `python -m scoring teams`, a team's best
results of its members' games."""
import json
from decimal import Decimal

import pytest

from scoring.__main__ import run
from scoring.errors import InvalidDocument
from scoring.team_championship import ChampionshipTeam, score_team_championship

from .builders import game, p

D = Decimal


def teams(doc):
    code, out, err = run(json.dumps(doc).encode("utf-8"), "teams")
    return code, (json.loads(out) if out else None), err


def rows(out):
    return [(t["rank"], t["team"], t["total"], t["played"]) for t in out["teams"]]


def one_player_rounds(values):
    """Player "a" of team R plays one game a round with table points `values`, against x, y, z."""
    return [{"round": r, "table": 1, "players": [{"id": "a", "table_points": v}, {"id": "x", "table_points": 0},
                                                 {"id": "y", "table_points": 0}, {"id": "z", "table_points": 0}]}
            for r, v in enumerate(values, 1)]


def test_the_best_9_of_12_results_count_cns_example():
    values = [12.55, 12.4, 7.41, 7.3, 5.3, 5.1, 3.2, 3.05, 2, 1, 1, 1]
    code, out, err = teams({"formula": "punti_tavolo", "games": one_player_rounds(values), "team_rule": {"best": 9},
                            "teams": [{"id": "R", "players": ["a"]}, {"id": "X", "players": ["x", "y", "z", "w"]}]})
    assert (code, err) == (0, "")
    assert out["teams"][0] == {"rank": 1, "team": "R", "total": 58.31,
                               "counted": [12.55, 12.4, 7.41, 7.3, 5.3, 5.1, 3.2, 3.05, 2.0], "played": 12}
    assert rows(out)[1] == (2, "X", 0.0, 36)
    assert len(out["games"]) == 12 and out["games"][0]["points"]["a"] == 12.55


def test_without_a_team_rule_every_result_counts():
    code, out, _ = teams({"formula": "punti_tavolo", "games": one_player_rounds([10, 5]),
                          "teams": [{"id": "R", "players": ["a"]}, {"id": "X", "players": ["x", "y", "z"]}]})
    assert code == 0 and out["teams"][0]["total"] == 15.0 and out["teams"][0]["counted"] == [10.0, 5.0]


def test_equal_totals_are_ordered_by_the_counted_results_best_first_then_shared():
    games = [game(1, 1, p("a1", 60), p("b1", 40), p("c1", 40), p("d1", 30)),
             game(1, 2, p("a2", 10), p("b2", 30), p("c2", 30), p("d2", 5))]
    cast = [ChampionshipTeam("A", ("a1", "a2")), ChampionshipTeam("B", ("b1", "b2")),
            ChampionshipTeam("C", ("c1", "c2")), ChampionshipTeam("D", ("d1", "d2"))]
    # punti_tavolo: B 40 + 30 (b2 shares first with c2), C the same; A 60 + 10.
    result = score_team_championship("punti_tavolo", None, games, [], cast)
    assert [(r.rank, r.team, r.total, r.counted) for r in result.teams] == [
        (1, "A", D(70), (D(60), D(10))), (2, "B", D(70), (D(40), D(30))), (2, "C", D(70), (D(40), D(30))),
        (4, "D", D(35), (D(30), D(5)))]


def test_a_longer_list_of_counted_results_wins_when_the_other_is_its_prefix():
    games = [game(1, 1, p("a1", 50, place=1), p("b1", 50, place=2), p("x", 1), p("y", 0, eliminated=1)),
             game(2, 1, p("a1", 0), p("x", 1), p("y", 2), p("z", 3))]
    cast = [ChampionshipTeam("B", ("b1",)), ChampionshipTeam("A", ("a1",)), ChampionshipTeam("Z", ("x", "y", "z"))]
    result = score_team_championship("punti_tavolo", None, games, [], cast)
    assert [(r.rank, r.team, r.counted) for r in result.teams][:2] == [(1, "A", (D(50), D(0))), (2, "B", (D(50),))]


def test_team_results_follow_the_formula_correctives_and_penalties():
    games = [game(1, 1, p("a1", 60, penalty=2), p("b1", 40), p("c1", 20), p("d1", 0, eliminated=1))]
    cast = [ChampionshipTeam(t, (f"{t.lower()}1",)) for t in "ABCD"]
    result = score_team_championship("standard", None, games, [], cast)
    assert [(r.team, r.total) for r in result.teams] == [("A", D("10.60")), ("B", D("7.40")), ("C", D("5.20")),
                                                         ("D", D(1))]


def test_millesimi_team_totals_show_3_decimals():
    code, out, _ = teams({"formula": "millesimi", "games": one_player_rounds([41, 50]),
                          "teams": [{"id": "R", "players": ["a"]}, {"id": "X", "players": ["x", "y", "z"]}]})
    assert code == 0 and out["teams"][0]["total"] == 2.091 and out["teams"][0]["counted"] == [1.05, 1.041]


@pytest.mark.parametrize("change, message", [
    ({"teams": [{"id": "R", "players": ["a", "x"]}, {"id": "X", "players": ["x", "y", "z"]}]},
     "player x: player x is in teams R and X"),
    ({"teams": [{"id": "R", "players": ["a"]}, {"id": "X", "players": ["x", "y"]}]},
     "round 1 table 1 player z: plays in no team"),
    ({"teams": [{"id": "R", "players": ["a"]}, {"id": "X", "players": ["x", "y", "z"]}, {"id": "E", "players": []}]},
     "team E has no players"),
    ({"teams": [{"id": "R", "players": ["a"]}, {"id": "R", "players": ["x", "y", "z"]}]}, "two teams have the id R"),
    ({"team_rule": {"best": 0}}, "team_rule best must be a whole number of at least 1"),
    ({"team_rule": {"best": 2.5}}, "team_rule best must be a whole number of at least 1"),
    ({"teams": {"R": ["a"]}}, "teams must be a list"),
    ({"formula": "bonus50", "params": {"standard_eliminated": "position"}},
     "params: standard_eliminated does not apply to the formula bonus50"),
])
def test_team_championship_errors_are_one_line(change, message):
    doc = {"formula": "standard", "games": one_player_rounds([10]),
           "teams": [{"id": "R", "players": ["a"]}, {"id": "X", "players": ["x", "y", "z"]}]}
    doc.update(change)
    assert teams(doc) == (2, None, message)


def test_a_section_9_error_is_a_team_championship_error():
    doc = {"formula": "standard", "games": one_player_rounds([-1]),
           "teams": [{"id": "R", "players": ["a"]}, {"id": "X", "players": ["x", "y", "z"]}]}
    assert teams(doc) == (2, None, "round 1 table 1 player a: table points cannot be negative")


def test_the_api_checks_the_teams_too():
    with pytest.raises(InvalidDocument):
        score_team_championship("standard", None, [], [], [ChampionshipTeam("R", ())])
