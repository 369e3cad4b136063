"""Rules of saving a table's result that each hold by one clause of `table_result_submit` and
`require_correction_allowed`: the test beside each clause fails when the clause is weakened."""
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from tables.arbitration import services as arbitration
from tables.models import Seat
from tables.results.services import ResultLine, table_result_submit
from tables.rounds import services
from tests.factories import RegistrationFactory, report, seat_round
from tournaments.models import AuditLog

pytestmark = pytest.mark.django_db


def _points(table):
    return [s.table_points for s in Seat.objects.filter(table=table).order_by("position")]


def test_an_open_dispute_about_another_table_does_not_open_this_one(tournament, organiser, arbiter):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCDEFGH"]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    for table in rnd.tables.all():
        report(table, [(62,), (48,), (30,), (0, 1)])
    services.round_close(user=organiser, rnd=rnd)
    services.standings_publish(user=organiser, rnd=rnd)
    first, second = rnd.tables.order_by("number")
    arbitration.dispute_record(user=arbiter, tournament=tournament, about="result", raised_by="F",
                               text="F aveva 70 punti", table=second)
    with pytest.raises(ValidationError) as exc:
        report(first, [(62,), (70,), (30,), (0, 1)], user=arbiter)
    assert exc.value.messages == [
        "The standings of round 1 are published: a correction of table 1 is a dispute decision. Record the "
        "dispute about this table's result first, or ask the organiser."]
    assert _points(first) == [62, 48, 30, 0]
    # The disputed table itself is open to the arbiter.
    report(second, [(62,), (70,), (30,), (0, 1)], user=arbiter)
    assert _points(second) == [62, 70, 30, 0]
    assert AuditLog.objects.filter(action="result.correct").count() == 1


def test_a_result_leaving_out_a_seat_of_the_table_saves_nothing(tournament, organiser):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    table = seat_round(tournament, [regs]).tables.get()
    seats = list(table.seats.order_by("position"))
    version = table.version
    lines = [ResultLine(seat_id=s.pk, table_points=Decimal(tp)) for s, tp in zip(seats[:3], (62, 48, 30))]
    with pytest.raises(ValidationError) as exc:
        table_result_submit(user=organiser, table=table, lines=lines, version=version)
    assert exc.value.messages == ["The result must list exactly the players of the table."]
    table.refresh_from_db()
    assert (table.version, _points(table)) == (version, [None] * 4)
    assert not AuditLog.objects.filter(action__startswith="result.").exists()


def test_a_typed_place_is_kept_whatever_the_armies_say(tournament, organiser):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    table = seat_round(tournament, [regs]).tables.get()
    a, b, c, d = table.seats.order_by("position")
    # A and B tied on 40: the arbiter typed A first, the armies would put B (31 against 20) first.
    lines = [ResultLine(seat_id=a.pk, table_points=Decimal(40), place=1, armies=20),
             ResultLine(seat_id=b.pk, table_points=Decimal(40), place=2, armies=31),
             ResultLine(seat_id=c.pk, table_points=Decimal(30), armies=12),
             ResultLine(seat_id=d.pk, table_points=None, eliminated=1)]
    table_result_submit(user=organiser, table=table, lines=lines, version=table.version)
    assert [(s.table_points, s.armies, s.place) for s in Seat.objects.filter(table=table).order_by("position")] == [
        (Decimal(40), 20, 1), (Decimal(40), 31, 2), (Decimal(30), 12, None), (Decimal(0), None, None)]


def test_without_a_typed_place_the_armies_decide_the_tie(tournament, organiser):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    table = seat_round(tournament, [regs]).tables.get()
    a, b, c, d = table.seats.order_by("position")
    lines = [ResultLine(seat_id=a.pk, table_points=Decimal(40), armies=20),
             ResultLine(seat_id=b.pk, table_points=Decimal(40), armies=31),
             ResultLine(seat_id=c.pk, table_points=Decimal(30), armies=12),
             ResultLine(seat_id=d.pk, table_points=None, eliminated=1)]
    table_result_submit(user=organiser, table=table, lines=lines, version=table.version)
    assert [s.place for s in Seat.objects.filter(table=table).order_by("position")][:2] == [2, 1]
