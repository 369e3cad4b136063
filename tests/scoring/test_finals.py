"""Parallel finals with shared ranks (SCORING.md 13.9, Raduno): `python -m scoring finals`."""
import json

import pytest

from scoring.__main__ import run
from scoring.errors import InvalidDocument, InvalidResult
from scoring.finals import finals_count, finals_standings, semifinal_groups

from .builders import game, p

FINAL_1 = [{"id": "A", "table_points": 55}, {"id": "B", "table_points": 40}, {"id": "C", "table_points": 20},
           {"id": "D", "table_points": 0, "eliminated": 1}]
FINAL_2 = [{"id": "E", "table_points": 0, "risiko": True}, {"id": "F", "table_points": 30},
           {"id": "G", "table_points": 30}, {"id": "H", "table_points": 10}]
OTHERS = [{"rank": 1, "player": "I"}, {"rank": 2, "player": "J"}, {"rank": 2, "player": "K"},
          {"rank": 4, "player": "L"}]


def finals(doc):
    code, out, err = run(json.dumps(doc).encode("utf-8"), "finals")
    return code, (json.loads(out) if out else None), err


def ranks(out):
    return [(r["rank"], r["player"], r.get("final"), r.get("place")) for r in out["standings"]]


def test_the_same_place_in_parallel_finals_is_the_same_rank():
    code, out, err = finals({"finals": [{"final": 1, "players": FINAL_1}, {"final": 2, "players": FINAL_2}],
                             "others": OTHERS})
    assert (code, err) == (0, "")
    assert ranks(out) == [
        (1, "A", 1, 1), (1, "E", 2, 1), (3, "B", 1, 2), (3, "F", 2, 2), (3, "G", 2, 2), (6, "C", 1, 3),
        (7, "D", 1, 4), (7, "H", 2, 4), (9, "I", None, None), (10, "J", None, None), (10, "K", None, None),
        (12, "L", None, None)]
    assert "groups" not in out


def test_two_finals_of_4_rank_1_1_3_3_5_5_7_7_and_the_best_other_9th():
    tables = [game(1, k, *(p(f"{k}{x}", tp) for x, tp in zip("abcd", (60, 40, 20, 10)))) for k in (1, 2)]
    rows = finals_standings(tables, [(1, "z")])
    assert [r.rank for r in rows] == [1, 1, 3, 3, 5, 5, 7, 7, 9]
    assert [r.player for r in rows] == ["1a", "2a", "1b", "2b", "1c", "2c", "1d", "2d", "z"]


def test_one_final_is_an_ordinary_final_and_the_groups_helper():
    code, out, _ = finals({"finals": [{"final": 1, "players": FINAL_1}], "others": OTHERS,
                           "semifinal_groups": {"order": list("ABCDEFGHIJ")}})
    assert code == 0
    assert [r["rank"] for r in out["standings"]] == [1, 2, 3, 4, 5, 6, 6, 8]
    assert out["groups"] == [list("ABCDEFGHIJ")]


def test_groups_take_the_first_16_per_final_by_position_modulo_the_finals():
    order = [f"S{i}" for i in range(1, 40)]
    groups = semifinal_groups(order, 2)
    assert groups[0] == [f"S{i}" for i in range(1, 33, 2)] and groups[1] == [f"S{i}" for i in range(2, 33, 2)]
    assert semifinal_groups([f"S{i}" for i in range(1, 14)], 3, 4) == [
        ["S1", "S4", "S7", "S10"], ["S2", "S5", "S8", "S11"], ["S3", "S6", "S9", "S12"]]


@pytest.mark.parametrize("participants, k", [(16, 1), (76, 1), (77, 2), (116, 2), (117, 3), (156, 3), (157, 4),
                                             (196, 4), (197, 5), (400, 5)])
def test_the_number_of_finals_follows_the_club_program_thresholds(participants, k):
    assert finals_count(participants) == k


def test_finals_may_be_listed_in_any_order():
    code, out, _ = finals({"finals": [{"final": 2, "players": FINAL_2}, {"final": 1, "players": FINAL_1}]})
    assert code == 0 and [r["rank"] for r in out["standings"]] == [1, 1, 3, 3, 3, 6, 7, 7]


@pytest.mark.parametrize("doc, message", [
    ({"finals": [{"final": 1, "players": FINAL_1}, {"final": 3, "players": FINAL_2}]},
     "finals must be numbered 1 to k, not [1, 3]"),
    ({"finals": []}, "finals must be numbered 1 to k, not []"),
    ({"finals": [{"final": 1, "players": FINAL_1}, {"final": 1, "players": FINAL_2}]}, "two finals are numbered 1"),
    ({"finals": [{"final": 1, "players": FINAL_1}, {"final": 2, "players": FINAL_1}]},
     "final 2 player A: plays in more than one final"),
    ({"finals": [{"final": 1, "players": FINAL_1}], "others": [{"rank": 1, "player": "A"}]},
     "player A: is listed twice (among the finalists or the others)"),
    ({"finals": [{"final": 1, "players": FINAL_1}], "others": [{"rank": 1, "player": "I"}, {"rank": 3, "player": "J"}]},
     "the ranks of others [1, 3] are not a competition ranking (1, 1, 3, ...)"),
    ({"finals": [{"final": 1, "players": FINAL_1}], "semifinal_groups": {"order": ["A", "B", "A"]}},
     "semifinal_groups order lists a player twice"),
    ({"finals": [{"final": 1, "players": FINAL_1[:3] + [{"id": "D", "table_points": 5, "eliminated": 1}]}]},
     "final 1 player D: eliminated players hold 0 table points"),
    ({"finals": [{"final": 1, "players": [{"id": "A", "table_points": 1}]}]},
     "final 1: a table has 3 to 6 players, this one has 1"),
    ({"finals": [{"final": 1, "players": FINAL_1}], "others": [{"rank": 1, "player": 7}]},
     "player ids must be all strings or all whole numbers"),
    ({"finals": {"final": 1}}, "finals must be a list"),
])
def test_finals_errors_are_one_line(doc, message):
    assert finals(doc) == (2, None, message)


def test_the_api_refuses_a_table_invalid_by_section_2():
    with pytest.raises(InvalidResult):
        finals_standings([game(1, 1, p("A", 10), p("B", 10, eliminated=1), p("C", 5))], [])
    with pytest.raises(InvalidDocument):
        finals_standings([game(1, 2, p("A", 10), p("B", 5), p("C", 1))], [])
