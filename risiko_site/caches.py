"""CACHE_URL → Django's CACHES setting.

    (unset)                  a file cache under var/cache: shared by every worker of one host, no server
    file:///path/to/dir      a file cache in that folder
    redis://host:6379/0      Redis (rediss:// for TLS): shared by every host; production's choice
    locmem://                each process its own memory (tests)
"""
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

KEY_PREFIX = "torneo"
# Every key under the cache generation (release, database, configuration): risiko_site.generation.
KEY_FUNCTION = "risiko_site.generation.make_key"


def caches_from_url(url, default_dir):
    scheme = urlsplit(url).scheme if url else "file"
    if scheme in ("redis", "rediss"):
        # A Redis that does not answer within a second is taken as down (risiko_site.redis_cache).
        backend = {"BACKEND": "risiko_site.redis_cache.SharedRedisCache", "LOCATION": url,
                   "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
    elif scheme == "file":
        location = urlsplit(url).path if url else str(default_dir)
        if not location:
            raise ImproperlyConfigured("CACHE_URL file:// needs a folder: file:///var/cache/torneo")
        backend = {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": location,
                   "OPTIONS": {"MAX_ENTRIES": 10000}}
    elif scheme == "locmem":
        backend = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "torneo"}
    else:
        raise ImproperlyConfigured(f"CACHE_URL: unknown scheme {scheme!r} (redis://, rediss://, file://, locmem://)")
    return {"default": {**backend, "KEY_PREFIX": KEY_PREFIX, "KEY_FUNCTION": KEY_FUNCTION}}
