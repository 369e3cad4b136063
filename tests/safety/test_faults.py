"""Database failures while results are saved, and saves racing the standings: nothing is lost."""
import threading
import time
from decimal import Decimal

import pytest
from django.conf import settings
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tables.results import writer as results
from tables.models import Seat, Table
from tables.standings.selectors import tournament_standings
from tables.templatetags.torneo import points as shown
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory, report, seat_round
from tests.html import one, texts
from tournaments.models import AuditLog
from tournaments.versions import results_version

FIRST = [Decimal("62"), Decimal("48"), Decimal("30"), Decimal("0")]


@pytest.fixture
def reported(tournament, organiser):
    """A table whose first result (62, 48, 30, eliminated) is saved."""
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    table = seat_round(tournament, [regs]).tables.get()
    report(table, [(62,), (48,), (30,), (0, 1)], user=organiser)
    return Table.objects.get(pk=table.pk)


def _fail_on_call(number):
    """A side effect that makes the database itself fail on its `number`th call."""
    calls = []

    def maybe_fail():
        calls.append(1)
        if len(calls) == number:
            # A real error from the database (the transaction is aborted on PostgreSQL), not a Python one.
            with connection.cursor() as cursor:
                cursor.execute("SELECT * FROM torneo_no_such_table")
    return maybe_fail


def _correction(table, points):
    data = {"version": str(table.version)}
    for i, (seat, tp) in enumerate(zip(table.seats.order_by("position"), points)):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp, f"p{i}-eliminated": "1" if tp == 0 else ""})
    return data


def _saved(table):
    return list(Seat.objects.filter(table=table).order_by("position").values_list("table_points", flat=True))


def _fail_before(target, monkeypatch):
    """Make the database fail when the save writes the table's third seat (after it has claimed the
    table's new version and written two seats) or the seats' audit entries (one INSERT, after every
    seat is written)."""
    if target == "seat":
        fail = _fail_on_call(3)
        save = Seat.save
        monkeypatch.setattr(Seat, "save", lambda self, *a, **kw: (fail(), save(self, *a, **kw))[1])
    else:
        fail = _fail_on_call(1)
        audit_many = results.audit_many
        monkeypatch.setattr(results, "audit_many", lambda *a, **kw: (fail(), audit_many(*a, **kw))[1])


@pytest.mark.parametrize("target", ["seat", "audit"])
def test_database_error_in_the_middle_of_a_save_keeps_the_previous_result(client, monkeypatch, tournament, arbiter,
                                                                          reported, target):
    _fail_before(target, monkeypatch)
    client.force_login(arbiter)
    url = reverse("arbiter:table", args=[tournament.pk, 1, 1])
    entries = AuditLog.objects.count()
    response = client.post(url, _correction(reported, [40, 35, 20, 0]))
    assert response.status_code == 503
    assert response.context["errors"] == [
        "The database did not answer: nothing was saved and the previous result is unchanged. Please save again."]
    assert [f["table_points"].value() for f in response.context["forms"]] == ["40", "35", "20", "0"]
    assert _saved(reported) == FIRST
    assert Table.objects.get(pk=reported.pk).version == 1
    assert AuditLog.objects.count() == entries


def test_result_sent_again_after_a_database_error_is_saved(client, monkeypatch, tournament, arbiter, reported):
    with monkeypatch.context() as patch:
        _fail_before("seat", patch)
        client.force_login(arbiter)
        url = reverse("arbiter:table", args=[tournament.pk, 1, 1])
        page = client.post(url, _correction(reported, [40, 35, 20, 0]))
    assert page.status_code == 503
    version = one(page, "input[name=version]")["value"]
    assert version == "1"
    response = client.post(url, {**_correction(reported, [40, 35, 20, 0]), "version": version})
    assert response.status_code == 302
    assert _saved(reported) == [Decimal("40"), Decimal("35"), Decimal("20"), Decimal("0")]
    assert AuditLog.objects.filter(action="result.correct").count() == 3


# --- PostgreSQL: real concurrent requests ------------------------------------------------------

