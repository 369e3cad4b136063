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


def test_decided_by_names_the_game_that_parts_two_equal_players():
    from scoring.qualify import decided_by
    D = Decimal
    assert decided_by([D(90), D(80), D(50)], [D(40), D(90), D(80)]) == 3     # the third-best game
    assert decided_by([D(95), D(40)], [D(95), D(30)]) == 2
    assert decided_by([D(95), D(40), D(1)], [D(40), D(95)]) == 0           # one game more
    assert decided_by([D(95)], [D(95)]) is None                           # the standings order decides
