"""With CACHE_URL=redis://..., every worker and host reads one cache: a result saved through one
shows at once through another. Runs against the Redis at REDIS_URL (default 127.0.0.1:6379) when
one answers, and is skipped otherwise (start one with `apt-get install redis-server` or the
compose file's `redis` service)."""
import os
import socket
import uuid
from urllib.parse import urlsplit

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from risiko_site.caches import caches_from_url
from risiko_site.redis_cache import SharedRedisCache
from tables.models import Table
from tests.factories import RegistrationFactory, report, seat_round

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")


def _redis_answers():
    parts = urlsplit(REDIS_URL)
    try:
        with socket.create_connection((parts.hostname, parts.port or 6379), timeout=0.5):
            return True
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not _redis_answers(), reason=f"no Redis answers at {REDIS_URL}")


@pytest.fixture
def redis_cache(settings):
    config = caches_from_url(REDIS_URL, None)
    config["default"]["KEY_PREFIX"] = f"torneo-test-{uuid.uuid4().hex}"  # nothing shared with other runs
    settings.CACHES = config
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


def _other_worker_cache():
    """A second connection, as another gunicorn worker or host would open."""
    config = caches_from_url(REDIS_URL, None)["default"]  # the same key function (the cache generation)
    return SharedRedisCache(REDIS_URL, {**config, "KEY_PREFIX": caches["default"].key_prefix})


def test_cache_is_redis(redis_cache):
    assert type(redis_cache).__name__ == "SharedRedisCache"


def test_a_result_saved_shows_at_once_through_the_shared_cache(redis_cache, tournament, organiser,
                                                               django_capture_on_commit_callbacks):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    url = reverse("public:tables_json", args=[tournament.pk, rnd.number])
    before = Client().get(url)
    assert before.json()["tables"][0]["reported"] is False
    other = _other_worker_cache()
    version_key = f"tournament-version:{tournament.pk}"
    seen_before = other.get(version_key)
    assert seen_before is not None  # the version lives in Redis, not in this process
    with django_capture_on_commit_callbacks(execute=True):
        report(Table.objects.get(round=rnd), [(62,), (48,), (30,), (0, 1)], user=organiser)
    assert other.get(version_key) != seen_before  # the other worker sees the new version at once
    after = Client().get(url, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert after.json()["tables"][0]["reported"] is True


def test_after_an_outage_the_entries_from_before_are_dropped(redis_cache, caplog):
    """A change made while Redis was down bumped a version that never reached it: once it answers
    again, what it holds from before is older than the database and must not be served."""
    redis_cache.set("tournament-version:1", ("before-the-outage", None), None)
    redis_cache._failed(ConnectionError("Error 111 connecting to redis:6379. Connection refused."))
    assert redis_cache.outage() == "Error 111 connecting to redis:6379. Connection refused."
    assert redis_cache.get("tournament-version:1") is None  # left alone while down: an empty cache
    redis_cache._status.last_try -= 10  # the retry interval has passed
    assert redis_cache.get("tournament-version:1") is None  # answered again: the old entry is gone
    assert redis_cache.outage() is None
    redis_cache.set("tournament-version:1", ("after", None), None)
    assert redis_cache.get("tournament-version:1") == ("after", None)
