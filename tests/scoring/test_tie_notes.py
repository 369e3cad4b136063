"""Which tie-break decided a tie (scoring/tie_notes.py): the first criterion of the chain that tells two
neighbours equal on the total apart, with each one's value under it."""
from decimal import Decimal

from scoring import Params, score_tournament
from scoring.tie_notes import TieNote, tie_notes


def _games(*rounds):
    from scoring.model import Game, PlayerResult
    return [Game(r, t, tuple(PlayerResult(p, Decimal(tp)) for p, tp in players))
            for r, tables in enumerate(rounds, 1) for t, players in enumerate(tables, 1)]


GAMES = _games([[("A", 70), ("B", 20), ("C", 10), ("D", 0)]], [[("A", 30), ("B", 80), ("C", 10), ("D", 0)]])


def test_best_results_decide_and_their_values_are_given():
    result = score_tournament("punti_tavolo", Params(tiebreak=("best_results",)), GAMES)
    assert [(r.player, r.rank) for r in result.standings][:2] == [("B", 1), ("A", 2)]
    assert tie_notes(result.standings, ("best_results",)) == [
        TieNote("B", "A", "best_results", Decimal("80.00"), Decimal("70.00"))]


def test_the_first_criterion_that_differs_is_named_not_the_first_of_the_chain():
    result = score_tournament("punti_tavolo", Params(tiebreak=("wins", "previous_round")), GAMES)
    # one win each: the standings after round 1 decide (A 70, B 20)
    assert tie_notes(result.standings, ("wins", "previous_round")) == [
        TieNote("A", "B", "previous_round", Decimal("70.00"), Decimal("20.00"))]


def test_a_tie_left_shared_and_players_apart_on_the_total_have_no_note():
    result = score_tournament("punti_tavolo", Params(), GAMES)
    assert [r.rank for r in result.standings] == [1, 1, 3, 4]
    assert tie_notes(result.standings, ()) == []
