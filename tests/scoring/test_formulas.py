"""SCORING.md section 4: every formula on the running example, 3-, 5- and 6-player tables,
RisiKo!, eliminations and shared places. Expected values are worked out by hand from the rules."""
from decimal import Decimal

import pytest

from scoring import FORMULAS, Params, get_formula
from scoring.errors import UnknownFormula
from scoring.numeric import engine_context

from .builders import as_text, five_players, game, p, running_example


def points(name, g, **params):
    return as_text(FORMULAS[name].points(g, Params(**params)))


def test_registry_lists_the_formulas_in_spec_order_then_the_club_variants():
    assert list(FORMULAS) == ["punti_tavolo", "conversione150", "conversione200", "bonus50", "vittorie",
                              "triestino", "standard", "faentino", "spartaco", "maialino", "veronese",
                              "medagliere", "millesimi", "maialino_2024"]


def test_get_formula_rejects_unknown_name():
    with pytest.raises(UnknownFormula) as info:
        get_formula("conversione300")
    assert info.value.field == "formula"
    assert str(info.value).startswith("unknown formula 'conversione300' (known: punti_tavolo,")


@pytest.mark.parametrize("name, expected", [
    ("punti_tavolo", {"A": "62.00", "B": "48.00", "C": "30.00", "D": "0.00"}),
    ("conversione150", {"A": "150.14", "B": "86.00", "C": "60.00", "D": "10.00"}),
    ("conversione200", {"A": "200.14", "B": "86.00", "C": "60.00", "D": "10.00"}),
    ("bonus50", {"A": "112.00", "B": "48.00", "C": "30.00", "D": "0.00"}),
    ("vittorie", {"A": "112.00", "B": "48.00", "C": "30.00", "D": "0.00"}),
    ("triestino", {"A": "177.14", "B": "137.14", "C": "85.71", "D": "0.00"}),
    ("standard", {"A": "12.62", "B": "7.48", "C": "5.30", "D": "1.00"}),
    ("faentino", {"A": "100.00", "B": "50.00", "C": "10.00", "D": "0.00"}),
    ("spartaco", {"A": "162.00", "B": "86.00", "C": "68.00", "D": "38.00"}),
    ("maialino", {"A": "91.00", "B": "34.00", "C": "20.00", "D": "0.00"}),
    ("veronese", {"A": "162.00", "B": "108.00", "C": "70.00", "D": "20.00"}),
    ("medagliere", {"A": "62.00", "B": "48.00", "C": "30.00", "D": "0.00"}),
])
def test_formula_running_example_matches_spec(name, expected):
    assert points(name, running_example()) == expected


# conversione ------------------------------------------------------------------------------------

def test_conversione150_three_players_use_four_player_values():
    g = game(1, 1, p("A", 41), p("B", 30), p("C", 0, eliminated=1))
    assert points("conversione150", g) == {"A": "150.11", "B": "89.00", "C": "10.00"}


def test_conversione150_six_players_with_two_eliminated():
    g = game(1, 1, p("A", 50), p("B", 45), p("C", 30), p("D", 22), p("E", 0, eliminated=2),
             p("F", 0, eliminated=1))
    assert points("conversione150", g) == {"A": "150.05", "B": "95.00", "C": "70.00", "D": "50.00",
                                           "E": "20.00", "F": "10.00"}


def test_conversione150_sixth_place_gets_40_minus_gap_at_least_30():
    g = game(1, 1, p("A", 50), p("B", 48), p("C", 47), p("D", 46), p("E", 45), p("F", 44))
    assert points("conversione150", g)["F"] == "34.00"
    g = game(1, 1, p("A", 50), p("B", 48), p("C", 47), p("D", 46), p("E", 45), p("F", 1))
    assert points("conversione150", g)["F"] == "30.00"


def test_conversione150_sole_survivor_gap_is_to_zero():
    g = game(1, 1, p("A", 33), *(p(x, 0, eliminated=i) for i, x in enumerate("FEDCB", 1)))
    assert points("conversione150", g) == {"A": "150.33", "B": "50.00", "C": "40.00", "D": "30.00",
                                           "E": "20.00", "F": "10.00"}


