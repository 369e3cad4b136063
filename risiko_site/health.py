"""The health page `/salute/` (alias `/health/`): 200 "ok" while the database and the shared cache
answer, 503 "unavailable" otherwise; nothing else in the body, never cached.

Asked by the containers' health checks (deploy/healthcheck.py, docker-compose.yml) and by anyone
watching the site through the proxy. It answers over plain HTTP too (SECURE_REDIRECT_EXEMPT): a
check from inside the server speaks to gunicorn directly. Why it failed goes to the log, one line.
"""
import logging
import uuid

from django.core.cache import caches
from django.db import connection
from django.http import HttpResponse
from django.views.decorators.http import require_safe

logger = logging.getLogger("torneo.health")

def database_answers():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


def cache_answers():
    """A value written and read back: a cache that takes no writes (full, read-only) fails too."""
    cache = caches["default"]
    key = f"health:{uuid.uuid4().hex}"
    cache.set(key, 1, 10)
    try:
        return cache.get(key) == 1
    finally:
        cache.delete(key)


CHECKS = (("database", database_answers), ("cache", cache_answers))


def failing_part():
    """The name of the first part that does not answer, or None."""
    for name, check in CHECKS:
        try:
            if not check():
                logger.warning("health: the %s gave a wrong answer", name)
                return name
        except Exception as exc:  # whatever the failure, the answer is "unavailable"
            first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            logger.warning("health: the %s does not answer: %s", name, first_line)
            return name
    return None


@require_safe
def health(request):
    ok = failing_part() is None
    response = HttpResponse("ok" if ok else "unavailable", status=200 if ok else 503,
                            content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response
