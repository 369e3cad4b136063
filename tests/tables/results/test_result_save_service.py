"""The save of a table's result sent from a phone (tables.results.services.table_result_save): what
looks like a slip is asked before anything is saved, and saved once the arbiter confirms it."""
from decimal import Decimal

import pytest

from tables.models import Seat
from tables.results import services as results
from tests.factories import RegistrationFactory, seat_round
from tests.html import tr


@pytest.fixture
def table(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    return seat_round(tournament, [regs]).tables.get()


def _saved(table):
    return [s.table_points for s in Seat.objects.filter(table=table).order_by("position")]


def test_a_table_at_0_is_asked_and_saved_once_confirmed(arbiter, table):
    lines = [results.ResultLine(seat_id=seat.pk, table_points=Decimal(0)) for seat in table.seats.order_by("position")]
    with pytest.raises(results.ResultQuestion) as asked:
        results.table_result_save(user=arbiter, table=table, lines=lines, version=0)
    assert asked.value.asked == [tr("Every player has 0 table points.")]
    assert _saved(table) == [None] * 4
    results.table_result_save(user=arbiter, table=table, lines=lines, version=0, confirmed=True)
    assert _saved(table) == [0, 0, 0, 0]


def test_an_ordinary_result_is_saved_without_a_question(arbiter, table):
    lines = [results.ResultLine(seat_id=seat.pk, table_points=Decimal(points), eliminated=1 if points == 0 else None)
             for seat, points in zip(table.seats.order_by("position"), (62, 48, 30, 0))]
    saved = results.table_result_save(user=arbiter, table=table, lines=lines, version=0)
    assert saved.version == 1
    assert _saved(table) == [62, 48, 30, 0]
