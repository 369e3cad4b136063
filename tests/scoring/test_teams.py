"""SCORING.md section 7: 2vs2 match points, team standings, round robin."""
import itertools

import pytest

from scoring import InvalidResult
from scoring.teams import Pairing, TeamMatch, TeamRow, match_points, round_robin, team_standings


def test_match_points_wipeout_is_3_0():
    assert match_points(TeamMatch(1, "Rossi", "Blu", "wipeout", team="Blu")) == {"Blu": 3, "Rossi": 0}


def test_match_points_time_limit_more_territories_2_1():
    assert match_points(TeamMatch(1, "R", "B", "time", territories=(22, 20))) == {"R": 2, "B": 1}
    assert match_points(TeamMatch(1, "R", "B", "time", territories=(18, 24))) == {"R": 1, "B": 2}


def test_match_points_equal_territories_best_single_player_wins():
    m = TeamMatch(1, "R", "B", "time", territories=(21, 21), best_player_territories=(11, 12))
    assert match_points(m) == {"R": 1, "B": 2}


def test_match_points_then_territory_points():
    m = TeamMatch(1, "R", "B", "time", territories=(21, 21), best_player_territories=(12, 12),
                  territory_points=(82, 80))
    assert match_points(m) == {"R": 2, "B": 1}


def test_match_points_all_equal_is_1_1():
    m = TeamMatch(1, "R", "B", "time", territories=(21, 21), best_player_territories=(12, 12),
                  territory_points=(82, 82))
    assert match_points(m) == {"R": 1, "B": 1}


def test_match_points_risiko_loses_0_3():
    assert match_points(TeamMatch(1, "R", "B", "risiko", team="R")) == {"R": 0, "B": 3}


def test_match_points_forfeit_3_0_to_the_team_present():
    assert match_points(TeamMatch(1, "R", "B", "forfeit", team="R")) == {"R": 3, "B": 0}
    assert match_points(TeamMatch(1, "R", "B", "forfeit")) == {"R": 0, "B": 0}


@pytest.mark.parametrize("match, message", [
    (TeamMatch(1, "R", "R", "time"), "round 1 match R - R: a team cannot play itself"),
    (TeamMatch(1, "R", "B", "draw"), "round 1 match R - B: ending must be one of: wipeout, time, risiko, forfeit"),
    (TeamMatch(1, "R", "B", "wipeout"), "round 1 match R - B: a wipeout result names its team"),
    (TeamMatch(1, "R", "B", "wipeout", team="V"),
     "round 1 match R - B team V: the team named in the result does not play this match"),
    (TeamMatch(1, "R", "B", "time", territories=(30, 20)),
     "round 1 match R - B: territories must be two whole numbers from 0 adding up to at most 42"),
    (TeamMatch(1, "R", "B", "time", territories=(10, 20), best_player_territories=(11, 5)),
     "round 1 match R - B team R: a player cannot hold more territories than the team"),
])
def test_match_points_rejects_invalid_results(match, message):
    with pytest.raises(InvalidResult) as info:
        match_points(match)
    assert str(info.value) == message


def test_team_standings_three_way_tie_goes_to_territories():
    matches = [
        TeamMatch(1, "A", "B", "time", territories=(22, 20)),               # A 2, B 1
        TeamMatch(1, "C", "D", "wipeout", team="C", territories=(30, 0)),   # C 3, D 0
        TeamMatch(2, "A", "C", "time", territories=(20, 21)),               # A 1, C 2
        TeamMatch(2, "B", "D", "wipeout", team="B"),                        # B 3, D 0
        TeamMatch(3, "A", "D", "forfeit", team="A"),                        # A 3, D 0
        TeamMatch(3, "B", "C", "time", territories=(23, 19)),               # B 2, C 1
    ]
    # A, B, C all 6 points and 3 in the matches among them: total territories decide.
    assert team_standings(matches, teams=["E"]) == [
        TeamRow(1, "C", 6, 3, 70), TeamRow(2, "B", 6, 3, 43), TeamRow(3, "A", 6, 3, 42),
        TeamRow(4, "D", 0, 3, 0), TeamRow(4, "E", 0, 0, 0)]


def test_team_standings_head_to_head_comes_before_territories():
    matches = [
        TeamMatch(1, "A", "B", "time", territories=(20, 22)),   # A 1, B 2
        TeamMatch(1, "C", "D", "wipeout", team="D"),            # C 0, D 3
        TeamMatch(2, "A", "C", "time", territories=(30, 10)),   # A 2, C 1
        TeamMatch(2, "B", "D", "wipeout", team="B"),            # B 3, D 0
        TeamMatch(3, "A", "D", "wipeout", team="A"),            # A 3, D 0
        TeamMatch(3, "B", "C", "time", territories=(15, 16)),   # B 1, C 2
    ]
    assert [(r.rank, r.team, r.points, r.territories) for r in team_standings(matches)] == [
        (1, "B", 6, 37), (2, "A", 6, 50), (3, "D", 3, 0), (4, "C", 3, 26)]


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_every_pair_meets_once(count):
    teams = [f"T{i}" for i in range(count)]
    rounds = round_robin(teams)
    pairs = [frozenset(m) for r in rounds for m in r.matches]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, itertools.combinations(teams, 2))))
    assert len(rounds) == (count if count % 2 else count - 1)
    for r in rounds:
        playing = [t for m in r.matches for t in m] + ([r.bye] if r.bye else [])
        assert sorted(playing) == teams


def test_round_robin_four_teams_schedule():
    assert round_robin(["A", "B", "C", "D"]) == [
        Pairing(1, (("A", "D"), ("B", "C"))),
        Pairing(2, (("C", "A"), ("D", "B"))),
        Pairing(3, (("A", "B"), ("C", "D")))]


def test_round_robin_odd_teams_rest_once_each():
    rounds = round_robin(["A", "B", "C"])
    assert sorted(r.bye for r in rounds) == ["A", "B", "C"]


def test_team_penalties_lower_points_never_below_0_and_reorder():
    matches = [TeamMatch(1, "A", "B", "wipeout", team="A"), TeamMatch(2, "A", "C", "wipeout", team="A"),
               TeamMatch(3, "A", "D", "wipeout", team="A"), TeamMatch(1, "C", "D", "time", territories=(22, 20)),
               TeamMatch(2, "B", "D", "wipeout", team="B"), TeamMatch(3, "B", "C", "wipeout", team="B")]
    assert [(r.team, r.points) for r in team_standings(matches)][:2] == [("A", 9), ("B", 6)]
    rows = team_standings(matches, penalties={"A": 3, "D": 5})
    # A 9 - 3 = 6 ties B; A beat B head to head. D 1 - 5 stays at 0.
    assert [(r.rank, r.team, r.points) for r in rows] == [(1, "A", 6), (2, "B", 6), (3, "C", 2), (4, "D", 0)]
    rows = team_standings(matches, penalties={"A": 4})
    assert [(r.team, r.points) for r in rows][:2] == [("B", 6), ("A", 5)]
    with pytest.raises(InvalidResult):
        team_standings(matches, penalties={"A": -1})
