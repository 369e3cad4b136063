"""SCORING.md section 6: totals, discards, order per formula, tie-break chains, shared ranks,
multi-phase helpers and semifinal guidance."""
from decimal import Decimal

import pytest

from scoring import Absence, Params, ScoringError, score_tournament
from scoring.standings import PhaseRow, SemifinalPlan, final_classification, semifinal_plans

from .builders import game, p, running_example


def table(result):
    return [(r.rank, r.player, str(r.shown_total)) for r in result.standings]


def three_rounds():
    return [
        game(1, 1, p("A", 60), p("B", 50), p("C", 40), p("D", 30)),
        game(2, 1, p("A", 10), p("B", 50), p("C", 40), p("D", 30)),
        game(3, 1, p("A", 60), p("B", 5), p("C", 40), p("D", 30)),
    ]


def test_standings_total_sums_every_result():
    result = score_tournament("punti_tavolo", None, three_rounds())
    assert table(result) == [(1, "A", "130.00"), (2, "C", "120.00"), (3, "B", "105.00"), (4, "D", "90.00")]
    assert result.standings[0].results == (60, 10, 60)


def test_standings_discard_worst_drops_lowest_results():
    result = score_tournament("punti_tavolo", Params(discard_worst=1), three_rounds())
    assert table(result) == [(1, "A", "120.00"), (2, "B", "100.00"), (3, "C", "80.00"), (4, "D", "60.00")]
    assert result.standings[0].counted == (60, 60)


def test_standings_best_of_keeps_highest_results():
    assert table(score_tournament("punti_tavolo", Params(best_of=2), three_rounds())) == \
        table(score_tournament("punti_tavolo", Params(discard_worst=1), three_rounds()))


def test_standings_discard_and_best_of_combine():
    result = score_tournament("punti_tavolo", Params(discard_worst=1, best_of=1), three_rounds())
    assert table(result) == [(1, "A", "60.00"), (2, "B", "50.00"), (3, "C", "40.00"), (4, "D", "30.00")]


def test_standings_discarding_every_result_leaves_zero():
    result = score_tournament("punti_tavolo", Params(discard_worst=5), three_rounds())
    assert table(result) == [(1, "A", "0.00"), (1, "B", "0.00"), (1, "C", "0.00"), (1, "D", "0.00")]


def test_standings_discards_keep_wins_and_medals():
    result = score_tournament("medagliere", Params(discard_worst=2), three_rounds())
    a = next(r for r in result.standings if r.player == "A")
    assert (a.wins, a.medals, a.games, a.shown_total) == (2, (2, 0, 0, 1, 0), 3, Decimal("60.00"))


def test_standings_totals_compare_as_shown():
    # A: 10.01 at a 5-player table; B: 12.51 x 4/5 = 10.008, shown 10.01: a tie.
    games = [game(1, 1, p("A", "10.01"), p("C", 5), p("D", 4), p("E", 3), p("F", 2)),
             game(1, 2, p("B", "12.51"), p("G", 1), p("H", "0.5"), p("I", 0))]
    result = score_tournament("punti_tavolo", Params(como_reference=5), games)
    assert table(result)[:2] == [(1, "A", "10.01"), (1, "B", "10.01")]
    assert result.standings[1].total == Decimal("10.008")


def test_standings_shared_rank_skips_next_and_lists_ids_ascending():
    result = score_tournament("spartaco", None, [
        game(1, 1, p("Z", 1, risiko=True), p("C", 30), p("B", 20), p("A", 10))])
    assert table(result) == [(1, "Z", "186.00"), (2, "A", "86.00"), (2, "B", "86.00"), (2, "C", "86.00")]


def test_standings_integer_ids_sort_numerically():
    result = score_tournament("punti_tavolo", None, [game(1, 1, p(10, 5), p(9, 5), p(100, 1))])
    assert [(r.rank, r.player) for r in result.standings] == [(1, 9), (1, 10), (3, 100)]


def two_rounds_tied():
    # A and B both total 90 table points; A won round 1; B placed above A in round 2.
    return [game(1, 1, p("A", 50), p("B", 40), p("C", 10), p("D", 5)),
            game(2, 1, p("C", 60), p("B", 50), p("A", 40), p("D", 0, eliminated=1))]


def test_tiebreak_none_shares_the_rank():
    assert table(score_tournament("punti_tavolo", None, two_rounds_tied()))[:2] == [
        (1, "A", "90.00"), (1, "B", "90.00")]


def test_tiebreak_wins_puts_the_winner_ahead():
    result = score_tournament("punti_tavolo", Params(tiebreak=("wins", "head_to_head")), two_rounds_tied())
    assert table(result)[:2] == [(1, "A", "90.00"), (2, "B", "90.00")]


