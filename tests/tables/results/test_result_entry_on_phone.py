"""Typing a table's result on a phone: the Italian decimal comma, letters refused with a message, a
table at 0 or a tie without places asked before saving, the cursor on the field in error."""
from decimal import Decimal

import pytest
from django.urls import reverse

from tables.models import Seat
from tests.factories import RegistrationFactory, seat_round
from tests.html import field_errors, one, select, texts, tr

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    return seat_round(tournament, [regs]).tables.get()


def _post(client, table, points, headers=None, **extra):
    seats = list(table.seats.order_by("position"))
    data = {"version": table.version}
    for i, (seat, tp) in enumerate(zip(seats, points)):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp})
    data.update(extra)
    return client.post(reverse("arbiter:table", args=[table.round.tournament.pk, 1, table.number]), data,
                       headers=headers or {})


def _saved(table):
    return [s.table_points for s in Seat.objects.filter(table=table).order_by("position")]


def _autofocused(response):
    return select(response, "input[autofocus]")


def test_a_decimal_comma_is_a_decimal_point_never_a_thousand(client_for, arbiter, table):
    response = _post(client_for(arbiter), table, ["12,5", "70", "30,25", "0"], **{"p3-eliminated": "1"})
    assert response.status_code == 302
    assert _saved(table) == [Decimal("12.5"), Decimal("70"), Decimal("30.25"), Decimal("0")]


def test_table_points_are_a_text_box_with_the_decimal_keypad(client_for, arbiter, table):
    page = client_for(arbiter).get(reverse("arbiter:table", args=[table.round.tournament.pk, 1, 1]))
    box = one(page, "input[name=p0-table_points]")
    assert (box["type"], box["inputmode"]) == ("text", "decimal")


@pytest.mark.parametrize("typed", ["12a", "abc", "1,2,3", "12.5.1", "-5"])
def test_letters_or_malformed_figures_are_refused_with_a_message(client_for, arbiter, table, typed):
    response = _post(client_for(arbiter), table, ["62", typed, "30", "0"], **{"p3-eliminated": "1"})
    assert response.status_code == 400
    assert field_errors(response, "p1-table_points") == [
        tr("Write the table points in digits, e.g. 62 or 12,5: “%(value)s” is not a number.", value=typed)]
    assert _saved(table) == [None] * 4
    # The field in error keeps what was typed and has the cursor; player 1 does not.
    [focused] = _autofocused(response)
    assert (focused["name"], focused["aria-invalid"], focused["value"]) == ("p1-table_points", "true", typed)


def test_after_a_refused_save_the_cursor_goes_to_the_field_in_error(client_for, arbiter, table):
    response = _post(client_for(arbiter), table, ["62", "48", "30", "0"], **{"p3-eliminated": "x"})
    assert response.status_code == 400
    [focused] = _autofocused(response)
    assert focused["name"] == "p3-eliminated"


def test_a_table_where_everybody_has_0_is_asked_before_saving(client_for, arbiter, table):
    client = client_for(arbiter)
    response = _post(client, table, ["0", "0", "0", "0"])
    assert response.status_code == 200
    question = one(response, "[data-result-question]")
    assert texts(question, "p")[0] == tr("Every player has 0 table points.")
    assert one(question, "button[name=confirmed]")["value"] == "1"
    assert _saved(table) == [None] * 4
    assert _post(client, table, ["0", "0", "0", "0"], confirmed="1").status_code == 302
    assert _saved(table) == [0, 0, 0, 0]


def test_a_tie_without_places_is_asked_and_with_places_is_not(client_for, arbiter, table):
    client = client_for(arbiter)
    response = _post(client, table, ["50", "50", "30", "0"], **{"p3-eliminated": "1"})
    assert response.status_code == 200
    assert texts(one(response, "[data-result-question]"), "p")[0] == tr(
        "%(n)d players are level on %(points)s table points and no place is given.", n=2, points="50")
    assert _saved(table) == [None] * 4
    response = _post(client, table, ["50", "50", "30", "0"], **{"p3-eliminated": "1", "p0-place": "1",
                                                                 "p1-place": "2"})
    assert response.status_code == 302
    assert _saved(table) == [50, 50, 30, 0]


def test_an_ordinary_result_is_saved_without_a_question(client_for, arbiter, table):
    assert _post(client_for(arbiter), table, ["62", "48", "30", "0"], **{"p3-eliminated": "1"}).status_code == 302


def test_a_queued_save_without_the_answer_is_refused_with_the_question(client_for, arbiter, table):
    response = _post(client_for(arbiter), table, ["0", "0", "0", "0"], headers={"X-Torneo-Sync": "1"})
    assert response.status_code == 400
    assert response.json()["errors"] == ["Every player has 0 table points."]
