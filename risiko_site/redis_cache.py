"""The Redis cache backend of CACHE_URL=redis://... (risiko_site.caches)."""
from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class _ReusedClient(RedisCacheClient):
    """Django's Redis client builds a new redis.Redis (and its table of reply parsers) for every
    command; one per connection pool is enough, as redis.Redis is safe to share between threads.
    Building it was a fifth of the time a cached public page took to serve."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class SharedRedisCache(RedisCache):
    """Django's Redis cache with one client per connection pool (see _ReusedClient)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ReusedClient
