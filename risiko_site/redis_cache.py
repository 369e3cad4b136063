"""The Redis cache backend of CACHE_URL=redis://... (risiko_site.caches).

The shared cache only spares work: when Redis does not answer (stopped, restarting, unreachable,
hung past the socket timeout of risiko_site.caches), every call answers as an empty cache would (a
read finds nothing, a write is dropped, a lock is granted) and the pages are rendered from the
database, slower but whole. After a failure Redis is left alone for `RETRY_SECONDS` (one page makes
dozens of calls: none of them waits for the timeout again), then tried again. The outage is logged
once when it starts and once when it ends; `outage()` names it for the health page. When Redis answers
again its entries (this site's key prefix) are dropped: the writes made meanwhile (a change's new
results version) never reached it, so what it holds may be older than the database.
"""
import logging
import threading
import time
from functools import wraps

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger("torneo.cache")

RETRY_SECONDS = 5.0


# Django's Redis cache has no public way to choose its client class nor to reach its redis.Redis client.
# The four private names of django.core.cache.backends.redis this module relies on are used here and
# nowhere else; tests/safety/test_redis_internals.py fails when a Django release changes one of them.
#   RedisCache._class: the client class it builds (set once, `_use_client_class`);
#   RedisCache._cache: its client, built once (`_redis_of`);
#   RedisCacheClient._get_connection_pool(write) and RedisCacheClient._client, the redis.Redis class
#   (`_new_redis`).


def _use_client_class(cache, client_class):
    cache._class = client_class


def _redis_of(cache, write):
    """The redis.Redis the cache's client gives for writes (`write`) or reads."""
    return cache._cache.get_client(write=write)


def _new_redis(client, write):
    """(the connection pool of `client` for writes or reads, a new redis.Redis on it)."""
    pool = client._get_connection_pool(write)
    return pool, lambda: client._client(connection_pool=pool)


class _ReusedClient(RedisCacheClient):
    """Django's Redis client builds a new redis.Redis (and its table of reply parsers) for every
    command; one per connection pool is enough, as redis.Redis is safe to share between threads.
    Building it was a fifth of the time a cached public page took to serve."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool, new = _new_redis(self, write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = new()
        return client


class _Status:
    """Whether a Redis is taken as down, shared by every thread of the process (each thread has its own
    cache object): one timeout and one log line per outage, not one per thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.recovering = threading.Lock()
        self.down_since = None
        self.last_try = 0.0
        self.reason = None


_statuses = {}
_statuses_lock = threading.Lock()


def _status_of(location):
    with _statuses_lock:
        return _statuses.setdefault(location, _Status())


def _or_empty(answer):
    """Run the call on Redis; while Redis is down, `answer(*args, **kwargs)` instead (an empty cache's)."""
    def decorate(method):
        @wraps(method)
        def wrapper(self, *args, **kwargs):
            status = self._status
            if status.down_since is not None and time.monotonic() - status.last_try < RETRY_SECONDS:
                return answer(*args, **kwargs)
            try:
                if status.down_since is not None:
                    # The first call after an outage (one thread: the others answer as an empty cache
                    # meanwhile): the entries from before go first.
                    if not status.recovering.acquire(blocking=False):
                        return answer(*args, **kwargs)
                    try:
                        self._recovered()
                    finally:
                        status.recovering.release()
                return method(self, *args, **kwargs)
            except (RedisError, OSError) as exc:
                self._failed(exc)
                return answer(*args, **kwargs)
        return wrapper
    return decorate


def _batches(items, size):
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _default(key, default=None, *args, **kwargs):
    return default


def _nothing(*args, **kwargs):
    return None


def _granted(*args, **kwargs):
    return True


def _missing(*args, **kwargs):
    raise ValueError("the cache is unavailable")  # as for a key the cache does not hold


class SharedRedisCache(RedisCache):
    """Django's Redis cache with one client per connection pool (see _ReusedClient), answering as an
    empty cache while Redis is down (see the module)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        _use_client_class(self, _ReusedClient)
        self._status = _status_of(str(server))

    def _failed(self, exc):
        status = self._status
        with status.lock:
            status.last_try = time.monotonic()
            status.reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            if status.down_since is None:
                status.down_since = status.last_try
                logger.warning("cache: Redis does not answer (%s); the pages are rendered without it", status.reason)

    def _recovered(self):
        """Drop what Redis holds under this site's prefix, then take it as answering again (raises
        while it still does not answer)."""
        # What was written meanwhile (a result's new version...) never reached Redis: what it holds from
        # before the outage may be older than the database, so it goes.
        client = _redis_of(self, write=True)
        dropped = 0
        for keys in _batches(client.scan_iter(match=f"{self.key_prefix}:*", count=1000), 500):
            dropped += client.delete(*keys)
        status = self._status
        with status.lock:
            if status.down_since is None:
                return
            outage = time.monotonic() - status.down_since
            status.down_since = None
            status.reason = None
        logger.warning("cache: Redis answers again after %.0f s; its %d entries from before are dropped "
                       "(the changes made meanwhile were not written to it)", outage, dropped)

    def outage(self):
        """Why Redis is taken as down (its last error), or None while it answers."""
        return self._status.reason if self._status.down_since is not None else None

    get = _or_empty(_default)(RedisCache.get)
    set = _or_empty(_nothing)(RedisCache.set)
    add = _or_empty(_granted)(RedisCache.add)
    touch = _or_empty(lambda *a, **k: False)(RedisCache.touch)
    delete = _or_empty(lambda *a, **k: False)(RedisCache.delete)
    get_many = _or_empty(lambda *a, **k: {})(RedisCache.get_many)
    has_key = _or_empty(lambda *a, **k: False)(RedisCache.has_key)
    incr = _or_empty(_missing)(RedisCache.incr)
    set_many = _or_empty(lambda *a, **k: [])(RedisCache.set_many)
    delete_many = _or_empty(_nothing)(RedisCache.delete_many)
    clear = _or_empty(lambda *a, **k: False)(RedisCache.clear)