def test_tiebreak_chain_falls_through_to_head_to_head():
    result = score_tournament("punti_tavolo", Params(tiebreak=("table_points", "head_to_head")),
                              two_rounds_tied())
    assert table(result)[:2] == [(1, "B", "90.00"), (2, "A", "90.00")]


def test_tiebreak_best_results_compares_best_then_second_best():
    games = [game(1, 1, p("A", 50), p("B", 30), p("C", 1), p("D", 0)),
             game(2, 1, p("A", 10), p("B", 30), p("C", 1), p("D", 0))]
    result = score_tournament("punti_tavolo", Params(tiebreak=("best_results",)), games)
    assert table(result)[:2] == [(1, "A", "60.00"), (2, "B", "60.00")]


def test_tiebreak_best_results_uses_counted_results_only():
    # Como rule 3.1 over the best 3 of 4: B and C differ only in their discarded 4th result.
    games = [game(r, 1, p("B", b), p("C", c), p("D", 1)) for r, (b, c) in
             enumerate([(45, 45), (45, 30), (30, 45), (10, 5)], 1)]
    result = score_tournament("punti_tavolo", Params(best_of=3, tiebreak=("best_results",)), games)
    assert table(result)[:2] == [(1, "B", "120.00"), (1, "C", "120.00")]


def conversione_tie():
    # C (30 TP, 3rd) and G (10 TP, 3rd) both get 60 at different tables.
    return [game(1, 1, p("A", 62), p("B", 48), p("C", 30), p("D", 0, eliminated=1)),
            game(1, 2, p("E", 70), p("F", 66), p("G", 10), p("H", 0, eliminated=1))]


def test_tiebreak_table_points_uses_total_table_points():
    result = score_tournament("conversione150", Params(tiebreak=("table_points",)), conversione_tie())
    rows = [(r.rank, r.player) for r in result.standings if r.player in "CG"]
    assert rows == [(5, "C"), (6, "G")]


def test_tiebreak_head_to_head_without_common_game_keeps_the_tie():
    result = score_tournament("conversione150", Params(tiebreak=("head_to_head",)), conversione_tie())
    rows = [(r.rank, r.player) for r in result.standings if r.player in "CG"]
    assert rows == [(5, "C"), (5, "G")]


def test_tiebreak_head_to_head_uses_latest_common_game():
    # Round 1: A above B; round 3: B above A; totals equal.
    games = [game(1, 1, p("A", 30), p("B", 20), p("C", 50)),
             game(2, 1, p("A", 10), p("X", 5), p("Y", 1)),
             game(2, 2, p("B", 20), p("Z", 5), p("W", 1)),
             game(3, 1, p("B", 30), p("A", 20), p("C", 50))]
    result = score_tournament("punti_tavolo", Params(tiebreak=("head_to_head",)), games)
    rows = [(r.rank, r.player) for r in result.standings if r.player in "AB"]
    assert rows == [(2, "B"), (3, "A")]


def test_vittorie_orders_by_wins_before_total():
    games = [game(1, 1, p("A", 20), p("B", 19), p("C", 1)),
             game(2, 1, p("B", 90), p("C", 80), p("D", 1))]
    result = score_tournament("vittorie", None, games)
    assert [(r.rank, r.player, r.wins, str(r.shown_total)) for r in result.standings] == [
        (1, "B", 1, "159.00"), (2, "A", 1, "70.00"), (3, "C", 0, "81.00"), (4, "D", 0, "1.00")]


def test_triestino_orders_by_wins_and_shares_equal_wins_and_total():
    games = [game(1, 1, p("A", 10), p("B", 10), p("C", 10))]
    result = score_tournament("triestino", None, games)
    assert [(r.rank, r.player, r.wins) for r in result.standings] == [(1, "A", 1), (1, "B", 1), (1, "C", 1)]


def test_medagliere_orders_by_golds_then_silvers():
    games = [game(1, 1, p("A", 50), p("B", 40), p("C", 30)),
             game(2, 1, p("B", 50), p("C", 40), p("D", 30)),
             game(3, 1, p("E", 50), p("B", 40), p("C", 30)),
             game(4, 1, p("C", 50), p("B", 40), p("F", 30))]
    result = score_tournament("medagliere", None, games)
    assert [(r.rank, r.player, r.medals) for r in result.standings] == [
        (1, "B", (1, 3, 0, 0, 0)), (2, "C", (1, 1, 2, 0, 0)), (3, "A", (1, 0, 0, 0, 0)),
        (3, "E", (1, 0, 0, 0, 0)), (5, "D", (0, 0, 1, 0, 0)), (5, "F", (0, 0, 1, 0, 0))]