def test_conversione150_five_player_minimums():
    g = game(1, 1, p("A", 90), p("B", 5), p("C", 4), p("D", 3), p("E", 2))
    assert points("conversione150", g) == {"A": "150.85", "B": "90.00", "C": "70.00", "D": "50.00",
                                           "E": "40.00"}


def test_conversione150_tie_for_second_shares_second_and_third():
    g = game(1, 1, p("A", 60), p("B", 50), p("C", 50), p("D", 10))
    # (100 - 10) + (80 - 10) shared by two; D 60 - 50 raised to 40.
    assert points("conversione150", g) == {"A": "150.10", "B": "80.00", "C": "80.00", "D": "40.00"}


def test_conversione150_three_tied_first_share_three_positions():
    g = game(1, 1, p("A", 40), p("B", 40), p("C", 40), p("D", 10))
    assert points("conversione150", g) == {"A": "110.00", "B": "110.00", "C": "110.00", "D": "40.00"}


def test_conversione150_risiko_with_everyone_else_eliminated():
    g = game(1, 1, p("A", 10, risiko=True), p("B", 0, eliminated=3), p("C", 0, eliminated=2),
             p("D", 0, eliminated=1))
    assert points("conversione150", g) == {"A": "151.00", "B": "30.00", "C": "20.00", "D": "10.00"}


def test_conversione200_risiko_gets_201_minus_second():
    g = game(1, 1, p("A", 0, risiko=True), p("B", 99), p("C", 20), p("D", 0, eliminated=1))
    assert points("conversione200", g) == {"A": "200.01", "B": "99.00", "C": "60.00", "D": "10.00"}


def test_conversione200_five_players():
    assert points("conversione200", five_players()) == {"A": "200.04", "B": "96.00", "C": "70.00",
                                                        "D": "50.00", "E": "10.00"}


# bonus50 / vittorie -----------------------------------------------------------------------------

def test_bonus50_risiko_counts_100_plus_bonus():
    g = game(1, 1, p("A", 40, risiko=True), p("B", 55), p("C", 20), p("D", 12))
    assert points("bonus50", g) == {"A": "150.00", "B": "55.00", "C": "20.00", "D": "12.00"}


def test_bonus50_two_tied_first_split_the_bonus():
    g = game(1, 1, p("A", 50), p("B", 50), p("C", 31), p("D", 9))
    assert points("bonus50", g) == {"A": "75.00", "B": "75.00", "C": "31.00", "D": "9.00"}


def test_bonus50_three_tied_first_get_no_bonus():
    g = game(1, 1, p("A", 40), p("B", 40), p("C", 40), p("D", 10))
    assert points("bonus50", g) == {"A": "40.00", "B": "40.00", "C": "40.00", "D": "10.00"}


def test_bonus50_tie_settled_by_place_gives_the_whole_bonus():
    g = game(1, 1, p("A", 50, place=1), p("B", 50, place=2), p("C", 31), p("D", 9))
    assert points("bonus50", g) == {"A": "100.00", "B": "50.00", "C": "31.00", "D": "9.00"}


def test_bonus50_bonus_parameter():
    assert points("bonus50", running_example(), bonus=30)["A"] == "92.00"
    assert points("vittorie", running_example(), bonus=Decimal("12.5"))["A"] == "74.50"


# triestino --------------------------------------------------------------------------------------

def test_triestino_three_players_scale_to_300():
    g = game(1, 1, p("A", 30), p("B", 20), p("C", 10))
    assert points("triestino", g) == {"A": "150.00", "B": "100.00", "C": "50.00"}


def test_triestino_six_players_scale_to_600():
    g = game(1, 1, p("A", 60), p("B", 30), p("C", 10), p("D", 0), p("E", 0, eliminated=2),
             p("F", 0, eliminated=1))
    assert points("triestino", g) == {"A": "360.00", "B": "180.00", "C": "60.00", "D": "0.00",
                                      "E": "0.00", "F": "0.00"}


def test_triestino_zero_sum_gives_everyone_zero():
    g = game(1, 1, p("A", 0), p("B", 0), p("C", 0, eliminated=1))
    assert points("triestino", g) == {"A": "0.00", "B": "0.00", "C": "0.00"}


