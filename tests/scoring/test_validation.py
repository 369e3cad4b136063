"""SCORING.md section 2: every validation rule gives one exact message naming round, table and
player, plus the field at fault."""
from decimal import Decimal

import pytest

from scoring import Game, InvalidResult, PlayerResult, score_tournament
from scoring.validation import check_game

from .builders import game, p


def error_of(g):
    with pytest.raises(InvalidResult) as info:
        g.placement
    return info.value


def four(*overrides, round_=2, table=3):
    players = {"A": p("A", 40), "B": p("B", 30), "C": p("C", 20), "D": p("D", 10)}
    for o in overrides:
        players[o.id] = o
    return game(round_, table, *players.values())


def test_validation_accepts_the_running_example():
    entries = check_game(four(p("D", 0, eliminated=1)))
    assert [(e.player, e.tp, e.eliminated) for e in entries] == [
        ("A", 40, None), ("B", 30, None), ("C", 20, None), ("D", 0, 1)]


@pytest.mark.parametrize("count", [2, 7])
def test_validation_rejects_table_size(count):
    g = game(2, 3, *(p(f"P{i}", 10) for i in range(count)))
    err = error_of(g)
    assert str(err) == f"round 2 table 3: a table has 3 to 6 players, this one has {count}"
    assert (err.field, err.player, err.code) == ("players", None, "table_size")


@pytest.mark.parametrize("count", [3, 6])
def test_validation_accepts_tables_of_3_and_6(count):
    g = game(1, 1, *(p(f"P{i}", 10 * i) for i in range(count)))
    assert g.placement.n == count


def test_validation_rejects_repeated_player():
    err = error_of(game(2, 3, p("A", 40), p("B", 30), p("A", 20), p("D", 10)))
    assert str(err) == "round 2 table 3 player A: listed twice at the same table"
    assert (err.field, err.player, err.round, err.table) == ("id", "A", 2, 3)


def test_validation_rejects_negative_table_points():
    err = error_of(four(p("B", -1)))
    assert str(err) == "round 2 table 3 player B: table points cannot be negative"
    assert (err.field, err.player, err.code) == ("table_points", "B", "table_points_negative")


def test_validation_rejects_table_points_above_200():
    err = error_of(four(p("C", "200.01")))
    assert str(err) == "round 2 table 3 player C: table points cannot exceed 200"
    assert err.field == "table_points"


def test_validation_accepts_200_table_points():
    assert four(p("A", 200)).placement.winner_tp == 200


def test_validation_rejects_three_decimals():
    err = error_of(four(p("A", "40.125")))
    assert str(err) == "round 2 table 3 player A: table points have at most 2 decimals"
    assert err.code == "table_points_decimals"


def test_validation_accepts_trailing_zero_decimals():
    assert four(p("A", "40.500")).placement.winner_tp == Decimal("40.5")


@pytest.mark.parametrize("value", ["40", None, True, [1]])
def test_validation_rejects_table_points_that_are_not_numbers(value):
    err = error_of(four(PlayerResult("A", value)))
    assert str(err) == "round 2 table 3 player A: table points must be a number"


@pytest.mark.parametrize("value", [Decimal("NaN"), Decimal("Infinity"), float("inf")])
def test_validation_rejects_table_points_not_finite(value):
    err = error_of(four(PlayerResult("A", value)))
    assert str(err) == "round 2 table 3 player A: table points must be a finite number"


def test_validation_rejects_two_risiko():
    err = error_of(four(p("A", 40, risiko=True), p("C", 20, risiko=True)))
    assert str(err) == "round 2 table 3 player C: only one player per table can make RisiKo!"
    assert (err.field, err.player, err.code) == ("risiko", "C", "risiko_twice")


def test_validation_rejects_risiko_player_eliminated():
    err = error_of(four(p("C", 0, risiko=True, eliminated=1)))
    assert str(err) == "round 2 table 3 player C: the RisiKo! player cannot be eliminated"
    assert err.field == "eliminated"


def test_validation_rejects_eliminated_player_with_table_points():
    err = error_of(four(p("B", 3, eliminated=1)))
    assert str(err) == "round 2 table 3 player B: eliminated players hold 0 table points"
    assert (err.field, err.player, err.code) == ("table_points", "B", "eliminated_table_points")
    assert err.detail == "eliminated players hold 0 table points"


def test_validation_rejects_gap_in_elimination_orders():
    err = error_of(four(p("C", 0, eliminated=1), p("D", 0, eliminated=3)))
    assert str(err) == "round 2 table 3 player D: elimination orders must run 1..2 without gaps or repeats"
    assert (err.field, err.code, err.context) == ("eliminated", "elimination_order", {"eliminated": 2})


