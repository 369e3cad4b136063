"""Qualification for semifinals and final with repêchage (SCORING.md section 12): every worked case
of qualify_cases.json through the engine and through `python -m scoring qualify`."""
import json
from decimal import Decimal

import pytest

from scoring.__main__ import run
from scoring.errors import InvalidDocument
from scoring.qualify import Candidate, QualifyRules, qualify

from .conftest import HERE

CASES = json.loads((HERE / "qualify_cases.json").read_text(encoding="utf-8"))


def _run(doc):
    return run(json.dumps(doc).encode("utf-8"), "qualify")


@pytest.mark.parametrize("case", CASES, ids=[c["name"][:70] for c in CASES])
def test_qualify_case(case):
    code, out, err = _run(case["input"])
    if case["expected"].get("error"):
        assert (code, out) == (2, "")
        assert err and "\n" not in err and "Traceback" not in err
    else:
        assert (code, err) == (0, "")
        assert json.loads(out) == case["expected"]


def test_cases_cover_the_rule():
    names = " ".join(c["name"] for c in CASES)
    assert len(CASES) >= 39 and "repechage" in names and "absent" in names


def test_cli_qualify_subprocess(run_cli_args):
    case = CASES[0]
    code, out, err = run_cli_args(["qualify"], json.dumps(case["input"]))
    assert (code, err) == (0, "")
    assert json.loads(out) == case["expected"]


def test_cli_qualify_bad_input_one_line(run_cli_args):
    code, out, err = run_cli_args(["qualify"], json.dumps({"qualify": {"direct": 2, "semifinal": [2, 9]},
                                                          "standings": []}))
    assert (code, out) == (2, "")
    assert err == "the semifinal range must start at rank 3 (direct + 1), not 2\n"


def test_cli_unknown_command(run_cli_args):
    code, out, err = run_cli_args(["qualifyy"], "{}")
    assert (code, out) == (2, "")
    assert err.startswith("unknown command 'qualifyy'") and err.count("\n") == 1


def C(rank, player, games, present=True):
    return Candidate(rank, player, tuple(Decimal(g) for g in games), present)


def test_repechage_reaches_below_the_range_and_skips_short_players():
    rows = [C(1, "A", [100, 90, 80]), C(2, "B", [95, 90, 80]), C(3, "C", [90, 90, 10]),
            C(4, "D", [60, 50, 40]), C(5, "E", [140, 0]), C(6, "F", [120, 1, 1])]
    q = qualify(QualifyRules(direct=1, semifinal=(2, 3), repechage_seats=1, min_games=3), rows)
    assert (q.final, q.semifinal, q.repechage, q.absent) == (["A"], ["B", "C"], ["F"], [])
    assert q.order == ["A", "B", "C", "D", "E", "F"]


def test_absent_finalist_moves_the_range_down():
    rows = [C(1, "A", [100], present=False), C(2, "B", [95]), C(3, "C", [90]), C(4, "D", [60])]
    q = qualify(QualifyRules(direct=1, semifinal=(2, 3)), rows)
    assert (q.final, q.semifinal, q.repechage, q.absent) == (["B"], ["C", "D"], [], ["A"])


def test_shared_rank_longer_list_wins_when_one_runs_out():
    rows = [C(1, "A", [100]), C(1, "B", [100, 0])]
    q = qualify(QualifyRules(direct=1), rows)
    assert q.final == ["B"]


@pytest.mark.parametrize("rows", [
    [C(1, "A", [1]), C(1, "A", [2])],
    [C(1, "A", [-1])],
    [C(1, "A", [1]), C(3, "B", [1])],
    [C(2, "A", [1])],
])
def test_invalid_candidates(rows):
    with pytest.raises(InvalidDocument):
        qualify(QualifyRules(direct=1), rows)


