"""deploy/backup.sh, deploy/restore-check.sh and deploy/restore-db.sh on the real PostgreSQL: a dump and its
manifest of one snapshot; the check compares every table's rows, so a dump that lost a table's rows (the
circuits, the organisers' roles, the audit log) fails naming the table, and a whole one passes; a restore
of a dump that fails the check changes nothing. (`make restore-drill` runs the whole chain on the demo.)"""
import os
import subprocess
import uuid
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.postgres


@pytest.fixture
def server():
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("the backup scripts are tested on PostgreSQL (make test-postgres)")
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}"


@pytest.fixture
def live(server, tmp_path):
    """A small database of its own with three tables; dropped (and every copy made of it) at the end."""
    name = f"torneo_restore_test_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(f"{server}/{name}") as conn:
        conn.execute("CREATE TABLE circuits_circuit (id int PRIMARY KEY, name text)")
        conn.execute("INSERT INTO circuits_circuit VALUES (1, 'Circuito romano'), (2, 'Coppa Lazio')")
        conn.execute("CREATE TABLE tournaments_auditlog (id int PRIMARY KEY, action text, at timestamptz)")
        conn.execute("INSERT INTO tournaments_auditlog VALUES (1, 'result.enter', now()), (2, 'penalty.add', now())")
        conn.execute("CREATE TABLE tournaments_organiserrole (id int PRIMARY KEY, user_id int)")
        conn.execute("INSERT INTO tournaments_organiserrole VALUES (1, 7)")
    yield f"{server}/{name}", name
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        for (each,) in admin.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{name}%",)).fetchall():
            admin.execute(f'DROP DATABASE "{each}" WITH (FORCE)')


def _run(script, url, folder, *args, **env):
    return subprocess.run(["sh", f"deploy/{script}", *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "DATABASE_URL": url, "BACKUP_DIR": str(folder), "MIGRATE_CHECK": "0",
                               "SCRATCH_DB": f"{url.rsplit('/', 1)[1]}_check", **env})


def _dump(url, folder):
    proc = _run("backup.sh", url, folder, "once")
    assert proc.returncode == 0, proc.stderr
    return next(folder.glob("torneo-*.dump"))


def test_a_whole_dump_passes(live, tmp_path):
    url, _name = live
    dump = _dump(url, tmp_path)
    assert len(Path(f"{dump}.manifest").read_text().splitlines()) == 3
    proc = _run("restore-check.sh", url, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == f"restore-check: OK, {dump.name} restores whole: 3 tables, 5 rows, each table's rows as dumped"


@pytest.mark.parametrize("table", ["circuits_circuit", "tournaments_auditlog", "tournaments_organiserrole"])
def test_a_dump_that_lost_a_tables_rows_fails_naming_it(live, tmp_path, table):
    url, _name = live
    dump = _dump(url, tmp_path)
    # The same file, written without that table's rows (its manifest, of the whole database, kept).
    subprocess.run(["pg_dump", "--format=custom", f"--exclude-table-data={table}", f"--dbname={url}", f"--file={dump}"],
                   check=True)
    proc = _run("restore-check.sh", url, tmp_path)
    assert proc.returncode == 2
    rows = {"circuits_circuit": 2, "tournaments_auditlog": 2, "tournaments_organiserrole": 1}[table]
    assert f"restore-check: table {table}: {rows} rows in the backup, 0 restored" in proc.stderr.splitlines()
    assert "OK" not in proc.stdout


def test_a_dump_whose_rows_changed_fails(live, tmp_path):
    url, _name = live
    dump = _dump(url, tmp_path)
    with psycopg.connect(url) as conn:
        conn.execute("UPDATE circuits_circuit SET name = 'Altro' WHERE id = 2")
    subprocess.run(["pg_dump", "--format=custom", f"--dbname={url}", f"--file={dump}"], check=True)
    proc = _run("restore-check.sh", url, tmp_path)
    assert proc.returncode == 2
    assert "restore-check: table circuits_circuit: 2 rows in the backup, 2 restored (the rows differ)" in proc.stderr


def _names(url):
    with psycopg.connect(url) as conn:
        return [name for (name,) in conn.execute("SELECT name FROM circuits_circuit ORDER BY id")]


def test_a_restore_puts_the_older_dump_in_place_and_keeps_the_newer_aside(live, tmp_path):
    url, name = live
    dump = _dump(url, tmp_path)
    with psycopg.connect(url) as conn:
        conn.execute("INSERT INTO circuits_circuit VALUES (3, 'Newer')")
        before = conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()
    holder = psycopg.connect(url)  # a worker still connected: its connection is ended
    try:
        proc = _run("restore-db.sh", url, tmp_path, str(dump), MIGRATE_CHECK="", PYTHON="true")
    finally:
        holder.close()
    assert proc.returncode == 0, proc.stderr
    assert _names(url) == ["Circuito romano", "Coppa Lazio"]
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone() != before
    aside = proc.stdout.splitlines()[-2].rsplit(" ", 1)[1]
    assert aside.startswith(f"{name}_before_restore_")
    assert _names(url.rsplit("/", 1)[0] + "/" + aside) == ["Circuito romano", "Coppa Lazio", "Newer"]


def test_a_restore_of_a_dump_that_fails_the_check_changes_nothing(live, tmp_path):
    url, _name = live
    dump = _dump(url, tmp_path)
    subprocess.run(["pg_dump", "--format=custom", "--exclude-table-data=circuits_circuit", f"--dbname={url}",
                    f"--file={dump}"], check=True)
    with psycopg.connect(url) as conn:
        conn.execute("INSERT INTO circuits_circuit VALUES (3, 'Newer')")
    proc = _run("restore-db.sh", url, tmp_path, str(dump), PYTHON="true")
    assert proc.returncode == 2 and "restore: nothing changed" in proc.stderr
    assert _names(url) == ["Circuito romano", "Coppa Lazio", "Newer"]
