"""The tie-break `previous_round` (SCORING.md 13.7): who was ahead after the previous round stays
ahead; then the round before, and so on."""
from decimal import Decimal

import pytest

from scoring import InvalidParams, Params, score_tournament
from scoring.engine import _score, implicit_absences
from scoring.formulas import get_formula
from scoring.numeric import engine_context
from scoring.standings import build_standings

from .builders import game, p

D = Decimal
PREVIOUS_ROUND = Params(tiebreak=("previous_round",))


def ranking(formula, params, games):
    return [(r.rank, r.player, r.total) for r in score_tournament(formula, params, games).standings]


def plain_ranking(formula, params, games):
    """The same through the plain statement of the rules (`build_standings`)."""
    formula = get_formula(formula)
    with engine_context():
        scores = [_score(formula, g, params) for g in games]
        rows = build_standings(formula, params, scores, implicit_absences(games))
    return [(r.rank, r.player, r.total) for r in rows]


def table(round_, a, b, c=30, d=10):
    return game(round_, 1, p("A", a), p("B", b), p("C", c), p("D", d))


def test_the_player_ahead_after_round_1_stays_ahead():
    games = [table(1, 60, 40), table(2, 40, 60)]
    assert ranking("punti_tavolo", PREVIOUS_ROUND, games)[:2] == [(1, "A", D(100)), (2, "B", D(100))]
    assert ranking("punti_tavolo", None, games)[:2] == [(1, "A", D(100)), (1, "B", D(100))]


def test_with_one_round_nothing_is_decided():
    games = [table(1, 40, 40)]
    assert ranking("punti_tavolo", PREVIOUS_ROUND, games)[:2] == [(1, "A", D(40)), (1, "B", D(40))]


def test_level_after_the_previous_round_the_round_before_decides():
    games = [table(1, 30, 20, 10, 5), table(2, 20, 30, 10, 5), table(3, 10, 10, 10, 5)]
    assert ranking("punti_tavolo", PREVIOUS_ROUND, games)[:2] == [(1, "A", D(60)), (2, "B", D(60))]


def test_the_sums_take_every_result_not_the_counted_ones():
    # Totals after discarding the worst: A 30+20 = 50, B 35+15 = 50. After round 2: A 50, B 45.
    games = [table(1, 30, 10, 8, 5), table(2, 20, 35, 10, 5), table(3, 20, 15, 10, 5)]
    params = Params(tiebreak=("previous_round",), discard_worst=1)
    assert ranking("punti_tavolo", params, games)[:2] == [(1, "A", D(50)), (2, "B", D(50))]


def test_an_absent_round_counts_0():
    games = [game(1, 1, p("B", 50), p("C", 40), p("D", 30), p("E", 20)),
             game(2, 1, p("A", 100), p("B", 50), p("C", 10), p("D", 5))]
    assert ranking("punti_tavolo", PREVIOUS_ROUND, games)[:2] == [(1, "B", D(100)), (2, "A", D(100))]


def test_round_numbers_need_not_be_consecutive():
    games = [table(2, 30, 20, 10, 5), table(5, 20, 30, 10, 5), table(9, 10, 10, 10, 5)]
    assert ranking("punti_tavolo", PREVIOUS_ROUND, games)[:2] == [(1, "A", D(60)), (2, "B", D(60))]


def test_after_best_results_as_the_master_rules_chain_them():
    games = [table(1, 60, 40), table(2, 40, 60)]
    params = Params(tiebreak=("best_results", "previous_round"))
    assert ranking("punti_tavolo", params, games)[:2] == [(1, "A", D(100)), (2, "B", D(100))]


def test_the_sums_are_compared_as_shown():
    # Halved by the Como corrective (3 players, reference 6): after round 1 A has 15.01 and B 15.005,
    # both shown as 15.01, so nothing is decided.
    games = [game(1, 1, p("A", D("30.02")), p("B", D("30.01")), p("C", 10)),
             game(2, 1, p("B", D("30.02")), p("A", D("30.01")), p("C", 10))]
    params = Params(tiebreak=("previous_round",), como_reference=6)
    assert ranking("punti_tavolo", params, games)[:2] == [(1, "A", D("30.015")), (1, "B", D("30.015"))]


@pytest.mark.parametrize("chain", [("previous_round",), ("wins", "previous_round"), ("previous_round", "head_to_head")])
def test_both_paths_of_the_engine_agree(chain):
    games = [table(1, 60, 40, 30, 10), table(2, 40, 60, 10, 30), table(3, 30, 30, 30, 30)]
    params = Params(tiebreak=chain)
    assert ranking("conversione150", params, games) == plain_ranking("conversione150", params, games)


def test_previous_round_is_a_known_tie_break():
    with pytest.raises(InvalidParams):
        Params(tiebreak=("previous_rounds",))