def test_semifinal_tables_sized_from_the_seats():
    from scoring.qualify import semifinal_seating, semifinal_sizes
    assert semifinal_sizes(8, 2) == [4, 4]
    assert semifinal_sizes(12, 3) == [4, 4, 4]
    assert semifinal_sizes(11, 3) == [4, 4, 3]
    tables = semifinal_seating(list(range(1, 12)), 3)
    assert sorted(len(t) for t in tables) == [3, 4, 4]
    assert tables == [[1, 6, 7], [2, 5, 8, 11], [3, 4, 9, 10]]
    assert semifinal_seating(list(range(1, 13)), 3) == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]


def test_rules_by_number_of_participants():
    from scoring.qualify import Tier, rules_for
    two = QualifyRules(direct=2, semifinal=(3, 9), repechage_seats=1, min_games=3)
    one = QualifyRules(direct=1, semifinal=(2, 12), repechage_seats=1, min_games=3)
    tiers = [Tier(24, two), Tier(None, one)]
    assert rules_for(tiers, 24) is two and rules_for(tiers, 25) is one and rules_for(tiers, 3) is two


@pytest.mark.parametrize("rules,size,ok", [
    (QualifyRules(direct=2, semifinal=(3, 9), repechage_seats=1), 4, True),
    (QualifyRules(direct=1, semifinal=(2, 12), repechage_seats=1), 4, True),
    (QualifyRules(direct=1, semifinal=(2, 12)), 4, True),
    (QualifyRules(direct=4), 4, True),
    (QualifyRules(direct=4, repechage_seats=1), 5, True),
    (QualifyRules(direct=4, repechage_seats=1), 4, False),
    (QualifyRules(direct=4, semifinal=(5, 8)), 4, False),
    (QualifyRules(direct=2, semifinal=(3, 4)), 4, False),
    (QualifyRules(direct=0, semifinal=(1, 30)), 4, False),
])
def test_composition_checked(rules, size, ok):
    from scoring.qualify import Tier, check_composition
    if ok:
        check_composition([Tier(None, rules)], size)
    else:
        with pytest.raises(InvalidDocument):
            check_composition([Tier(None, rules)], size)


# Conditional direct final (SCORING.md 13.8, Master rules) -----------------------------------------

MASTER = QualifyRules(semifinal=(1, 16), unbeaten_semifinal=(2, 13))


def W(rank, player, games, wins, present=True):
    return Candidate(rank, player, tuple(Decimal(g) for g in games), present, wins)


def field_of(leader_games, leader_wins, size=20, leader_present=True):
    """A leader, then players ranked 2..size with two games each."""
    return [W(1, "P01", leader_games, leader_wins, leader_present)] + [
        W(i, f"P{i:02d}", [100 - i, 5], 1 if i < 7 else 0) for i in range(2, size + 1)]


def test_a_sole_unbeaten_leader_goes_straight_to_the_final():
    q = qualify(MASTER, field_of([106, 105], 2))
    assert q.final == ["P01"] and q.semifinal == [f"P{i:02d}" for i in range(2, 14)]
    assert (q.repechage, q.absent, q.direct_if_unbeaten) == ([], [], True)


def test_a_leader_who_lost_a_game_plays_the_semifinals():
    q = qualify(MASTER, field_of([106, 5], 1))
    assert q.final == [] and q.semifinal == [f"P{i:02d}" for i in range(1, 17)]
    assert q.direct_if_unbeaten is False


def test_two_leaders_sharing_rank_1_play_the_semifinals():
    rows = [W(1, "A", [106, 105], 2), W(1, "B", [107, 104], 2)] + [
        W(i, f"P{i:02d}", [80 - i, 5], 1) for i in range(3, 21)]
    q = qualify(MASTER, rows)
    assert (q.final, q.semifinal[:3], len(q.semifinal), q.direct_if_unbeaten) == ([], ["B", "A", "P03"], 16, False)


def test_an_absent_leader_does_not_go_to_the_final():
    q = qualify(MASTER, field_of([106, 105], 2, leader_present=False))
    assert (q.final, q.absent, q.direct_if_unbeaten) == ([], ["P01"], False)
    assert q.semifinal == [f"P{i:02d}" for i in range(2, 18)]


