"""The health page: 200 "ok" while the database and the cache answer, 503 "unavailable" otherwise,
nothing else said; over plain HTTP too; never cached."""
import logging

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from risiko_site.wsgi import POOL_HEADER, with_pool_header
from tests.safety.test_database_unavailable import database_down  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name, path", [("health", "/salute/"), ("health_en", "/health/")])
def test_ok_while_the_database_and_the_cache_answer(name, path, client):
    assert reverse(name) == path
    response = client.get(path)
    assert response.status_code == 200 and response.content == b"ok"
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Cache-Control"] == "no-store"
    assert client.head(path).status_code == 200
    assert client.post(path).status_code == 405


def test_unavailable_when_the_database_is_down(database_down, caplog):
    database_down()
    caplog.set_level(logging.WARNING, logger="torneo.health")
    response = Client(raise_request_exception=False).get("/salute/")
    assert response.status_code == 503 and response.content == b"unavailable"
    assert response["Cache-Control"] == "no-store"
    assert [r.getMessage() for r in caplog.records if r.name == "torneo.health"] == [
        'health: the database does not answer: connection to server at "127.0.0.1", port 5432 failed: '
        "Connection refused"]


def test_unavailable_when_the_cache_is_down(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to redis:6379. Connection refused.")
    monkeypatch.setattr(caches["default"], "set", refuse)
    response = client.get("/health/")
    assert response.status_code == 503 and response.content == b"unavailable"


def test_unavailable_when_the_cache_loses_what_it_was_given(client, monkeypatch):
    monkeypatch.setattr(caches["default"], "get", lambda *args, **kwargs: None)
    assert client.get("/salute/").status_code == 503


def test_answered_over_plain_http_when_everything_else_is_redirected(client, settings):
    """The containers' health checks speak to gunicorn directly, without the proxy's X-Forwarded-Proto."""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/salute/").status_code == 200
    assert client.get("/health/").status_code == 200
    assert client.get("/").status_code == 301


def test_the_answer_names_its_pool():
    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]
    seen = []
    body = with_pool_header(app, "staff")({}, lambda status, headers, exc_info=None: seen.append((status, headers)))
    assert body == [b"ok"]
    assert seen == [("200 OK", [("Content-Type", "text/plain"), (POOL_HEADER, "staff")])]


@pytest.mark.django_db(transaction=True)
def test_checks_in_a_row_run_in_one_thread_on_one_database_session(monkeypatch):
    """Monitors asking again and again: each run in the one thread of the checks, on the database session
    it keeps as a request keeps its own (DB_CONN_MAX_AGE), not a new session each time (8 monitors for
    20 s made 626)."""
    import threading

    from django.db import connection

    from risiko_site import health
    seen = []

    def query(cache=None):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        seen.append((threading.get_ident(), id(connection.connection)))
        return True
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    monkeypatch.setattr(health, "CHECKS", (("database", query),))
    monkeypatch.setattr(health, "IN_THREAD", True)
    for _ in range(5):
        monkeypatch.setattr(health, "_last", None)   # each a run of its own, none answered from memory
        assert health.checked_in_time() is None
    assert len(seen) == 5 and len(set(seen)) == 1 and seen[0][0] != threading.get_ident()

    def close(cache=None):   # the test's database is dropped at the end: the kept session goes first
        connection.close()
        return True
    monkeypatch.setattr(health, "CHECKS", (("database", close),))
    monkeypatch.setattr(health, "_last", None)
    assert health.checked_in_time() is None
