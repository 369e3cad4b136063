"""The organiser's "who met whom" matrix: counts per pair, the worst pair, meetings beyond the first."""
from django.urls import reverse

from tables.rounds.selectors import meetings_matrix
from tests.factories import RegistrationFactory, seat_round


def _five(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=name) for name in "ABCDE"]
    a, b, c, d, e = regs
    for table in ([a, b, c, d], [a, b, c, e], [a, b, d, e]):
        seat_round(tournament, [table])
    return regs


def test_meetings_matrix_counts_each_pair_and_the_repeats(tournament):
    a, b, c, d, e = _five(tournament)
    matrix = meetings_matrix(tournament)
    assert matrix.regs == [a, b, c, d, e]
    assert matrix.rows == [(a, [None, 3, 2, 2, 2]), (b, [3, None, 2, 2, 2]), (c, [2, 2, None, 1, 1]),
                           (d, [2, 2, 1, None, 1]), (e, [2, 2, 1, 1, None])]
    # A and B met 3 times; beyond each pair's first meeting: 2 (A-B) + 1 for each of the 6 pairs met twice.
    assert (matrix.worst, matrix.repeats) == (3, 8)


def test_meetings_page_shows_the_counts(client_for, organiser, tournament):
    _five(tournament)
    response = client_for(organiser).get(reverse("manage:meetings", args=[tournament.pk]))
    assert response.status_code == 200
    assert response.context["matrix"][0][1] == [None, 3, 2, 2, 2]
    assert (response.context["worst"], response.context["repeats"]) == (3, 8)


def test_meetings_matrix_is_empty_before_the_first_round(tournament):
    RegistrationFactory(tournament=tournament)
    matrix = meetings_matrix(tournament)
    assert (matrix.regs, matrix.rows, matrix.worst, matrix.repeats) == ([], [], 0, 0)
