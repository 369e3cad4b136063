"""The parameters of club variants (SCORING.md 13.1-13.3, 13.6): corrective_scope, risiko_total,
spartaco_risiko_losers, standard_eliminated. Each is strict: given with a formula it does not apply
to, the input is refused (exit 2 and one line on the command line)."""
import json
from decimal import Decimal

import pytest

from scoring import FORMULAS, InvalidParams, Params, score_game, score_tournament
from scoring.__main__ import run

from .builders import game, p, running_example

D = Decimal


def five_table():
    """SCORING.md 13's running 5-player table: A 60, B 48, C 30, D 12, E eliminated first."""
    return game(1, 1, p("A", 60), p("B", 48), p("C", 30), p("D", 12), p("E", 0, eliminated=1))


def scored(formula, g, **params):
    return score_game(formula, g, Params(**params)).points


def cli(formula, players, **params):
    doc = {"formula": formula, "params": params, "games": [{"round": 1, "table": 1, "players": players}]}
    return run(json.dumps(doc).encode("utf-8"))


RUNNING = [{"id": "A", "table_points": 62}, {"id": "B", "table_points": 48}, {"id": "C", "table_points": 30},
           {"id": "D", "table_points": 0, "eliminated": 1}]
RAW = {"A": D(60), "B": D(48), "C": D(30), "D": D(12), "E": D(0)}
TABLE_POINTS_SCOPE = {"como_reference": 4, "corrective_scope": "table_points"}


# corrective_scope (13.1) --------------------------------------------------------------------------

def test_table_points_scope_scales_the_table_points_before_the_bonus():
    assert scored("bonus50", five_table(), **TABLE_POINTS_SCOPE) == {
        "A": D(125), "B": D(60), "C": D("37.5"), "D": D(15), "E": D(0)}


def test_score_scope_is_todays_como_corrective():
    today = scored("bonus50", five_table(), como_reference=4)
    assert scored("bonus50", five_table(), como_reference=4, corrective_scope="score") == today
    assert today["A"] == D("137.5")


def test_table_points_scope_never_raises_a_risiko_above_100_and_lowers_it_at_a_3_player_table():
    five = game(1, 1, p("A", 0, risiko=True), p("B", 48), p("C", 30), p("D", 12), p("E", 0, eliminated=1))
    three = game(1, 1, p("A", 40, risiko=True), p("B", 36), p("C", 20))
    assert scored("bonus50", five, **TABLE_POINTS_SCOPE)["A"] == D(150)
    assert scored("bonus50", three, **TABLE_POINTS_SCOPE) == {"A": D(125), "B": D(27), "C": D(15)}


def test_table_points_scope_leaves_a_table_of_the_reference_size_unchanged():
    assert scored("bonus50", running_example(), **TABLE_POINTS_SCOPE) == scored("bonus50", running_example())


def test_table_points_scope_scales_a_6_player_table_by_one_and_a_half_then_takes_the_penalty():
    g = game(1, 1, p("A", 50, penalty=10), p("B", 40), p("C", 30), p("D", 20), p("E", 10), p("F", 0, eliminated=1))
    assert scored("punti_tavolo", g, **TABLE_POINTS_SCOPE) == {
        "A": D(65), "B": D(60), "C": D(45), "D": D(30), "E": D(15), "F": D(0)}


def test_table_points_scope_scales_the_gaps_a_formula_reads():
    # Conversione 150 at a 5-player table: A 75, B 60 after x1.25; the gap to the second is 15.
    assert scored("conversione150", five_table(), **TABLE_POINTS_SCOPE) == {
        "A": D("150.15"), "B": D(90), "C": D(70), "D": D(50), "E": D(10)}
    # Maialino 2024: 200 is not scaled, the others' gaps are.
    assert scored("maialino_2024", five_table(), **TABLE_POINTS_SCOPE) == {
        "A": D(200), "B": D(85), "C": D("62.5"), "D": D(40), "E": D(0)}


def test_table_points_scope_keeps_the_table_points_as_entered_on_the_record():
    score = score_game("bonus50", five_table(), Params(**TABLE_POINTS_SCOPE))
    assert {ps.player: ps.table_points for ps in score.players} == RAW
    assert [ps.place for ps in score.players] == [1, 2, 3, 4, 5]


def test_table_points_scope_in_the_standings_of_two_rounds():
    rounds = [five_table(), game(2, 1, p("A", 40), p("B", 55), p("C", 20), p("D", 0, eliminated=1))]
    result = score_tournament("bonus50", Params(**TABLE_POINTS_SCOPE), rounds)
    assert [(r.player, r.total) for r in result.standings] == [
        ("A", D(165)), ("B", D(165)), ("C", D("57.5")), ("D", D(15)), ("E", D(0))]