def test_a_leader_with_fewer_games_than_the_others_is_not_unbeaten():
    q = qualify(MASTER, field_of([106], 1))
    assert (q.final, q.direct_if_unbeaten) == ([], False)


def test_nobody_is_unbeaten_before_any_game():
    rows = [W(1, "A", [], 0), W(2, "B", [], 0)]
    assert qualify(MASTER, rows).direct_if_unbeaten is False


def test_the_unbeaten_leaders_plan_keeps_the_absent_rule_and_the_repechage():
    rows = field_of([106, 105], 2)
    rows[4] = W(5, "P05", [95, 5], 1, present=False)
    rules = QualifyRules(semifinal=(1, 16), unbeaten_semifinal=(2, 13), repechage_seats=1, min_games=2)
    q = qualify(rules, rows)
    assert q.final == ["P01"] and q.absent == ["P05"]
    assert q.semifinal == ["P02", "P03", "P04"] + [f"P{i:02d}" for i in range(6, 15)]
    assert q.repechage == ["P15"]


def test_the_output_tells_whether_the_leader_was_unbeaten_only_when_asked():
    doc = {"qualify": {"semifinal": [1, 2], "direct_if_unbeaten": {"semifinal": [2, 2]}},
           "standings": [{"rank": 1, "player": "A", "games": [100, 90], "wins": 2},
                         {"rank": 2, "player": "B", "games": [80, 70], "wins": 0},
                         {"rank": 3, "player": "C", "games": [60, 50]}]}
    code, out, err = _run(doc)
    assert (code, err) == (0, "")
    assert json.loads(out) == {"final": ["A"], "semifinal": ["B"], "repechage": [], "absent": [],
                               "direct_if_unbeaten": True}
    del doc["qualify"]["direct_if_unbeaten"]
    assert json.loads(_run(doc)[1]) == {"final": [], "semifinal": ["A", "B"], "repechage": [], "absent": []}


@pytest.mark.parametrize("qualify_doc, wins, message", [
    ({"direct": 1, "semifinal": [2, 16], "direct_if_unbeaten": {"semifinal": [2, 13]}}, 2,
     "direct_if_unbeaten needs direct 0 (the leader goes to the final only when unbeaten), not 1"),
    ({"semifinal": [1, 16], "direct_if_unbeaten": {"semifinal": [3, 13]}}, 2,
     "direct_if_unbeaten: the semifinal range must be [2, b] with b of at least 2, not [3, 13]"),
    ({"semifinal": [1, 16], "direct_if_unbeaten": {"semifinal": [2, 1]}}, 2,
     "direct_if_unbeaten: the semifinal range must be [2, b] with b of at least 2, not [2, 1]"),
    ({"semifinal": [1, 16], "direct_if_unbeaten": [2, 13]}, 2,
     'direct_if_unbeaten must be an object {"semifinal": [2, b]}'),
    ({"semifinal": [1, 16], "direct_if_unbeaten": {"semifinal": [2, 13]}}, 3,
     "player A: wins must be a whole number from 0 to the number of games (2)"),
    ({"semifinal": [1, 16]}, -1, "player A: wins must be a whole number from 0 to the number of games (2)"),
    ({"semifinal": [1, 16]}, 1.5, "player A: wins must be a whole number"),
])
def test_conditional_direct_final_errors(qualify_doc, wins, message):
    doc = {"qualify": qualify_doc, "standings": [{"rank": 1, "player": "A", "games": [100, 90], "wins": wins}]}
    assert _run(doc) == (2, "", message)


def test_decided_by_names_the_game_that_parts_two_equal_players():
    from scoring.qualify import decided_by
    D = Decimal
    assert decided_by([D(90), D(80), D(50)], [D(40), D(90), D(80)]) == 3     # the third-best game
    assert decided_by([D(95), D(40)], [D(95), D(30)]) == 2
    assert decided_by([D(95), D(40), D(1)], [D(40), D(95)]) == 0           # one game more
    assert decided_by([D(95)], [D(95)]) is None                           # the standings order decides
