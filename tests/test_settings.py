import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROD_ENV = {
    "DJANGO_PRODUCTION": "1", "SECRET_KEY": "k" * 30 + "abcdefghijklmnopqrstuvwxyz0123456789",
    "ALLOWED_HOSTS": "torneo.example.org", "DATABASE_URL": "postgres://torneo@db:5432/torneo",
}


def _manage(*args, env):
    full_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEBUG", "DJANGO_PRODUCTION",
                                                                       "DJANGO_ALLOW_ASYNC_UNSAFE")}
    full_env.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=full_env,
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_in_production():
    proc = _manage("check", "--deploy", "--fail-level", "WARNING", env=PROD_ENV)
    assert proc.returncode == 0, proc.stderr
    assert "System check identified no issues" in proc.stdout


@pytest.mark.parametrize("env, message", [
    ({"DEBUG": "maybe"}, "DEBUG must be a boolean"),
    ({"SECRET_KEY": ""}, "SECRET_KEY must be at least 50 characters"),
    ({"ALLOWED_HOSTS": "a,,b"}, "ALLOWED_HOSTS must be a comma-separated list"),
    ({"DATABASE_URL": "sqlite:///x.db"}, "production runs on PostgreSQL"),
    ({"DEBUG": "1"}, "DEBUG must be off when DJANGO_PRODUCTION is on"),
    ({"ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS must name the site's hosts in production, not '*'"),
    ({"ALLOWED_HOSTS": "torneo.example.org,*"}, "ALLOWED_HOSTS must name the site's hosts in production, not '*'"),
    ({"CACHE_URL": "memcached://127.0.0.1:11211"}, "CACHE_URL: unknown scheme 'memcached'"),
    ({"DOCS_URL": "guida.example.org"}, "DOCS_URL must start with https://, http:// or /, not 'guida.example.org'"),
    ({"VAPID_PUBLIC_KEY": "BNFla-1wTCvjPbUyLVdz9ivEkXMlYTsjx_mR-W8ZZzI1vgiWBKTeM5sGnPQC6_NIfsZPWKKXMc2t2XYvwGR479o"},
     "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together"),
    ({"VAPID_PUBLIC_KEY": "BNFla-1wTCvjPbUyLVdz9ivEkXMlYTsjx_mR-W8ZZzI1vgiWBKTeM5sGnPQC6_NIfsZPWKKXMc2t2XYvwGR479o",
      "VAPID_PRIVATE_KEY": "Bg_Ok9x1QPt8IQXzCPryHMiXSNXkN6x94dB0D7PcElE", "VAPID_SUBJECT": "club@example.org"},
     "VAPID_SUBJECT must be mailto:<address> or an https:// address"),
])
def test_bad_production_setting_stops_start_up(env, message):
    proc = _manage("check", env={**PROD_ENV, **env})
    assert proc.returncode != 0
    assert message in proc.stderr


@pytest.mark.parametrize("url, backend, location", [
    ("", "django.core.cache.backends.filebased.FileBasedCache", "/srv/default"),
    ("file:///var/cache/torneo", "django.core.cache.backends.filebased.FileBasedCache", "/var/cache/torneo"),
    ("redis://cache:6379/1", "risiko_site.redis_cache.SharedRedisCache", "redis://cache:6379/1"),
    ("rediss://cache:6380/0", "risiko_site.redis_cache.SharedRedisCache", "rediss://cache:6380/0"),
    ("locmem://", "django.core.cache.backends.locmem.LocMemCache", "torneo"),
])
def test_cache_url_chooses_the_shared_cache(url, backend, location):
    from risiko_site.caches import caches_from_url
    default = caches_from_url(url, "/srv/default")["default"]
    assert (default["BACKEND"], default["LOCATION"], default["KEY_PREFIX"]) == (backend, location, "torneo")


def test_cache_url_file_without_a_folder_is_refused():
    from django.core.exceptions import ImproperlyConfigured

    from risiko_site.caches import caches_from_url
    with pytest.raises(ImproperlyConfigured, match="needs a folder"):
        caches_from_url("file://", "/srv/default")


def test_the_redis_cache_builds_one_client_per_connection_pool():
    from risiko_site.redis_cache import SharedRedisCache
    first = SharedRedisCache("redis://127.0.0.1:6379/3", {})._cache  # no command is sent
    second = SharedRedisCache("redis://127.0.0.1:6379/3", {})._cache
    client = first.get_client()
    assert first.get_client() is client and first.get_client(write=True) is client
    assert client.connection_pool is first._get_connection_pool(False)
    assert second.get_client() is not client


@pytest.mark.parametrize("extra, connect, statement, lock, user", [
    ({}, 3, 5000, 2000, 10000),
    ({"DB_CONNECT_TIMEOUT_S": "2", "DB_STATEMENT_TIMEOUT_MS": "8000", "DB_LOCK_TIMEOUT_MS": "1000",
      "DB_TCP_USER_TIMEOUT_MS": "4000"}, 2, 8000, 1000, 4000),
    ({"DB_STATEMENT_TIMEOUT_MS": "1500"}, 3, 1500, 1500, 10000),
    ({"DB_STATEMENT_TIMEOUT_MS": "0"}, 3, 0, 0, 10000),  # the compose file's migrate
])
def test_a_hung_database_is_given_seconds_not_minutes(extra, connect, statement, lock, user):
    code = ("from django.conf import settings; o = settings.DATABASES['default']['OPTIONS']; "
            "print(o['connect_timeout'], o['options'], o['keepalives'], o['tcp_user_timeout'])")
    full_env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    proc = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {code}"], cwd=ROOT,
                          env={**full_env, **PROD_ENV, "DJANGO_SETTINGS_MODULE": "risiko_site.settings", **extra},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(connect), "-c", f"statement_timeout={statement}", "-c",
                                   f"lock_timeout={lock}", "1", str(user)]


def test_a_statement_timeout_that_is_not_a_number_is_refused():
    proc = _manage("check", env={**PROD_ENV, "DB_STATEMENT_TIMEOUT_MS": "5s"})
    assert proc.returncode != 0 and "DB_STATEMENT_TIMEOUT_MS must be an integer, not '5s'" in proc.stderr
