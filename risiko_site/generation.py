"""The cache generation: every key of the shared cache is filed under it, so that no page, version or
value of another database, another release or another configuration is ever read.

    generation = hash(release, database, configuration)

- the release: TORNEO_RELEASE when set (the image's build), else a hash of the application's own files
  (code, templates, static files, translations): an upgrade makes a new one, and the pages of the old
  release (linking stylesheets the new one no longer has) are never served again;
- the database: on PostgreSQL its oid, new for every database created, so a restored dump (restored into
  a new database, deploy/restore-db.sh) never meets the pages of the one it replaced; read on every new
  connection, and every request opens the connection as it starts (Django's request_started signal,
  before any cache lookup) when none is open, so a process whose database was swapped under it (its
  connection ended by the restore) follows at its next request. The key function itself never opens a
  connection: outside a request the identity is the one the last connection read;
- the configuration the pages show: the push keys ("Avvisami" is offered only with them), the default
  language and the languages offered, the time zone.

The cache is not emptied: the old generation's entries are simply never asked for again and go with
their expiry (or Redis's eviction).
"""
import hashlib
import os
import threading
import time
from pathlib import Path

from django.conf import settings
from django.core.signals import request_started, setting_changed
from django.db import DatabaseError, connection
from django.db.backends.signals import connection_created
from django.dispatch import receiver

BASE_DIR = Path(__file__).resolve().parent.parent
_SOURCE_FOLDERS = ("risiko_site", "scoring", "tournaments", "tables", "phases", "circuits", "transfer", "templates",
                   "static", "locale")
_SOURCE_SUFFIXES = {".py", ".html", ".txt", ".js", ".css", ".svg", ".png", ".ico", ".json", ".mo", ".webmanifest"}
# The settings a cached page may show: a change of one of them must never be hidden by a cached page.
PAGE_SETTINGS = ("VAPID_PUBLIC_KEY", "LANGUAGE_CODE", "LANGUAGES", "TIME_ZONE", "STANDINGS_POLL_SECONDS",
                 "SCREEN_POLL_SECONDS", "DOCS_URL")

_lock = threading.Lock()
_release = None
_database = None
_configuration = None
_current = None
_failed_at = None
# After a failed connection, the next attempt to learn the database waits this long (a hung database
# would otherwise hold every cache lookup for its connect timeout).
RETRY_SECONDS = 5


def release():
    """This release's name: TORNEO_RELEASE, else a hash of the application's files (computed once)."""
    global _release
    if _release is None:
        named = os.environ.get("TORNEO_RELEASE", "").strip()
        _release = named or _files_hash()
    return _release


def _files_hash():
    digest = hashlib.sha256()
    for folder in _SOURCE_FOLDERS:
        for path in sorted((BASE_DIR / folder).rglob("*")):
            if path.suffix in _SOURCE_SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(BASE_DIR)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _database_of(connection):
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
            return f"pg{cursor.fetchone()[0]}"
    return f"{connection.vendor}:{connection.settings_dict.get('NAME')}"


def database():
    """The database's identity, read at every new connection; "unknown" while none was ever made."""
    return _database or "unknown"


@receiver(request_started)
def _check_database(**kwargs):
    """As a request starts, after Django closed its obsolete connections and before any cache lookup,
    while this thread has no connection open: connect now, so that a database swapped meanwhile (a
    restore) is known before any page is read. wsgi.py and asgi.py import this module, so its receiver is
    connected before the first request.
    While the database does not answer, its last known identity stays (the pages already in the cache
    are still served) and no connection is tried again for `RETRY_SECONDS`."""
    global _failed_at
    try:
        if connection.connection is None:
            if _failed_at is not None and time.monotonic() - _failed_at < RETRY_SECONDS:
                return
            connection.ensure_connection()  # connection_created reads the identity
        if _database is None:  # a connection opened before this module listened
            _noted(_database_of(connection))
    except DatabaseError:  # the database does not answer
        _failed_at = time.monotonic()
    except Exception:  # no database access here (an event loop, a test without a database)
        pass


def _identify_open_connection():
    """While the identity is unknown: read it from this thread's connection when one is open (one opened
    before this module listened, a worker's); none is opened here."""
    try:
        if connection.connection is not None:
            _noted(_database_of(connection))
    except Exception:  # no database access here, or it does not answer: "unknown" for now
        pass


def _noted(identity):
    global _database, _current
    if identity != _database:
        with _lock:
            _database, _current = identity, None


@receiver(connection_created)
def _on_connection(sender, connection, **kwargs):
    if connection.alias == "default":
        _noted(_database_of(connection))


def configuration():
    global _configuration
    if _configuration is None:
        values = repr([getattr(settings, name, None) for name in PAGE_SETTINGS])
        _configuration = hashlib.sha256(values.encode()).hexdigest()[:12]
    return _configuration


@receiver(setting_changed)
def _on_setting_changed(setting, **kwargs):
    global _configuration, _current
    if setting in PAGE_SETTINGS:
        with _lock:
            _configuration, _current = None, None


def current():
    """The cache generation now (a short hash); "unknown" stands for the database while no connection
    of this process has read it (then the generation is not kept: the next call looks again)."""
    global _current
    value = _current
    if value is None and _database is None:
        _identify_open_connection()
        value = _current
    if value is None:
        db = database()
        value = hashlib.sha256(f"{release()}|{db}|{configuration()}".encode()).hexdigest()[:12]
        if db != "unknown":
            _current = value
    return value


def make_key(key, key_prefix, version):
    """The cache's KEY_FUNCTION (risiko_site.caches): every key under the current generation."""
    return f"{key_prefix}:{current()}:{version}:{key}"