def test_triestino_risiko_counts_100():
    g = game(1, 1, p("A", 40, risiko=True), p("B", 55), p("C", 20), p("D", 12))
    assert points("triestino", g) == {"A": "213.90", "B": "117.65", "C": "42.78", "D": "25.67"}


def test_triestino_points_add_up_to_100_times_players():
    values = FORMULAS["triestino"].points(five_players())
    with engine_context():
        assert abs(sum(values.values()) - 500) < Decimal("1e-30")


# standard ---------------------------------------------------------------------------------------

def test_standard_five_players_with_two_eliminated():
    g = game(1, 1, p("A", 40), p("B", 30), p("C", 20), p("D", 0, eliminated=2), p("E", 0, eliminated=1))
    assert points("standard", g) == {"A": "12.40", "B": "7.30", "C": "5.20", "D": "2.00", "E": "1.00"}


def test_standard_four_players_eliminated_get_1_2_3():
    g = game(1, 1, p("A", 33), p("B", 0, eliminated=3), p("C", 0, eliminated=1), p("D", 0, eliminated=2))
    assert points("standard", g) == {"A": "12.33", "B": "3.00", "C": "1.00", "D": "2.00"}


def test_standard_three_players_first_eliminated_gets_1():
    g = game(1, 1, p("A", 20), p("B", 10), p("C", 0, eliminated=1))
    assert points("standard", g) == {"A": "12.20", "B": "7.10", "C": "1.00"}


def test_standard_six_players_sixth_place():
    g = game(1, 1, p("A", 50), p("B", 45), p("C", 30), p("D", 22), p("E", 10), p("F", 5))
    assert points("standard", g)["F"] == "1.05"
    g = game(1, 1, p("A", 50), p("B", 45), p("C", 30), p("D", 22), p("E", 0, eliminated=2),
             p("F", 0, eliminated=1))
    assert points("standard", g)["E"] == "2.00"
    assert points("standard", g)["F"] == "1.00"


def test_standard_risiko_is_13_flat():
    g = game(1, 1, p("A", 40, risiko=True), p("B", 55), p("C", 20), p("D", 12), p("E", 0, eliminated=1))
    assert points("standard", g) == {"A": "13.00", "B": "7.55", "C": "5.20", "D": "3.12", "E": "1.00"}


def test_standard_tie_for_second_shares_7_and_5():
    g = game(1, 1, p("A", 60), p("B", 50), p("C", 50), p("D", 10))
    assert points("standard", g) == {"A": "12.60", "B": "6.50", "C": "6.50", "D": "3.10"}


def test_standard_half_hundredth_rounds_up_on_output():
    g = game(1, 1, p("A", "0.50"), p("B", "0.25"), p("C", 0), p("D", 0, eliminated=1))
    values = FORMULAS["standard"].points(g)
    assert values["A"] == Decimal("12.005")
    assert as_text(values) == {"A": "12.01", "B": "7.00", "C": "5.00", "D": "1.00"}


# faentino ---------------------------------------------------------------------------------------

def test_faentino_gap_of_exactly_15_is_close():
    g = game(1, 1, p("A", 60), p("B", 45), p("C", "44.99"), p("D", 0, eliminated=1))
    assert points("faentino", g) == {"A": "100.00", "B": "50.00", "C": "10.00", "D": "0.00"}


def test_faentino_risiko_gap_measured_from_100():
    g = game(1, 1, p("A", 0, risiko=True), p("B", 85), p("C", 84), p("D", 0, eliminated=1))
    assert points("faentino", g) == {"A": "110.00", "B": "50.00", "C": "10.00", "D": "0.00"}


def test_faentino_three_tied_first_share_100_50_50():
    g = game(1, 1, p("A", 40), p("B", 40), p("C", 40), p("D", 30))
    assert points("faentino", g) == {"A": "66.67", "B": "66.67", "C": "66.67", "D": "50.00"}


# spartaco ---------------------------------------------------------------------------------------

def test_spartaco_risiko_gives_186_and_86_to_everyone_else():
    g = game(1, 1, p("A", 1, risiko=True), p("B", 30), p("C", 0, eliminated=2), p("D", 0, eliminated=1))
    assert points("spartaco", g) == {"A": "186.00", "B": "86.00", "C": "86.00", "D": "86.00"}