def test_corrective_scope_needs_a_como_reference():
    with pytest.raises(InvalidParams) as exc:
        Params(corrective_scope="table_points")
    assert (exc.value.field, exc.value.code) == ("corrective_scope", "corrective_scope_without_reference")
    code, out, err = cli("bonus50", RUNNING, corrective_scope="score")
    assert (code, out, err) == (2, "", "params: corrective_scope needs como_reference (the reference table size)")


@pytest.mark.parametrize("value", ["tp", "TABLE_POINTS", 1, True])
def test_corrective_scope_takes_score_or_table_points_only(value):
    with pytest.raises(InvalidParams) as exc:
        Params(como_reference=4, corrective_scope=value)
    assert exc.value.field == "corrective_scope"


def test_no_corrective_at_all_under_millesimi():
    with pytest.raises(InvalidParams) as exc:
        score_game("millesimi", running_example(), Params(como_reference=4, corrective_scope="table_points"))
    assert (exc.value.field, exc.value.code) == ("como_reference", "param_not_for_formula")


# risiko_total (13.2) ------------------------------------------------------------------------------

def risiko_table():
    return game(1, 1, p("A", 100, risiko=True), p("B", 44), p("C", 30), p("D", 12))


def test_risiko_total_is_the_risiko_winners_exact_points_2004_final():
    assert scored("bonus50", risiko_table(), bonus=20, risiko_total=110) == {
        "A": D(110), "B": D(44), "C": D(30), "D": D(12)}
    assert scored("vittorie", risiko_table(), bonus=20, risiko_total=110)["A"] == D(110)


def test_risiko_total_leaves_a_game_without_risiko_alone():
    tie = game(1, 1, p("A", 44), p("B", 44), p("C", 30), p("D", 12))
    assert scored("bonus50", tie, bonus=20, risiko_total=110) == {"A": D(54), "B": D(54), "C": D(30), "D": D(12)}


def test_risiko_total_under_punti_tavolo_is_scaled_by_a_score_corrective_only():
    assert scored("punti_tavolo", risiko_table(), risiko_total=120, como_reference=5)["A"] == D(96)
    five = game(1, 1, p("A", 0, risiko=True), p("B", 48), p("C", 30), p("D", 12), p("E", 0, eliminated=1))
    assert scored("bonus50", five, risiko_total=110, **TABLE_POINTS_SCOPE)["A"] == D(110)


def test_risiko_total_then_the_penalty():
    g = game(1, 1, p("A", 100, risiko=True, penalty=50), p("B", 44), p("C", 30), p("D", 0, eliminated=1))
    assert scored("bonus50", g, bonus=20, risiko_total=110)["A"] == D(60)


def test_risiko_total_of_0_is_a_value():
    assert scored("punti_tavolo", risiko_table(), risiko_total=0)["A"] == D(0)


@pytest.mark.parametrize("value", [-1, D("1000.01"), D("110.005"), "110", True])
def test_risiko_total_is_an_amount_from_0_to_1000_with_2_decimals(value):
    with pytest.raises(InvalidParams) as exc:
        Params(risiko_total=value)
    assert exc.value.field == "risiko_total"


@pytest.mark.parametrize("formula", sorted(set(FORMULAS) - {"bonus50", "vittorie", "punti_tavolo"}))
def test_risiko_total_is_refused_by_every_other_formula(formula):
    with pytest.raises(InvalidParams) as exc:
        score_tournament(formula, Params(risiko_total=110), [running_example()])
    assert (exc.value.field, exc.value.code) == ("risiko_total", "param_not_for_formula")
    assert str(exc.value) == f"params: risiko_total does not apply to the formula {formula}"


# spartaco_risiko_losers (13.3) --------------------------------------------------------------------

def spartaco_risiko():
    return game(1, 1, p("W", 100, risiko=True), p("L40", 40), p("L25", 25), p("L0", 0, eliminated=1))


def test_spartaco_risiko_losers_flat_is_the_default():
    expected = {"W": D(186), "L40": D(86), "L25": D(86), "L0": D(86)}
    assert scored("spartaco", spartaco_risiko()) == expected
    assert scored("spartaco", spartaco_risiko(), spartaco_risiko_losers="flat") == expected


def test_spartaco_risiko_losers_own_tp_gives_each_loser_their_table_points():
    assert scored("spartaco", spartaco_risiko(), spartaco_risiko_losers="own_tp") == {
        "W": D(186), "L40": D(40), "L25": D(25), "L0": D(0)}


