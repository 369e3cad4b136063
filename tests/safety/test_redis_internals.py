"""The four private names of Django's Redis cache that risiko_site/redis_cache.py relies on (its one
place for them), checked without a Redis server: a Django release that renames or reshapes one of them
fails here, by name, before the shared cache fails in production."""
import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

from risiko_site import redis_cache
from risiko_site.redis_cache import SharedRedisCache

URL = "redis://127.0.0.1:1/0"  # nothing listens: building clients and pools connects to nothing


def test_djangos_redis_cache_builds_the_client_class_it_is_given():
    assert RedisCache(URL, {})._class is RedisCacheClient
    cache = SharedRedisCache(URL, {})
    assert type(cache._cache) is redis_cache._ReusedClient


def test_the_client_gives_one_redis_per_connection_pool_for_reads_and_writes():
    cache = SharedRedisCache(URL, {})
    writer = redis_cache._redis_of(cache, write=True)
    assert isinstance(writer, redis.Redis)
    assert redis_cache._redis_of(cache, write=True) is writer  # built once, then reused
    assert redis_cache._redis_of(cache, write=False) is writer  # one server: one pool for both
    pool, new = redis_cache._new_redis(cache._cache, True)
    assert isinstance(pool, redis.ConnectionPool) and writer.connection_pool is pool
    assert isinstance(new(), redis.Redis) and new() is not writer