def test_spartaco_malus_parameter_applies_to_the_risiko_winner_too():
    # SCORING.md 13.3.2: the RisiKo! winner gets 200 - malus (186 with the default 14).
    g = game(1, 1, p("A", 1, risiko=True), p("B", 30), p("C", 20))
    assert points("spartaco", g, spartaco_malus=20) == {"A": "180.00", "B": "80.00", "C": "80.00"}


def test_spartaco_tie_for_second():
    g = game(1, 1, p("A", 60), p("B", 50), p("C", 50), p("D", 0, eliminated=1))
    assert points("spartaco", g) == {"A": "160.00", "B": "90.00", "C": "90.00", "D": "40.00"}


# maialino ---------------------------------------------------------------------------------------

def test_maialino_two_tied_second_split_10():
    g = game(1, 1, p("A", 60), p("B", 40), p("C", 40), p("D", 10))
    assert points("maialino", g) == {"A": "90.00", "B": "25.00", "C": "25.00", "D": "5.00"}


def test_maialino_two_tied_third_split_5():
    g = game(1, 1, p("A", 60), p("B", 50), p("C", 20), p("D", 20))
    assert points("maialino", g) == {"A": "90.00", "B": "35.00", "C": "12.50", "D": "12.50"}


def test_maialino_three_tied_second_get_no_bonus():
    g = game(1, 1, p("A", 60), p("B", 30), p("C", 30), p("D", 30))
    assert points("maialino", g) == {"A": "90.00", "B": "15.00", "C": "15.00", "D": "15.00"}


def test_maialino_four_tied_first_get_no_bonus():
    g = game(1, 1, p("A", 20), p("B", 20), p("C", 20), p("D", 20))
    assert points("maialino", g) == {"A": "10.00", "B": "10.00", "C": "10.00", "D": "10.00"}


def test_maialino_bonus_only_among_survivors():
    g = game(1, 1, p("A", 33), p("B", 0, eliminated=3), p("C", 0, eliminated=2), p("D", 0, eliminated=1))
    assert points("maialino", g) == {"A": "76.50", "B": "0.00", "C": "0.00", "D": "0.00"}


def test_maialino_tie_settled_by_place():
    g = game(1, 1, p("A", 50, place=1), p("B", 50, place=2), p("C", 31), p("D", 9))
    assert points("maialino", g) == {"A": "85.00", "B": "35.00", "C": "20.50", "D": "4.50"}


# veronese ---------------------------------------------------------------------------------------

def test_veronese_tie_for_second_shares_60_and_40():
    g = game(1, 1, p("A", 60), p("B", 50), p("C", 50), p("D", 0, eliminated=1))
    assert points("veronese", g) == {"A": "160.00", "B": "100.00", "C": "100.00", "D": "20.00"}


def test_veronese_eliminated_get_their_place_bonus():
    g = game(1, 1, p("A", 10), p("B", 0, eliminated=3), p("C", 0, eliminated=2), p("D", 0, eliminated=1))
    assert points("veronese", g) == {"A": "110.00", "B": "60.00", "C": "40.00", "D": "20.00"}


def test_veronese_risiko_counts_100_plus_100():
    g = game(1, 1, p("A", 40, risiko=True), p("B", 55), p("C", 20), p("D", 12))
    assert points("veronese", g) == {"A": "200.00", "B": "115.00", "C": "60.00", "D": "32.00"}


# punti_tavolo / medagliere ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["punti_tavolo", "medagliere"])
def test_table_points_formulas_count_risiko_as_100(name):
    g = game(1, 1, p("A", 40, risiko=True), p("B", 55), p("C", 0, eliminated=1))
    assert points(name, g) == {"A": "100.00", "B": "55.00", "C": "0.00"}


@pytest.mark.parametrize("name", list(FORMULAS))
def test_formula_gives_every_player_a_value_in_placement_order(name):
    g = five_players()
    assert list(FORMULAS[name].points(g)) == ["A", "B", "C", "D", "E"]


@pytest.mark.parametrize("name", list(FORMULAS))
def test_formula_disqualified_player_scores_as_first_eliminated(name):
    dq = game(1, 1, p("A", 62), p("B", 48), p("C", 30), p("D", 25, disqualified=True))
    elim = running_example()
    assert FORMULAS[name].points(dq) == FORMULAS[name].points(elim)