def test_validation_rejects_repeated_elimination_order():
    err = error_of(four(p("C", 0, eliminated=1), p("D", 0, eliminated=1)))
    assert str(err) == "round 2 table 3 player D: elimination orders must run 1..2 without gaps or repeats"


def test_validation_rejects_elimination_order_not_starting_at_one():
    err = error_of(four(p("D", 0, eliminated=2)))
    assert str(err) == "round 2 table 3 player D: elimination orders must run 1..1 without gaps or repeats"


@pytest.mark.parametrize("value", [0, -1, True, Decimal(1), "1"])
def test_validation_rejects_elimination_order_that_is_not_positive_whole(value):
    err = error_of(four(p("D", 0, eliminated=value)))
    assert str(err) == "round 2 table 3 player D: the elimination order must be a whole number from 1"


def test_validation_rejects_every_player_eliminated():
    err = error_of(game(2, 3, *(p(x, 0, eliminated=i) for i, x in enumerate("ABCD", 1))))
    assert str(err) == "round 2 table 3: at least one player must not be eliminated"
    assert (err.field, err.player, err.code) == ("eliminated", None, "all_eliminated")


def test_validation_rejects_place_against_table_points_order():
    err = error_of(four(p("B", 30, place=1)))
    assert str(err) == "round 2 table 3 player B: place 1 does not agree with the table points order (expected 2)"
    assert (err.field, err.context) == ("place", {"place": 1, "expected": 2})


def test_validation_rejects_place_against_elimination_order():
    err = error_of(four(p("D", 0, eliminated=1, place=3)))
    assert str(err) == "round 2 table 3 player D: place 3 does not agree with the table points order (expected 4)"


def test_validation_rejects_tied_players_claiming_the_same_lower_place():
    err = error_of(four(p("A", 30, place=2), p("B", 30, place=2)))
    assert str(err) == "round 2 table 3 player A: place 2 does not agree with the table points order (expected 1)"


def test_validation_rejects_risiko_player_not_first():
    err = error_of(four(p("C", 20, risiko=True, place=2)))
    assert str(err) == "round 2 table 3 player C: place 2 does not agree with the table points order (expected 1)"


@pytest.mark.parametrize("value", [0, 5, True, "1"])
def test_validation_rejects_place_out_of_range(value):
    err = error_of(four(p("A", 40, place=value)))
    assert str(err) == "round 2 table 3 player A: place must be a whole number from 1 to 4"


def test_validation_accepts_consistent_places():
    g = four(p("A", 30, place=2), p("B", 30, place=1), p("C", 20, place=3), p("D", 10, place=4))
    assert g.placement.ranks == {"B": 1, "A": 2, "C": 3, "D": 4}


def test_validation_rejects_negative_penalty():
    err = error_of(four(p("A", 40, penalty=-1)))
    assert str(err) == "round 2 table 3 player A: penalty cannot be negative"
    assert err.field == "penalty"


def test_validation_rejects_penalty_with_three_decimals():
    err = error_of(four(p("A", 40, penalty=Decimal("0.001"))))
    assert str(err) == "round 2 table 3 player A: penalty has at most 2 decimals"


def test_validation_rejects_huge_penalty():
    err = error_of(four(p("A", 40, penalty=Decimal("1e9999"))))
    assert str(err) == "round 2 table 3 player A: penalty cannot exceed 10000"


def test_validation_rejects_risiko_that_is_not_a_boolean():
    err = error_of(four(p("A", 40, risiko=1)))
    assert str(err) == "round 2 table 3 player A: risiko must be true or false"


@pytest.mark.parametrize("pid", [None, "", True, []])
def test_validation_rejects_bad_player_ids(pid):
    err = error_of(game(2, 3, p("A", 40), p("B", 30), PlayerResult(pid, Decimal(5))))
    assert str(err) == "round 2 table 3: player id must be a non-empty string or a whole number"


def test_validation_accepts_integer_player_ids():
    g = game(1, 1, p(3, 40), p(1, 40), p(2, 10))
    assert [s.player for s in g.placement.seats] == [1, 3, 2]


def test_validation_error_stops_the_whole_tournament():
    with pytest.raises(InvalidResult) as info:
        score_tournament("standard", None, [four(), four(p("B", 3, eliminated=1), round_=3)])
    assert str(info.value) == "round 3 table 3 player B: eliminated players hold 0 table points"


def test_validation_reports_rules_in_section_order():
    # Both the RisiKo! rule and the eliminated-TP rule are broken: the RisiKo! rule comes first.
    err = error_of(four(p("A", 40, risiko=True), p("B", 40, risiko=True), p("C", 5, eliminated=1)))
    assert err.code == "risiko_twice"


def test_validation_rejects_round_that_is_not_a_number():
    err = error_of(Game("2", 3, four().players))
    assert str(err) == "game round '2': round must be a whole number of at least 0"
    assert err.field == "round"
