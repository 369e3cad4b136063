import pytest

from tables.seating import Penalties, Player, SeatingError, evaluate, meetings_matrix
from tables.seating.penalties import LEVEL, meeting_cost, odd_counts, weights


def players(spec):
    """'A:x B:x C' -> players A and B of club x, C of none."""
    out = []
    for word in spec.split():
        pid, _, club = word.partition(":")
        out.append(Player(pid, club or None))
    return out


def test_evaluate_counts_same_club_pairs():
    ps = players("A:x B:x C:x D E:y F:y G H")
    pen = evaluate([["A", "B", "C", "D"], ["E", "F", "G", "H"]], ps, [])
    assert pen == Penalties(same_club_pairs=4, repeat_pairs=0, max_meetings=1)


def test_evaluate_ignores_players_without_club():
    ps = players("A B C D")
    assert evaluate([["A", "B", "C", "D"]], ps, []).same_club_pairs == 0


def test_evaluate_counts_pairs_that_met_before():
    ps = players("A B C D E F G H")
    history = [["A", "B", "C", "D"], ["E", "F", "G", "H"], ["A", "B", "E", "F"]]
    pen = evaluate([["A", "B", "G", "H"], ["C", "D", "E", "F"]], ps, history)
    # A-B met twice before, G-H, C-D and E-F once each.
    assert pen.repeat_pairs == 4
    assert pen.max_meetings == 3


def test_evaluate_max_meetings_includes_history():
    ps = players("A B C D")
    pen = evaluate([["A", "C", "B", "D"]], ps, [["A", "B", "X", "Y"]] * 3)
    assert pen.max_meetings == 4


def test_meeting_cost_makes_a_third_meeting_worse_than_two_second_ones():
    assert meeting_cost(1) == 0
    assert meeting_cost(3) > 2 * meeting_cost(2)


def test_meetings_matrix_is_symmetric_and_counts_tables():
    m = meetings_matrix([["A", "B", "C"], ["A", "B", "D"]])
    assert m["A"]["B"] == m["B"]["A"] == 2
    assert m["C"] == {"A": 1, "B": 1}
    assert "D" not in m["C"]


def test_odd_counts_prefer_fives_over_history():
    history = [["A", "B", "C", "D", "E"], ["F", "G", "H", "I"]]
    assert odd_counts(["A", "B", "F"], history, {"A": 3}, 4) == {"A": 3, "B": 1, "F": 0}


def test_evaluate_counts_repeat_fives_that_a_swap_would_avoid():
    ps = players("A B C D E F G H I")
    tables = [["A", "B", "C", "D", "E"], ["F", "G", "H", "I"]]
    # A and B were at a 5-player table before while F..I never were.
    assert evaluate(tables, ps, [], {"A": 1, "B": 2}).repeat_fives == 2
    # Everyone was there once: nobody could have been spared.
    everyone = {p.id: 1 for p in ps}
    assert evaluate(tables, ps, [], everyone).repeat_fives == 0


def test_three_player_tables_are_off_size_too():
    """SEATING.md section 3.3: a 3-player table counts like a 5-player one when 4 is preferred."""
    assert odd_counts(["A", "B", "C", "D"], [["A", "B", "C"]], None, 4) == {"A": 1, "B": 1, "C": 1, "D": 0}
    ps = players("A B C D E F G")
    history = [["A", "B", "C"], ["D", "E", "F", "G"]]
    # A sits at a 3-player table again while D, never at one, sits at a table of 4.
    assert evaluate([["A", "E", "F"], ["B", "C", "D", "G"]], ps, history, table_size=4).repeat_fives == 1


def test_evaluate_counts_winners_together():
    ps = players("A B C D E F G H")
    pen = evaluate([["A", "B", "C", "D"], ["E", "F", "G", "H"]], ps, [], winners={"A", "B", "E"})
    assert pen.winner_pairs == 1


def test_weights_follow_priority_order():
    assert weights() == {"club": LEVEL ** 3, "repeat": LEVEL ** 2, "fives": LEVEL, "winners": 1}
    w = weights(["repeat", "club"])
    assert w["repeat"] > w["club"] > w["fives"] > w["winners"]


def test_weights_reject_unknown_priorities():
    with pytest.raises(SeatingError, match="unknown priority"):
        weights(["elo"])