def test_tournament_penalty_lowers_total_never_below_zero():
    params = Params(tournament_penalties={"A": 20, "D": 5})
    result = score_tournament("punti_tavolo", params, [running_example()])
    assert table(result) == [(1, "B", "48.00"), (2, "A", "42.00"), (3, "C", "30.00"), (4, "D", "0.00")]
    assert result.standings[1].penalty == 20


def test_absence_scores_zero_and_counts_for_discards():
    games = [running_example(1), game(2, 1, p("B", 10), p("C", 10), p("D", 10))]
    result = score_tournament("punti_tavolo", Params(discard_worst=1), games, absences=[Absence(2, "A")])
    a = next(r for r in result.standings if r.player == "A")
    assert (a.results, a.counted, a.games, a.shown_total) == ((62, 0), (62,), 2, Decimal("62.00"))


def test_absence_of_a_player_without_games_gets_a_row():
    result = score_tournament("punti_tavolo", None, [running_example()], absences=[(1, "Z")])
    assert table(result)[-2:] == [(4, "D", "0.00"), (4, "Z", "0.00")]


def test_absence_and_result_in_the_same_round_is_rejected():
    with pytest.raises(ScoringError) as info:
        score_tournament("punti_tavolo", None, [running_example()], absences=[Absence(1, "A")])
    assert str(info.value) == "round 1 player A: has a result and an absence in the same round"


def test_standings_of_no_games_are_empty():
    result = score_tournament("standard", None, [])
    assert (result.games, result.standings) == ((), ())


# multi-phase ------------------------------------------------------------------------------------

def test_final_classification_final_then_finalina_then_qualifying():
    qualifying = list("ABCDEFGHIJ")
    final = game(9, 1, p("B", 60), p("D", 50), p("A", 40), p("C", 0, eliminated=1))
    finalina = game(9, 2, p("F", 30), p("E", 20), p("G", 20), p("H", 10))
    rows = final_classification(qualifying, final, finalina)
    assert rows == [
        PhaseRow(1, "B", "final"), PhaseRow(2, "D", "final"), PhaseRow(3, "A", "final"),
        PhaseRow(4, "C", "final"), PhaseRow(5, "F", "finalina"), PhaseRow(6, "E", "finalina"),
        PhaseRow(6, "G", "finalina"), PhaseRow(8, "H", "finalina"), PhaseRow(9, "I", "qualifying"),
        PhaseRow(10, "J", "qualifying")]


def test_final_classification_keeps_shared_qualifying_ranks():
    standings = score_tournament("punti_tavolo", None, [
        game(1, 1, p("A", 50), p("B", 40), p("C", 30), p("D", 30), p("E", 10))]).standings
    final = game(2, 1, p("B", 60), p("A", 50), p("E", 40))
    rows = final_classification(standings, final)
    assert [(r.position, r.player) for r in rows] == [(1, "B"), (2, "A"), (3, "E"), (4, "C"), (4, "D")]


def test_semifinal_plans_from_32_players_four_semifinals_of_the_top_16():
    assert semifinal_plans(40) == [SemifinalPlan((), (
        (1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)))]


def test_semifinal_plans_below_32_players_seed_the_top():
    one_seeded, two_seeded = semifinal_plans(20)
    assert one_seeded.seeded_to_final == (1,)
    assert sorted(x for t in one_seeded.semifinals for x in t) == list(range(2, 13))
    assert len(one_seeded.semifinals) == 3 and one_seeded.finalists == 4
    assert two_seeded == SemifinalPlan((1, 2), ((3, 6, 7, 10), (4, 5, 8, 9)))
    assert two_seeded.qualifiers_per_semifinal == 1


def test_semifinal_plans_need_enough_players():
    assert [plan.seeded_to_final for plan in semifinal_plans(11)] == [(1, 2)]
    assert semifinal_plans(8) == []


def test_missing_round_is_an_absence_that_discards_can_drop():
    """SCORING.md section 5: an absence scores 0 and counts as a played result for discards."""
    from scoring import Game, PlayerResult, score_tournament

    def table(rnd, results):
        return Game(rnd, 1, [PlayerResult(pid, tp) for pid, tp in results])

    games = [table(1, [("A", 50), ("B", 40), ("C", 30), ("D", 20)]),
             table(2, [("B", 10), ("C", 20), ("D", 30), ("E", 40)])]
    rows = score_tournament("punti_tavolo", {"discard_worst": 1}, games).standings
    assert [(r.rank, r.player, r.total) for r in rows] == [
        (1, "A", 50), (2, "B", 40), (2, "E", 40), (4, "C", 30), (4, "D", 30)]
    assert [r.results for r in rows if r.player == "A"] == [(50, 0)]
