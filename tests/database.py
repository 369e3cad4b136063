"""One migrated test database per run, whatever the number of processes.

`pytest -n N` (pytest-xdist, as `make test` runs): the controller creates the test database once and
migrates it, before any worker starts; each worker then gets a copy of it, never migrating again.
On PostgreSQL each worker's copy is a database made from the migrated one as template
(`test_<name>_gw0`, `test_<name>_gw1`, ...); on SQLite the migrated database is a file that each worker
copies into its own in-memory database. All of them are dropped when the run ends.

A run without workers (`pytest tests/some_file.py`) sets up its database as pytest-django always does,
or, on SQLite with TORNEO_TEST_TEMPLATE naming a migrated file (tests/bites.py), copies that file as a
worker does.

`module_db` opens a transaction around a module's tests: data built once in it (the permission
matrices' worlds) serves every test of the module, each test rolled back to it, as Django's
`setUpTestData` does for a TestCase class."""
import os
import re
import shutil
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

TEMPLATE_KEY = "torneo_test_template"
# A migrated SQLite file that a run without workers copies into memory instead of migrating (on SQLite
# only): tests/bites.py makes it once and runs the tests of each planted fault on it.
TEMPLATE_ENV = "TORNEO_TEST_TEMPLATE"
DATABASE_KEY = "torneo_test_database"


@contextmanager
def without_statement_timeout(connection):
    """Creating, copying, migrating and dropping test databases run without the application's statement
    timeout (settings: DB_STATEMENT_TIMEOUT_MS): each CREATE DATABASE waits for a checkpoint, seconds on
    a busy machine. The tests themselves run with it."""
    options = connection.settings_dict.get("OPTIONS", {})
    before = options.get("options")
    if before is not None:
        options["options"] = re.sub(r"-c (statement|lock)_timeout=\d+", r"-c \1_timeout=0", before)
    connection.close()
    try:
        yield
    finally:
        connection.close()
        if before is not None:
            options["options"] = before


def _controller_runs_workers(config):
    return (not hasattr(config, "workerinput") and getattr(config.option, "numprocesses", None)
            and config.getoption("dist", "no") != "no" and not config.option.collectonly)


def _blocker(config):
    from pytest_django.plugin import blocking_manager_key
    return config.stash[blocking_manager_key]


def pytest_sessionstart(session):
    """The controller of a parallel run: the test database created and migrated, once."""
    config = session.config
    if not _controller_runs_workers(config):
        return
    from django.db import connections
    connection = connections["default"]
    state = {"vendor": connection.vendor, "clones": []}
    if connection.vendor == "sqlite":
        state["directory"] = tempfile.mkdtemp(prefix="torneo-test-db-")
        connection.settings_dict.setdefault("TEST", {})["NAME"] = str(Path(state["directory"]) / "migrated.sqlite3")
    with _blocker(config).unblock(), without_statement_timeout(connection):
        state["original_name"] = connection.settings_dict["NAME"]
        state["template"] = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    config._torneo_test_database = state


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Each worker's copy, made in the controller one after another (PostgreSQL refuses two copies of
    one template at once)."""
    state = getattr(node.config, "_torneo_test_database", None)
    if state is None:
        return
    node.workerinput[TEMPLATE_KEY] = state["template"]
    if state["vendor"] != "postgresql":
        return
    from django.db import connections
    connection = connections["default"]
    suffix = node.gateway.id
    with _blocker(node.config).unblock(), without_statement_timeout(connection):
        connection.creation.clone_test_db(suffix=suffix, verbosity=0, keepdb=False)
    clone = connection.creation.get_test_db_clone_settings(suffix)["NAME"]
    state["clones"].append(clone)
    node.workerinput[DATABASE_KEY] = clone


def pytest_unconfigure(config):
    state = getattr(config, "_torneo_test_database", None)
    if state is None:
        return
    if state["vendor"] == "postgresql":
        from django.db import connections
        connection = connections["default"]
        with _blocker(config).unblock(), without_statement_timeout(connection):
            with connection.creation._nodb_cursor() as cursor:
                for name in [*state["clones"], state["template"]]:
                    cursor.execute(f"DROP DATABASE IF EXISTS {connection.ops.quote_name(name)} WITH (FORCE)")
    else:
        shutil.rmtree(state["directory"], ignore_errors=True)


def _use_the_copy(workerinput):
    """A worker: its database is the copy the controller made (PostgreSQL) or the migrated file
    copied into memory (SQLite)."""
    from django.conf import settings
    from django.db import connections
    connection = connections["default"]
    connection.close()
    if connection.vendor == "postgresql":
        name = workerinput[DATABASE_KEY]
        keep = None
    else:
        name = connection.creation._get_test_db_name()   # Django's in-memory test database
        assert connection.creation.is_in_memory_db(name), name
        keep = sqlite3.connect(name, uri=True)   # holds the shared in-memory database while it is filled
        source = sqlite3.connect(f"file:{workerinput[TEMPLATE_KEY]}?mode=ro", uri=True)
        source.backup(keep)
        source.close()
    connection.settings_dict["NAME"] = name
    settings.DATABASES["default"]["NAME"] = name
    connection.ensure_connection()
    if keep is not None:
        keep.close()


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker, django_db_use_migrations,
                    django_db_keepdb, django_db_createdb, django_db_modify_db_settings):
    workerinput = getattr(request.config, "workerinput", {})
    if TEMPLATE_KEY not in workerinput and os.environ.get(TEMPLATE_ENV) and not os.environ.get("DATABASE_URL"):
        workerinput = {TEMPLATE_KEY: os.environ[TEMPLATE_ENV]}  # tests/bites.py: migrated once for every run
    if TEMPLATE_KEY in workerinput:
        from django.db import connections
        with django_db_blocker.unblock():
            _use_the_copy(workerinput)
        yield
        # The copy is dropped by the controller once every worker has ended (pytest_unconfigure): a
        # live server's thread may still hold a connection to it here.
        connections["default"].close()
        return
    # pytest-django's own setup (pytest_django/fixtures.py), for a run without workers
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _disable_migrations, _get_databases_for_setup
    options = {}
    if not django_db_use_migrations:
        _disable_migrations()
    if django_db_keepdb and not django_db_createdb:
        options["keepdb"] = True
    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
    from django.db import connections
    with django_db_blocker.unblock(), without_statement_timeout(connections["default"]):
        db_cfg = setup_databases(verbosity=request.config.option.verbose, interactive=False, aliases=aliases,
                                 serialized_aliases=serialized_aliases, **options)
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock(), without_statement_timeout(connections["default"]):
            teardown_databases(db_cfg, verbosity=request.config.option.verbose)


@pytest.fixture(scope="module")
def module_db(django_db_setup, django_db_blocker):
    """A transaction around the module's tests (see the module's docstring); rolled back at its end."""
    from django.db import transaction
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic._from_testcase = True   # as Django's TestCase marks its own: durable blocks inside still work
        atomic.__enter__()
    yield
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        atomic.__exit__(None, None, None)
