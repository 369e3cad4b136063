"""The formulas of club variants: millesimi (SCORING.md 13.4, Master / Victory) and maialino_2024
(13.5, RCU Modena 2024). Expected values are worked out by hand from the rules and their sources."""
import json
from decimal import Decimal

import pytest

from scoring import FORMULAS, InvalidParams, InvalidResult, Params, score_game, score_tournament
from scoring.__main__ import run

from .builders import game, p, running_example

D = Decimal


def scored(formula, g, **params):
    return score_game(formula, g, Params(**params)).points


def cli(doc):
    code, out, err = run(json.dumps(doc).encode("utf-8"))
    return code, (json.loads(out) if out else None), err


# millesimi ----------------------------------------------------------------------------------------

def test_millesimi_a_win_with_50_at_a_4_player_table_is_1_050():
    g = game(1, 1, p("Carlo", 50), p("B", 41), p("C", 20), p("D", 10))
    assert scored("millesimi", g) == {"Carlo": D("1.050"), "B": D("0.041"), "C": D("0.020"), "D": D("0.010")}


def test_millesimi_scales_a_5_player_table_by_1_25_and_rounds_up():
    g = game(1, 1, p("A", 60), p("B", 21), p("C", 20), p("D", 12), p("E", 0, eliminated=1))
    assert scored("millesimi", g) == {"A": D("1.075"), "B": D("0.027"), "C": D("0.025"), "D": D("0.015"),
                                      "E": D(0)}


def test_millesimi_caps_a_5_player_table_at_100_table_points():
    g = game(1, 1, p("A", 83), p("B", 79), p("C", 33), p("D", 1), p("E", 0, eliminated=1))
    assert scored("millesimi", g) == {"A": D("1.100"), "B": D("0.099"), "C": D("0.042"), "D": D("0.002"),
                                      "E": D(0)}
    capped = game(1, 1, p("A", 86), p("B", 80), p("C", 33), p("D", 1), p("E", 0, eliminated=1))
    assert scored("millesimi", capped)["A"] == D("1.100") and scored("millesimi", capped)["B"] == D("0.100")


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_millesimi_risiko_is_1_100_at_every_table_size(size):
    others = [p(f"P{i}", 10 * i) for i in range(1, size)]
    assert scored("millesimi", game(1, 1, p("A", 37, risiko=True), *others))["A"] == D("1.100")


def test_millesimi_leaves_3_and_6_player_tables_unscaled():
    six = game(1, 1, p("A", 90), p("B", 50), p("C", 30), p("D", 20), p("E", 10), p("F", 0, eliminated=1))
    three = game(1, 1, p("A", 90), p("B", 85), p("C", 0, eliminated=1))
    assert scored("millesimi", six) == {"A": D("1.090"), "B": D("0.050"), "C": D("0.030"), "D": D("0.020"),
                                        "E": D("0.010"), "F": D(0)}
    assert scored("millesimi", three) == {"A": D("1.090"), "B": D("0.085"), "C": D(0)}


def test_millesimi_everyone_tied_on_top_gets_the_unit_unless_the_table_settled_it():
    tie = game(1, 1, p("A", 44), p("B", 44), p("C", 30), p("D", 12))
    assert scored("millesimi", tie) == {"A": D("1.044"), "B": D("1.044"), "C": D("0.030"), "D": D("0.012")}
    settled = game(1, 1, p("A", 44, place=2), p("B", 44, place=1), p("C", 30), p("D", 12))
    assert scored("millesimi", settled) == {"B": D("1.044"), "A": D("0.044"), "C": D("0.030"), "D": D("0.012")}


def test_millesimi_does_not_truncate_table_points_with_decimals():
    g = game(1, 1, p("A", 50), p("B", D("41.5")), p("C", 20), p("D", 10))
    assert scored("millesimi", g)["B"] == D("0.042")


def test_millesimi_penalties_are_in_thousandths_units():
    g = game(1, 1, p("A", 50, penalty=D("0.05")), p("B", 41, penalty=1), p("C", 20), p("D", 10))
    assert scored("millesimi", g) == {"A": D("1.000"), "B": D(0), "C": D("0.020"), "D": D("0.010")}


def test_millesimi_barletta_2022_two_rounds_add_to_1_091_shown_with_3_decimals():
    doc = {"formula": "millesimi", "games": [
        {"round": 1, "table": 1, "players": [{"id": "Carlo", "table_points": 50}, {"id": "x1", "table_points": 41},
                                             {"id": "x2", "table_points": 20}, {"id": "x3", "table_points": 10}]},
        {"round": 2, "table": 1, "players": [{"id": "y1", "table_points": 60}, {"id": "Carlo", "table_points": 41},
                                             {"id": "y2", "table_points": 21}, {"id": "y3", "table_points": 10}]}]}
    code, out, err = cli(doc)
    assert (code, err) == (0, "")
    assert out["games"][1]["points"] == {"y1": 1.06, "Carlo": 0.041, "y2": 0.021, "y3": 0.01}
    assert [(r["rank"], r["player"], r["total"]) for r in out["standings"]] == [
        (1, "Carlo", 1.091), (2, "y1", 1.06), (3, "x1", 0.041), (4, "y2", 0.021), (5, "x2", 0.02),
        (6, "x3", 0.01), (6, "y3", 0.01)]


