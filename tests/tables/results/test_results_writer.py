"""One writer of seat results (ARCHITECTURE.md): every save of a seat's result fields goes through
tables.results.services.write_seat_results, and a save crosses into the scoring core once."""
import ast
import re
from decimal import Decimal
from pathlib import Path
from unittest import mock

import pytest

from tables import engine
from tables.models import Seat
from tables.results.writer import RESULT_FIELDS
from tables.results.services import ResultLine, table_result_submit
from tables.results.writer import results_clear
from tests.factories import RegistrationFactory, report, seat_round

ROOT = Path(__file__).resolve().parents[3]
APPS = ("tables", "tournaments", "phases", "circuits")
WRITER = ROOT / "tables/results/writer.py"


def result_writes(tree):
    """Lines that set a result field: `x.place = ...`, `.update(place=...)`, `setattr(seat, name, ...)`."""
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            for t in (target.elts if isinstance(target, ast.Tuple) else [target]):
                if isinstance(t, ast.Attribute) and t.attr in RESULT_FIELDS:
                    found.append(node.lineno)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update" \
                and any(k.arg in RESULT_FIELDS for k in node.keywords):
            found.append(node.lineno)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and len(node.args) > 1 and (isinstance(node.args[0], ast.Name) and "seat" in node.args[0].id
                                            or isinstance(node.args[1], ast.Constant)
                                            and node.args[1].value in RESULT_FIELDS):
            found.append(node.lineno)
    return found


def test_only_the_results_writer_writes_a_seats_result():
    writes = {str(p.relative_to(ROOT)): lines for app in APPS for p in sorted((ROOT / app).rglob("*.py"))
              if "migrations" not in p.parts and p != WRITER
              and (lines := result_writes(ast.parse(p.read_text(encoding="utf-8"))))}
    assert writes == {}
    assert result_writes(ast.parse(WRITER.read_text(encoding="utf-8")))


def test_the_scan_sees_an_assignment_and_an_update():
    tree = ast.parse("seat.place = 1\nseat.risiko, x = True, 2\nSeat.objects.update(armies=None)\nrow.rank = 3\n"
                     "setattr(seat, f, v)\nsetattr(rnd, f, v)\nsetattr(x, 'firenze', None)\n")
    assert result_writes(tree) == [1, 2, 3, 5, 7]


@pytest.fixture
def table(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in ("Aldo", "Bruno", "Carla", "Dora")]
    return seat_round(tournament, [regs]).tables.get()


def test_a_save_crosses_into_the_scoring_core_once(table, arbiter):
    seats = list(table.seats.order_by("position"))
    lines = [ResultLine(seat_id=seats[0].pk, table_points=None, territories=("Brasile", "Perù", "Cina")),
             ResultLine(seat_id=seats[1].pk, table_points=Decimal(7), armies=4),
             ResultLine(seat_id=seats[2].pk, table_points=Decimal(7), armies=9),
             ResultLine(seat_id=seats[3].pk, table_points=None, eliminated=1)]
    with mock.patch("tables.engine.settle_table", wraps=engine.settle_table) as settle:
        table_result_submit(user=arbiter, table=table, lines=lines, version=table.version)
    assert settle.call_count == 1
    saved = {s.pk: (s.table_points, s.place) for s in table.seats.all()}
    assert saved == {seats[0].pk: (Decimal(14), None), seats[1].pk: (Decimal(7), 3), seats[2].pk: (Decimal(7), 2),
                     seats[3].pk: (Decimal(0), None)}
    for name in ("check_held_once", "places_by_armies", "table_points_from_territories"):
        assert not hasattr(engine, name)


def test_clearing_blanks_every_result_field_and_reports_what_it_erased(table, organiser):
    report(table, [(40,), (30,), (20,), (0, 1)])
    table.refresh_from_db()
    names = [s.registration.player.full_name for s in table.seats.order_by("position")]
    erased = results_clear([table.pk])
    assert list(erased) == [table.audit_label]
    assert [(n, r["table_points"], r["eliminated"]) for n, r in erased[table.audit_label].items()] == [
        (names[0], Decimal(40), None), (names[1], Decimal(30), None), (names[2], Decimal(20), None),
        (names[3], Decimal(0), 1)]
    blank = {"table_points": None, "risiko": False, "eliminated": None, "place": None, "territories": [],
             "armies": None, "firenze": None}
    assert [{f: getattr(s, f) for f in RESULT_FIELDS} for s in Seat.objects.filter(table=table)] == [blank] * 4
    old_version = table.version
    table.refresh_from_db()
    assert (table.reported_at, table.reported_by, table.version) == (None, None, old_version + 1)
    assert results_clear([table.pk]) == {}


def test_a_tables_seats_are_audited_in_one_insert(table, arbiter,
                                                                          django_capture_on_commit_callbacks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import AuditLog
    from tournaments.versions import results_through, results_version
    seats = list(table.seats.order_by("position").select_related("registration__player"))
    lines = [ResultLine(seat_id=s.pk, table_points=Decimal(tp), eliminated=e)
             for s, (tp, e) in zip(seats, [(50, None), (30, None), (10, None), (0, 1)])]
    with django_capture_on_commit_callbacks(execute=True), CaptureQueriesContext(connection) as queries:
        table_result_submit(user=arbiter, table=table, lines=lines, version=table.version)
    statements = [re.match(r'(UPDATE|INSERT INTO) "(\w+)"', q["sql"]).groups() for q in queries.captured_queries
                  if q["sql"].startswith(("UPDATE", "INSERT"))]
    assert statements == [("UPDATE", "tables_table")] + [("UPDATE", "tables_seat")] * 4 + [
        ("INSERT INTO", "tournaments_auditlog")]
    entries = list(AuditLog.objects.filter(action="result.enter").order_by("pk"))
    assert [(e.player_id, e.object_id, e.after["table_points"], e.user_id) for e in entries] == [
        (s.registration.player_id, str(s.pk), tp, arbiter.pk) for s, tp in zip(seats, ["50", "30", "10", "0"])]
    assert {s.pk: (s.table_points, s.eliminated) for s in table.seats.all()} == {
        seats[0].pk: (Decimal(50), None), seats[1].pk: (Decimal(30), None), seats[2].pk: (Decimal(10), None),
        seats[3].pk: (Decimal(0), 1)}
    # The version committed names the last of the entries: pages can tell the save is in them.
    assert results_through(results_version(table.round.tournament_id)) == entries[-1].pk