def test_spartaco_risiko_winner_gets_200_minus_the_malus_under_both_options():
    assert scored("spartaco", spartaco_risiko(), spartaco_malus=10, spartaco_risiko_losers="own_tp") == {
        "W": D(190), "L40": D(40), "L25": D(25), "L0": D(0)}
    assert scored("spartaco", spartaco_risiko(), spartaco_malus=10)["W"] == D(190)


def test_spartaco_own_tp_is_inert_without_risiko():
    assert scored("spartaco", running_example(), spartaco_risiko_losers="own_tp", spartaco_malus=10) == {
        "A": D(162), "B": D(86), "C": D(68), "D": D(38)}


def test_spartaco_own_tp_reads_the_corrected_table_points():
    g = game(1, 1, p("W", 0, risiko=True), p("B", 48), p("C", 30), p("D", 12), p("E", 0, eliminated=1))
    assert scored("spartaco", g, spartaco_risiko_losers="own_tp", **TABLE_POINTS_SCOPE) == {
        "W": D(186), "B": D(60), "C": D("37.5"), "D": D(15), "E": D(0)}


def test_spartaco_risiko_losers_is_strict():
    with pytest.raises(InvalidParams):
        Params(spartaco_risiko_losers="minus14")
    code, out, err = cli("conversione150", RUNNING, spartaco_risiko_losers="own_tp")
    assert (code, out, err) == (2, "", "params: spartaco_risiko_losers does not apply to the formula conversione150")


# standard_eliminated (13.6) -----------------------------------------------------------------------

def test_standard_eliminated_by_position_gives_the_first_eliminated_of_a_5_table_0():
    assert scored("standard", five_table(), standard_eliminated="position") == {
        "A": D("12.60"), "B": D("7.48"), "C": D("5.30"), "D": D("3.12"), "E": D(0)}
    assert scored("standard", five_table())["E"] == D(1)  # by order, the default (seed 004)


def test_standard_eliminated_by_position_three_eliminated_and_a_risiko():
    g = game(1, 1, p("A", 0, risiko=True), p("B", 20), p("C", 0, eliminated=3), p("D", 0, eliminated=2),
             p("E", 0, eliminated=1))
    assert scored("standard", g, standard_eliminated="position", **TABLE_POINTS_SCOPE) == {
        "A": D(13), "B": D("7.25"), "C": D(2), "D": D(1), "E": D(0)}


def test_torneo_gufo_scales_the_hundredths_and_shows_them_with_2_decimals():
    gufo = dict(standard_eliminated="position", **TABLE_POINTS_SCOPE)
    assert scored("standard", five_table(), **gufo) == {
        "A": D("12.75"), "B": D("7.60"), "C": D("5.375"), "D": D("3.15"), "E": D(0)}
    code, out, _ = cli("standard", [{"id": k, "table_points": int(v)} for k, v in RAW.items() if k != "E"]
                       + [{"id": "E", "eliminated": 1}], **gufo)
    assert code == 0 and json.loads(out)["games"][0]["points"]["C"] == 5.38


def test_standard_eliminated_by_position_at_a_4_and_a_3_player_table():
    four = game(1, 1, p("A", 62), p("B", 48), p("C", 0, eliminated=2), p("D", 0, eliminated=1))
    three = game(1, 1, p("A", 40), p("B", 36), p("C", 0, eliminated=1))
    gufo = dict(standard_eliminated="position", **TABLE_POINTS_SCOPE)
    assert scored("standard", four, **gufo) == {"A": D("12.62"), "B": D("7.48"), "C": D(2), "D": D(1)}
    assert scored("standard", three, **gufo) == {"A": D("12.30"), "B": D("7.27"), "C": D(2)}


def test_standard_eliminated_is_strict_even_at_its_default_value():
    with pytest.raises(InvalidParams):
        Params(standard_eliminated="last")
    for value in ("position", "order"):
        code, out, err = cli("bonus50", RUNNING, standard_eliminated=value)
        assert (code, out, err) == (2, "", "params: standard_eliminated does not apply to the formula bonus50")


def test_a_null_club_parameter_is_not_given():
    code, out, _ = cli("bonus50", RUNNING, standard_eliminated=None, risiko_total=None, corrective_scope=None)
    assert code == 0 and json.loads(out)["games"][0]["points"]["A"] == 112.0


def test_club_parameters_are_checked_by_every_entry_point():
    with pytest.raises(InvalidParams):
        FORMULAS["bonus50"].points(running_example(), Params(standard_eliminated="position"))
    with pytest.raises(InvalidParams):
        score_game("bonus50", running_example(), Params(spartaco_risiko_losers="flat"))


def test_club_parameters_take_part_in_the_parameters_hash():
    assert hash(Params(risiko_total=110)) != hash(Params())
    assert Params(standard_eliminated="position") != Params(standard_eliminated="order")
