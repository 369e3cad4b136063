"""tables.rounds.selectors: a player's games with their table mates, and the odd table sizes of a drawn
round, are read in a fixed number of queries however many rounds, tables and players there are."""
from tables.rounds.selectors import off_size_tables, player_seats
from tests.factories import RegistrationFactory, seat_round


def _players(tournament, names):
    return {name: RegistrationFactory(tournament=tournament, player__last_name=name) for name in names}


def _tables(regs, sizes):
    """Consecutive registrations cut into tables of the given sizes."""
    regs, tables = list(regs), []
    for size in sizes:
        tables.append(regs[:size])
        regs = regs[size:]
    return tables


def test_off_size_tables_names_each_size_other_than_4_and_5_once_smallest_first(tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(27)]
    rnd = seat_round(tournament, _tables(regs, [6, 4, 3, 5, 6, 3]))
    assert off_size_tables(rnd) == [3, 6]


def test_a_round_of_tables_of_4_and_5_has_no_off_size(tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(13)]
    assert off_size_tables(seat_round(tournament, _tables(regs, [5, 4, 4]))) == []


def test_off_size_tables_of_6_tables_takes_as_many_queries_as_of_2(tournament, django_assert_num_queries):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(34)]
    two = seat_round(tournament, _tables(regs, [4, 3]))
    six = seat_round(tournament, _tables(regs[7:], [6, 4, 3, 5, 6, 3]))
    with django_assert_num_queries(1):
        assert off_size_tables(two) == [3]
    with django_assert_num_queries(1):
        assert off_size_tables(six) == [3, 6]


def test_player_seats_lists_the_published_games_oldest_first_with_the_mates_in_seat_order(tournament):
    p = _players(tournament, "ABCDEFGH")
    seat_round(tournament, [[p["A"], p["B"], p["C"], p["D"]], [p["E"], p["F"], p["G"], p["H"]]])
    seat_round(tournament, [[p["E"], p["A"], p["F"], p["B"], p["G"]], [p["C"], p["D"], p["H"]]], status="closed")
    seat_round(tournament, [[p["H"], p["G"], p["A"], p["C"]], [p["B"], p["D"], p["E"], p["F"]]], status="draft")
    seats = player_seats(p["A"])
    assert [(s.table.round.number, s.table.number, s.position) for s in seats] == [(1, 1, 1), (2, 1, 2)]
    assert [[o.last_name for o in s.opponents] for s in seats] == [["B", "C", "D"], ["E", "F", "B", "G"]]
    assert [[o.last_name for o in s.opponents] for s in player_seats(p["H"])] == [["E", "F", "G"], ["C", "D"]]


def test_player_seats_of_6_rounds_of_5_take_as_many_queries_as_of_2_rounds_of_4(tournament,
                                                                                  django_assert_num_queries):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(30)]
    few, many = regs[0], regs[10]
    for number in range(1, 7):
        # `few` plays the first two rounds at a table of 4; `many` plays all six at one of four tables of 5.
        tables = _tables(regs[10:], [5] * 4) if number > 2 else [regs[:4]] + _tables(regs[10:], [5] * 4)
        seat_round(tournament, tables, number=number)
    with django_assert_num_queries(2):
        assert [len(s.opponents) for s in player_seats(few)] == [3, 3]
    with django_assert_num_queries(2):
        assert [len(s.opponents) for s in player_seats(many)] == [4] * 6
