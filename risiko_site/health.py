"""The health page `/salute/` (alias `/health/`): 200 "ok" while the site can serve its pages, 503
"unavailable" otherwise; nothing else in the body, never cached.

It answers "ok" only when the database answers a real query over every table of the application
(a table gone fails, as every page would), every migration of this release is applied (the question
of `migrate --check`), the shared cache keeps what it is given, and (the live server) the live
streams' last read of the database worked. The checks run in a thread of their own (one per process,
keeping its database connection as a request does), one at a time: the page answers within
`TIMEOUT_SECONDS` however long the database hangs;
requests arriving meanwhile get the last answer at once, a failure is answered from memory for a few
seconds, and while a run hangs past its deadline no other starts (ten monitors asking a hung database
hold one thread, never the threads that answer the pages).

Asked by the containers' health checks (deploy/healthcheck.py, docker-compose.yml) and by anyone
watching the site through the proxy. It answers over plain HTTP too (SECURE_REDIRECT_EXEMPT): a
check from inside the server speaks to gunicorn directly. Why it failed goes to the log, one line.
"""
import logging
import queue
import threading
import time
import uuid

from django.apps import apps
from django.core.cache import caches
from django.db import connection, connections
from django.db.migrations.loader import MigrationLoader
from django.http import HttpResponse
from django.views.decorators.http import require_safe

from tables.live.channel import trouble as live_trouble

logger = logging.getLogger("torneo.health")

# The whole check, the page's answer included, within this many seconds (the compose file's health
# check gives the page 5 s; uptime monitors 8 s and more).
TIMEOUT_SECONDS = 4.0
# Each of the database's statements of the check (PostgreSQL's statement_timeout).
STATEMENT_TIMEOUT_MS = 3000


class Unhealthy(Exception):
    """A part of the site that cannot serve the pages; its message says why."""


def _tables():
    return sorted({model._meta.db_table for model in apps.get_models() if model._meta.managed
                   and not model._meta.proxy})


_known_migrations = None


def _migrations_on_disk():
    """Every migration of this release (app, name), read once per process."""
    global _known_migrations
    if _known_migrations is None:
        _known_migrations = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    return _known_migrations


def database_answers(cache=None):
    """A query over every table, and every migration applied: Unhealthy otherwise."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
        quote = connection.ops.quote_name
        union = " UNION ALL ".join(f"SELECT COUNT(*) FROM (SELECT 1 FROM {quote(t)} LIMIT 1) AS t" for t in _tables())
        cursor.execute(union)
        cursor.fetchall()
        cursor.execute("SELECT app, name FROM django_migrations")
        applied = set(cursor.fetchall())
    missing = _migrations_on_disk() - applied
    if missing:
        raise Unhealthy(f"{len(missing)} migration(s) not applied, e.g. {'.'.join(sorted(missing)[0])}")
    return True


def cache_answers(cache=None):
    """A value written and read back: a cache that takes no writes (full, read-only) fails too.
    `cache`: the request's own (each thread has its own cache objects)."""
    cache = caches["default"] if cache is None else cache
    key = f"health:{uuid.uuid4().hex}"
    cache.set(key, 1, 10)
    try:
        answered = cache.get(key) == 1
    finally:
        cache.delete(key)
    outage = getattr(cache, "outage", lambda: None)()
    if outage:
        raise Unhealthy(outage)
    return answered


def live_streams_answer(cache=None):
    """The live channel's streams read the database (the live server: after a database restart its
    streams' own connections must follow, as the page's check's does); elsewhere no stream reads it."""
    why = live_trouble.now()
    if why:
        raise Unhealthy(why)
    return True


CHECKS = (("database", database_answers), ("cache", cache_answers), ("live channel", live_streams_answer))


def failing_part(cache=None):
    """The name of the first part that does not answer, or None."""
    for name, check in CHECKS:
        try:
            if not check(cache):
                logger.warning("health: the %s gave a wrong answer", name)
                return name
        except Exception as exc:  # whatever the failure, the answer is "unavailable"
            first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            logger.warning("health: the %s does not answer: %s", name, first_line)
            return name
    return None


# Whether the checks run in a thread of their own: None, where the database is a server (a local
# SQLite file does not hang, and its test database is not shared between threads while written).
IN_THREAD = None


class _Check:
    """One run of the checks in its own thread, and every request waiting for its answer."""

    def __init__(self, deadline):
        self.deadline = deadline
        self.done = threading.Event()
        self.failing = None


_guard = threading.Lock()
_current = None
# After a failed check, the page answers 503 at once for this long, then checks again; while a check
# runs (at most TIMEOUT_SECONDS), the others get the last answer if it is more recent than
# LAST_KEPT_SECONDS (the containers' checks ask every 15 s). So a hung database holds one thread (the
# one that started the check), however many monitors ask.
FAILURE_KEPT_SECONDS = 3.0
LAST_KEPT_SECONDS = 60.0
_last = None  # (when, the failing part or None)


def _run(check, cache):
    try:
        check.failing = failing_part(cache)
    finally:
        # This thread's own connection, kept for the next run as a request's is (DB_CONN_MAX_AGE; one
        # that failed is closed): monitors asking every second no longer open a session each time.
        for conn in connections.all(initialized_only=True):
            conn.close_if_unusable_or_obsolete()
        check.done.set()


_runs = queue.SimpleQueue()
_checker = None


def _serve():
    while True:
        _run(*_runs.get())


def _start(check, cache):
    """Run `check` in the one thread of the checks (started at the first), which keeps its connection."""
    global _checker
    if _checker is None or not _checker.is_alive():
        _checker = threading.Thread(target=_serve, name="health-check", daemon=True)
        _checker.start()
    _runs.put((check, cache))


def checked_in_time(timeout=None):
    """The failing part's name, None when all is well. The checks run in a thread of their own
    (IN_THREAD), one run at a time, answered within its deadline (`timeout`, TIMEOUT_SECONDS): past it,
    "timeout", and no new run starts while the hung one holds its thread. A request arriving while a
    run is under way gets the last answer at once (when recent), else waits for the run's; for
    FAILURE_KEPT_SECONDS after a failure the failure is answered at once."""
    global _current
    if IN_THREAD is False or (IN_THREAD is None and connection.vendor == "sqlite"):
        return failing_part()
    now = time.monotonic()
    with _guard:
        check, last = _current, _last
        if last is not None and last[1] is not None and now - last[0] < FAILURE_KEPT_SECONDS:
            return last[1]  # known to fail: no thread waits for the database again so soon
        if check is not None and not check.done.is_set():
            if last is not None and now - last[0] < LAST_KEPT_SECONDS:
                return last[1]  # a run is under way: the last answer at once, the thread stays free
        else:
            check = _current = _Check(now + (TIMEOUT_SECONDS if timeout is None else timeout))
            _start(check, caches["default"])
    if not check.done.wait(max(0.0, check.deadline - now)):
        _answered("timeout")
        logger.warning("health: no answer within %.0f s (the database hangs?)", TIMEOUT_SECONDS)
        return "timeout"
    _answered(check.failing)
    return check.failing


def _answered(failing):
    global _last
    with _guard:
        _last = (time.monotonic(), failing)


@require_safe
def health(request):
    ok = checked_in_time() is None
    response = HttpResponse("ok" if ok else "unavailable", status=200 if ok else 503,
                            content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response
