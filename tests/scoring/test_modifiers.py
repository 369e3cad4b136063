"""SCORING.md section 5: Como corrective, penalties, disqualification; formula -> Como -> penalty."""
from decimal import Decimal

import pytest

from scoring import Params, score_game, score_tournament
from scoring.modifiers import apply_penalty, como_corrective, disqualify

from .builders import as_text, five_players, game, p, running_example


@pytest.mark.parametrize("players, expected", [(3, "30"), (4, "40"), (5, "50"), (6, "60")])
def test_como_corrective_scales_by_players_over_five(players, expected):
    assert como_corrective(Decimal(50), players) == Decimal(expected)


def test_como_corrective_on_three_and_six_player_tables():
    games = [game(1, 1, p("A", 50), p("B", 20), p("C", 10)),
             game(1, 2, *(p(x, 50 - 5 * i) for i, x in enumerate("DEFGHI")))]
    result = score_tournament("punti_tavolo", Params(como_reference=5), games)
    assert as_text(result.games[0].points) == {"A": "30.00", "B": "12.00", "C": "6.00"}
    assert as_text(result.games[1].points)["D"] == "60.00"
    assert result.games[0].como_factor == (3, 5)


def test_como_corrective_applies_to_any_formula():
    result = score_tournament("conversione150", Params(como_reference=5), [running_example()])
    assert result.games[0].points["A"] == Decimal("120.112")
    assert as_text(result.games[0].points) == {"A": "120.11", "B": "68.80", "C": "48.00", "D": "8.00"}


def test_como_corrective_leaves_five_player_tables_unchanged():
    plain = score_game("veronese", five_players())
    como = score_game("veronese", five_players(), Params(como_reference=5))
    assert plain.points == como.points


def test_penalty_applies_after_como_corrective():
    g = game(1, 1, p("A", 62, penalty=10), p("B", 48), p("C", 30, penalty=40), p("D", 0, eliminated=1))
    score = score_game("bonus50", g, Params(como_reference=5))
    a = score.players[0]
    assert (a.formula_points, a.corrected_points, a.penalty, a.points) == (112, Decimal("89.6"), 10, Decimal("79.6"))
    assert as_text(score.points) == {"A": "79.60", "B": "38.40", "C": "0.00", "D": "0.00"}


def test_penalty_never_takes_a_result_below_zero():
    assert apply_penalty(Decimal(30), Decimal(40)) == 0
    assert apply_penalty(Decimal(30), Decimal(5)) == 25
    assert apply_penalty(Decimal(30), Decimal(0)) == 30


def test_penalty_never_raises_a_negative_result():
    assert apply_penalty(Decimal(-10), Decimal(5)) == -10


def test_penalty_on_an_eliminated_player_stays_at_zero():
    g = game(1, 1, p("A", 62), p("B", 48), p("C", 30), p("D", 0, eliminated=1, penalty=3))
    assert score_game("conversione150", g).points["D"] == Decimal(7)
    assert score_game("punti_tavolo", g).points["D"] == 0


def test_disqualified_player_becomes_first_eliminated():
    g = game(1, 1, p("A", 62), p("B", 48), p("C", 30), p("D", 0, eliminated=1))
    dq = disqualify(g, "B")
    seats = [(s.player, s.rank, s.eliminated) for s in dq.placement.seats]
    assert seats == [("A", 1, None), ("C", 2, None), ("D", 3, 2), ("B", 4, 1)]
    assert as_text(score_game("conversione150", dq).points) == {"A": "150.32", "C": "80.00", "D": "20.00",
                                                               "B": "10.00"}


def test_disqualified_risiko_player_loses_the_risiko():
    g = game(1, 1, p("A", 40, risiko=True, disqualified=True), p("B", 55), p("C", 20), p("D", 12))
    assert as_text(score_game("standard", g).points) == {"B": "12.55", "C": "7.20", "D": "5.12", "A": "1.00"}


def test_disqualify_unknown_player_raises_key_error():
    with pytest.raises(KeyError):
        disqualify(running_example(), "Z")


def test_every_player_disqualified_is_rejected():
    g = game(1, 1, *(p(x, 10, disqualified=True) for x in "ABC"))
    with pytest.raises(Exception) as info:
        g.placement
    assert str(info.value) == "round 1 table 1: at least one player must not be eliminated"