def test_millesimi_totals_are_compared_with_3_decimals():
    # 0.044 and 0.043 would be equal as 2 decimals (0.04): under millesimi B is ahead of A.
    g = game(1, 1, p("W", 60), p("B", 44), p("A", 43), p("Z", 0, eliminated=1))
    rows = score_tournament("millesimi", None, [g]).standings
    assert [(r.rank, r.player, r.shown_total) for r in rows] == [
        (1, "W", D("1.060")), (2, "B", D("0.044")), (3, "A", D("0.043")), (4, "Z", D("0.000"))]


def test_millesimi_master_tie_breaks_best_results_then_previous_round():
    games = [game(1, 1, p("A", 60), p("B", 40), p("C", 30), p("D", 10)),
             game(2, 1, p("B", 60), p("A", 40), p("C", 30), p("D", 10))]
    rows = score_tournament("millesimi", Params(tiebreak=("best_results", "previous_round")), games).standings
    assert [(r.rank, r.player, r.total) for r in rows][:2] == [(1, "A", D("1.100")), (2, "B", D("1.100"))]


def test_millesimi_refuses_the_como_corrective():
    with pytest.raises(InvalidParams) as exc:
        score_tournament("millesimi", Params(como_reference=4), [running_example()])
    assert str(exc.value) == "params: como_reference does not apply to the formula millesimi"
    assert FORMULAS["millesimi"].decimals == 3 and not FORMULAS["millesimi"].corrective


# maialino_2024 ------------------------------------------------------------------------------------

def test_maialino_2024_published_example():
    g = game(1, 1, p("Annalisa", 20), p("Marco", 23), p("Luigi", 44), p("Franco", 45))
    assert scored("maialino_2024", g) == {"Franco": D(200), "Luigi": D(99), "Marco": D(78), "Annalisa": D(75)}


def test_maialino_2024_risiko_gives_201_and_the_others_their_own_table_points():
    g = game(1, 1, p("A", 30, risiko=True), p("B", 41), p("C", 0), p("D", 0, eliminated=1), p("E", 12))
    assert scored("maialino_2024", g) == {"A": D(201), "B": D(41), "E": D(12), "C": D(0), "D": D(0)}


def test_maialino_2024_a_survivor_on_0_table_points_still_gets_100_minus_the_gap():
    g = game(1, 1, p("A", 52), p("B", 0), p("C", 0, eliminated=1))
    assert scored("maialino_2024", g) == {"A": D(200), "B": D(48), "C": D(0)}


def test_maialino_2024_ties_below_the_top_get_equal_points():
    g = game(1, 1, p("A", 50), p("B", 30), p("C", 30), p("D", 0, eliminated=1))
    assert scored("maialino_2024", g) == {"A": D(200), "B": D(80), "C": D(80), "D": D(0)}


def test_maialino_2024_a_tie_for_first_settled_at_the_table():
    g = game(1, 1, p("A", 44, place=2), p("B", 44, place=1), p("C", 30), p("D", 12))
    assert scored("maialino_2024", g) == {"B": D(200), "A": D(100), "C": D(86), "D": D(68)}


def test_maialino_2024_refuses_a_tie_for_first_left_unsettled():
    g = game(3, 2, p("A", 44), p("B", 44), p("C", 30), p("D", 12))
    with pytest.raises(InvalidResult) as exc:
        score_tournament("maialino_2024", None, [g])
    assert (exc.value.code, exc.value.round, exc.value.table, exc.value.player, exc.value.field) == (
        "winner_tie", 3, 2, "A", "place")
    assert str(exc.value) == ("round 3 table 2 player A: a tie for first place must be settled by place: "
                              "maialino_2024 has one winner (tied with B)")
    with pytest.raises(InvalidResult):
        FORMULAS["maialino_2024"].points(g)
    doc = {"formula": "maialino_2024", "games": [{"round": 3, "table": 2, "players": [
        {"id": "A", "table_points": 44}, {"id": "B", "table_points": 44}, {"id": "C", "table_points": 30},
        {"id": "D", "table_points": 12}]}]}
    assert cli(doc) == (2, None, "round 3 table 2 player A: a tie for first place must be settled by place: "
                                 "maialino_2024 has one winner (tied with B)")


def test_maialino_2024_coppa_counts_the_best_results():
    games = [game(1, 1, p("A", 45), p("B", 44), p("C", 23), p("D", 20)),
             game(2, 1, p("B", 50), p("A", 10), p("D", 0, eliminated=1), p("C", 30))]
    rows = score_tournament("maialino_2024", Params(best_of=1), games).standings
    assert [(r.rank, r.player, r.total) for r in rows] == [
        (1, "A", D(200)), (1, "B", D(200)), (3, "C", D(80)), (4, "D", D(75))]


def test_maialino_2024_takes_the_como_corrective_on_its_points():
    g = game(1, 1, p("A", 45), p("B", 44), p("C", 23))
    assert scored("maialino_2024", g, como_reference=4) == {"A": D(150), "B": D("74.25"), "C": D("58.5")}
