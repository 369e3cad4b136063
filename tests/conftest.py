import pytest


def pytest_configure(config):
    from django.conf import settings
    # Hashing with the production hasher costs ~0.3 s per user: far too slow for fixtures.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Each test run keeps its cache in memory (tests/safety/test_shared_cache.py runs against Redis).
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "tests", "KEY_PREFIX": "torneo",
                                   "KEY_FUNCTION": "risiko_site.generation.make_key"}}
    # Tests make a change and look at the page at once, one request after another: a page is
    # rendered anew for each version (the stale bound and refresh interval have their own tests).
    settings.PUBLIC_PAGE_REFRESH_SECONDS = 0
    # Push notifications are sent in the request's own thread once its transaction commits; no snapshot
    # job renders pages behind a test's back: the pages' jobs are kept, not run (the `snapshots` fixture
    # runs them, as the worker would).
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend", "QUEUES": ["push"]},
                      "pages": {"BACKEND": "django_tasks.backends.dummy.DummyBackend", "QUEUES": ["pages"]}}
    from django.core.signals import setting_changed
    setting_changed.send(sender=type(settings), setting="TASKS", value=settings.TASKS, enter=True)

from tests.database import (  # noqa: E402,F401  (the fixtures and hooks of one test database per run)
    django_db_setup, module_db, pytest_configure_node, pytest_sessionstart, pytest_unconfigure)
from tests.factories import OrganiserFactory, TournamentFactory, UserFactory  # noqa: E402


@pytest.fixture(autouse=True)
def empty_cache():
    """Database ids come back between tests (rolled-back sequences): no test sees another's pages."""
    from django.core.cache import caches

    from risiko_site import health
    from tables.standings import cache as page_cache
    health._last = None  # a failed health check is answered from memory for a few seconds
    caches["default"].clear()
    page_cache.forget_recent()
    yield
    caches["default"].clear()
    page_cache.forget_recent()


@pytest.fixture
def snapshots(settings):
    """Each tournament's snapshot job run once its change commits, in the committing thread, as the
    `immediate` backend runs it (`make run`)."""
    settings.TASKS = {**settings.TASKS, "pages": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
                                                  "QUEUES": ["pages"]}}


@pytest.fixture
def organiser(db):
    return OrganiserFactory(username="olga")


@pytest.fixture
def arbiter(db):
    return UserFactory(username="arturo")


@pytest.fixture
def tournament(organiser, arbiter):
    t = TournamentFactory(organiser=organiser, name="Torneo di prova")
    t.arbiters.add(arbiter)
    return t


@pytest.fixture
def other_organiser(db):
    """Organises a tournament of their own, not this one."""
    user = OrganiserFactory(username="otto")
    TournamentFactory(organiser=user)
    return user


@pytest.fixture
def other_arbiter(db):
    """Arbiter of another tournament."""
    user = UserFactory(username="alba")
    TournamentFactory().arbiters.add(user)
    return user


@pytest.fixture
def client_for(client):
    def login(user):
        if user is not None:
            client.force_login(user)
        return client
    return login


@pytest.fixture(autouse=True)
def english_messages(settings):
    """Tests read messages in English; tests of the Italian default set LANGUAGE_CODE back to "it"."""
    settings.LANGUAGE_CODE = "en"


def pytest_terminal_summary(terminalreporter, config):
    """The count of tests the run collected, and where it ran (`make test` reports it before the summary)."""
    if hasattr(config, "workerinput"):
        return
    from django.db import connections
    workers = getattr(config.option, "numprocesses", None) or 0
    terminalreporter.write_line(
        f"collected {terminalreporter._session.testscollected} tests; database: {connections['default'].vendor}; "
        f"workers: {workers or 1}")