def _totals(page):
    """The totals column of a standings page (or of its htmx poll), top to bottom."""
    return texts(page, "td.total") if page is not None else []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_results_saved_while_standings_are_computed_are_never_lost():
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (make test-postgres)")
    tournament = TournamentFactory(organiser=OrganiserFactory())
    arbiters = [UserFactory(username=f"arbitro{i}") for i in range(4)]
    tournament.arbiters.add(*arbiters)
    regs = [RegistrationFactory(tournament=tournament) for _ in range(32)]
    rnd = seat_round(tournament, [regs[i:i + 4] for i in range(0, 32, 4)])
    tables = list(rnd.tables.order_by("number"))
    acked, errors, writing = {}, [], threading.Event()
    writing.set()
    url = reverse("public:standings", args=[tournament.pk])

    def arbiter_saves(user, mine):
        client = Client()
        client.force_login(user)
        try:
            for step in range(3):
                for table in mine:
                    points = [10 * step + table.number, 40, 20, 0]
                    response = client.post(reverse("arbiter:table", args=[tournament.pk, 1, table.number]),
                                           {**_correction(table, points), "version": str(step)})
                    if response.status_code == 302:
                        acked[table.pk] = (step + 1, [Decimal(p) for p in points])
                    else:
                        errors.append(response.status_code)
        finally:
            connections.close_all()

    finals, last_version = [], {}

    def phone_polls():
        client = Client(headers={"HX-Request": "true"})
        etag, last = None, None
        try:
            while writing.is_set():
                response = client.get(url, headers={"If-None-Match": etag} if etag else {})
                if response.status_code == 200:
                    etag, last = response["ETag"], response
                elif response.status_code != 304:
                    errors.append(response.status_code)
            # The last page may be served while one request renders the new one, for at most the
            # stale bound: the phone polls on until the bound (and a render) has passed.
            deadline = time.monotonic() + settings.PUBLIC_PAGE_STALE_SECONDS + 10
            while True:
                response = client.get(url, headers={"If-None-Match": etag})
                if response.status_code == 200:
                    etag, last = response["ETag"], response
                if response.get("X-Results-Version") == last_version.get("v") or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            finals.append(_totals(last))
        finally:
            connections.close_all()

    writers = [threading.Thread(target=arbiter_saves, args=(a, tables[i::4])) for i, a in enumerate(arbiters)]
    readers = [threading.Thread(target=phone_polls) for _ in range(4)]
    for t in readers + writers:
        t.start()
    for t in writers:
        t.join(timeout=120)
    last_version["v"] = str(results_version(tournament.pk))
    writing.clear()
    for t in readers:
        t.join(timeout=60)

    assert errors == []
    assert len(acked) == 8
    for table in tables:
        version, points = acked[table.pk]
        assert (Table.objects.get(pk=table.pk).version, _saved(table)) == (version, points)
    # Per table: 4 entries for the first save, then 1 per correction (only the first seat changes).
    assert AuditLog.objects.filter(action__startswith="result.").count() == 8 * (4 + 1 + 1)
    fresh = _totals(Client().get(url))
    with translation.override("en"):
        assert fresh == [shown(r.total) for r in tournament_standings(tournament).rows]
    assert len(fresh) == 32
    assert finals == [fresh] * 4


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_save_committed_after_a_later_one_still_changes_the_standings_etag():
    """Audit ids are handed out at insert, not at commit: the ETag must not be fooled by the order."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (make test-postgres)")
    from django.db import transaction
    tournament = TournamentFactory(organiser=OrganiserFactory())
    regs = [RegistrationFactory(tournament=tournament) for _ in range(8)]
    slow_table, fast_table = seat_round(tournament, [regs[:4], regs[4:]]).tables.order_by("number")
    written, commit = threading.Event(), threading.Event()

    def slow_save():
        try:
            with transaction.atomic():
                report(slow_table, [(62,), (48,), (30,), (0, 1)])
                written.set()
                commit.wait(timeout=30)
        finally:
            connections.close_all()

    slow = threading.Thread(target=slow_save)
    slow.start()
    assert written.wait(timeout=30)
    report(fast_table, [(50,), (40,), (30,), (0, 1)])
    url = reverse("public:standings", args=[tournament.pk])
    client = Client(headers={"HX-Request": "true"})  # the phones' polling
    etag = client.get(url)["ETag"]
    commit.set()
    slow.join(timeout=30)
    response = client.get(url, headers={"If-None-Match": etag})
    assert response.status_code == 200
    # Eight players with a round-1 score: none shown as "–" (not reported).
    rounds = texts(response, "td.round-col")
    assert len(rounds) == 8 and "–" not in rounds
