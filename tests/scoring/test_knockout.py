"""SCORING.md 4.13: knockout phases, the table winner advances."""
import pytest

from scoring import InvalidResult
from scoring.knockout import KnockoutOutcome, knockout_phase, seconds, table_winner

from .builders import game, p


def first_phase():
    return [game(1, 1, p("A", 50), p("B", 40), p("C", 30), p("D", 20)),
            game(1, 2, p("E", 10, risiko=True), p("F", 60), p("G", 5), p("H", 0, eliminated=1))]


def test_table_winner_is_place_one():
    assert [table_winner(g) for g in first_phase()] == ["A", "E"]


def test_table_winner_needs_the_tie_settled():
    g = game(1, 3, p("A", 50), p("B", 50), p("C", 30))
    with pytest.raises(InvalidResult) as info:
        table_winner(g)
    assert str(info.value) == "round 1 table 3: a knockout table needs one winner: settle the tie between A, B with places"
    assert table_winner(game(1, 3, p("A", 50, place=2), p("B", 50, place=1), p("C", 30))) == "B"


def test_knockout_without_second_chance():
    assert knockout_phase(first_phase()) == KnockoutOutcome(("A", "E"), ("B", "C", "D", "F", "G", "H"))


def test_knockout_with_second_chance_pending():
    outcome = knockout_phase(first_phase(), with_second_chance=True)
    assert outcome == KnockoutOutcome(("A", "E"), (), ("B", "C", "D", "F", "G", "H"))
    assert not outcome.complete


def test_knockout_second_chance_winners_also_advance():
    second = [game(2, 1, p("B", 20), p("C", 30), p("D", 10)), game(2, 2, p("F", 50), p("G", 40), p("H", 1))]
    outcome = knockout_phase(first_phase(), second, with_second_chance=True)
    assert outcome == KnockoutOutcome(("A", "E", "C", "F"), ("B", "D", "G", "H"))
    assert outcome.complete


def test_knockout_second_chance_only_for_losers():
    second = [game(2, 1, p("A", 20), p("C", 30), p("D", 10))]
    with pytest.raises(InvalidResult) as info:
        knockout_phase(first_phase(), second, with_second_chance=True)
    assert str(info.value) == "round 2 table 1 player A: only the losers of the first game play the second chance"


def test_seconds_are_listed_best_first_by_table_points():
    games = [game(1, 1, p("A", 70), p("B", 20), p("C", 10), p("D", 0, eliminated=1)),
             game(1, 2, p("E", 80), p("F", 55), p("G", 30), p("H", 5)),
             game(1, 3, p("I", 60), p("J", 35), p("K", 30), p("L", 0, eliminated=1)),
             game(1, 4, p("M", 10, risiko=True), p("N", 65), p("O", 40), p("P", 0, eliminated=1))]
    # N is second behind a RisiKo! with 65 table points of their own.
    assert seconds(games) == [("N", 65), ("F", 55), ("J", 35), ("B", 20)]


def test_a_shared_second_place_gives_no_best_second():
    games = [game(1, 1, p("A", 70), p("B", 40), p("C", 40), p("D", 0, eliminated=1)),
             game(1, 2, p("E", 80), p("F", 25), p("G", 10), p("H", 5))]
    assert seconds(games) == [("F", 25)]
    # Settled at the table with places, the tie gives its second again.
    settled = game(1, 1, p("A", 70), p("B", 40, place=3), p("C", 40, place=2), p("D", 0, eliminated=1))
    assert seconds([settled, games[1]]) == [("C", 40), ("F", 25)]
