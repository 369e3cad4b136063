"""Two arbiters saving the same table at the same moment: PostgreSQL, real concurrent transactions."""
import threading
from decimal import Decimal

import pytest
from django.db import connection, connections

from tables.results import services as results
from tables.models import Table
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory, seat_round
from tournaments.models import AuditLog

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("locking is tested on PostgreSQL (make test-postgres)")


def _run_together(*calls):
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def worker(i, call):
        try:
            barrier.wait(timeout=10)
            outcomes[i] = ("ok", call())
        except Exception as exc:  # the outcome is what the test inspects
            outcomes[i] = ("error", exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


def test_two_concurrent_saves_on_the_same_version_one_is_refused():
    tournament = TournamentFactory(organiser=OrganiserFactory())
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    table = seat_round(tournament, [regs]).tables.get()
    seats = list(table.seats.order_by("position"))
    first, second = UserFactory(username="primo"), UserFactory(username="secondo")

    def save(user, tps):
        lines = [results.ResultLine(seat_id=s.pk, table_points=Decimal(tp), eliminated=1 if tp == 0 else None)
                 for s, tp in zip(seats, tps)]
        return results.table_result_submit(user=user, table=table, lines=lines, version=0)

    outcomes = _run_together(lambda: save(first, [62, 48, 30, 0]), lambda: save(second, [10, 20, 30, 0]))
    kinds = sorted(kind for kind, _ in outcomes)
    assert kinds == ["error", "ok"]
    error = next(value for kind, value in outcomes if kind == "error")
    assert isinstance(error, results.StaleResult)
    table = Table.objects.get(pk=table.pk)
    winner = next(value for kind, value in outcomes if kind == "ok")
    assert table.version == 1
    assert table.reported_by == winner.reported_by
    saved = [s.table_points for s in table.seats.order_by("position")]
    expected = [Decimal(62), Decimal(48), Decimal(30), Decimal(0)] if winner.reported_by == first else \
        [Decimal(10), Decimal(20), Decimal(30), Decimal(0)]
    assert saved == expected
    assert AuditLog.objects.filter(action="result.enter").count() == 4
