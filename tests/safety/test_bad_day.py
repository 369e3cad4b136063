"""A bad day on the club's server: the shared cache down or hung, a table gone, a migration missing, the
database hung. The public pages stay up (slower, or the last rendered page, else the Italian 503), and
the health page says what is true within seconds."""
import logging
import socket
import threading
import time

import psycopg
import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.urls import reverse

from risiko_site import generation, health
from risiko_site.caches import caches_from_url
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, report, seat_round
from tests.html import one, select
from tournaments.models import Player
from tournaments.versions import bump

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_1(tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    return seat_round(tournament, [regs])


def _refused_port():
    """A local port where nothing listens: a connection is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def hung_server():
    """A TCP server that accepts connections and never answers (a hung Redis or PostgreSQL)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held, stop = [], threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                pass
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


@pytest.fixture
def redis_at(settings):
    """Point the shared cache at a Redis at `port` of this machine (none answering there)."""
    def point(port):
        settings.CACHES = caches_from_url(f"redis://127.0.0.1:{port}/0", None)
        return caches["default"]
    return point


def test_the_public_pages_render_without_the_shared_cache(tournament, round_1, redis_at, caplog):
    redis_at(_refused_port())
    caplog.set_level(logging.WARNING, logger="torneo.cache")
    table = round_1.tables.get()
    report(table, [(50,), (40,), (30,), (20,)])
    anonymous = Client(raise_request_exception=False)
    for name, args in (("public:standings", [tournament.pk]), ("public:round", [tournament.pk, 1]),
                       ("public:standings_json", [tournament.pk]), ("public:tournament", [tournament.pk])):
        response = anonymous.get(reverse(name, args=args))
        assert response.status_code == 200, name
    assert select(one(anonymous.get(reverse("public:standings", args=[tournament.pk])), "main"), "table")
    assert anonymous.get("/salute/").status_code == 503
    # One line when the outage starts, not one per request.
    assert [r.getMessage().split(" (")[0] for r in caplog.records if r.name == "torneo.cache"] == [
        "cache: Redis does not answer"]


def test_an_outage_is_one_line_and_one_timeout_for_every_thread_of_the_process(redis_at, hung_server, caplog):
    """Each thread has its own cache object; the outage is the process's: the other threads do not wait
    for the timeout again, nor log it again."""
    caplog.set_level(logging.WARNING, logger="torneo.cache")
    redis_at(hung_server).get("x")  # this thread meets the timeout
    waited = []

    def another_thread():
        started = time.monotonic()
        caches["default"].get("x")
        waited.append(time.monotonic() - started)
    threads = [threading.Thread(target=another_thread) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(waited) == 4 and max(waited) < 0.5
    assert len([r for r in caplog.records if r.name == "torneo.cache"]) == 1


def test_a_hung_cache_costs_one_timeout_then_is_left_alone(tournament, round_1, redis_at, hung_server):
    redis_at(hung_server)
    anonymous = Client(raise_request_exception=False)
    url = reverse("public:standings", args=[tournament.pk])
    started = time.monotonic()
    assert anonymous.get(url).status_code == 200
    assert time.monotonic() - started < 3  # one socket timeout (1 s), then no more waits
    started = time.monotonic()
    for _ in range(5):
        assert anonymous.get(url).status_code == 200
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("method", ["get", "head"])
def test_every_public_page_answers_head_as_get(method, tournament, round_1, client):
    reg = round_1.tables.get().seats.first().registration
    pages = {
        "public:home": [], "public:tournament": [tournament.pk], "public:round": [tournament.pk, 1],
        "public:standings": [tournament.pk], "public:standings_print": [tournament.pk],
        "public:player": [tournament.pk, reg.pk], "public:standings_json": [tournament.pk],
        "public:tables_json": [tournament.pk, 1], "public:clock": [tournament.pk], "public:screen": [tournament.pk],
        "public:screen_data": [tournament.pk], "public:poster": [tournament.pk],
        "public:wall_list": [tournament.pk, 1], "public:table_sheet": [tournament.pk, 1, 1],
        "public:standings_widget": [tournament.pk], "public:player_json": [tournament.pk, reg.pk],
        "public:formulas": [], "public:circuits": [], "login": [],
        "health": [],
    }
    for name, args in pages.items():
        url = reverse(name, args=args)
        response = getattr(client, method)(url)
        assert response.status_code == 200, (name, method)
        if method == "head":
            assert response.content == b"" and response["Content-Type"] == client.get(url)["Content-Type"]


def test_health_says_unavailable_when_a_table_is_gone(tournament):
    assert health.failing_part() is None
    with connection.cursor() as cursor:  # rolled back with the test
        cursor.execute("DROP TABLE circuits_circuittournament")
    assert health.failing_part() == "database"


def test_health_says_unavailable_when_a_migration_is_missing(tournament, caplog):
    caplog.set_level(logging.WARNING, logger="torneo.health")
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM django_migrations WHERE app = 'circuits'")
    assert health.failing_part() == "database"
    assert "not applied" in caplog.records[-1].getMessage()


def test_a_hung_check_answers_503_in_time_and_holds_one_thread(client, monkeypatch):
    release = threading.Event()
    calls = []

    def hang(cache=None):
        calls.append(1)
        release.wait(30)
        return True
    monkeypatch.setattr(health, "CHECKS", (("database", hang),))
    monkeypatch.setattr(health, "TIMEOUT_SECONDS", 1.0)
    monkeypatch.setattr(health, "FAILURE_KEPT_SECONDS", 0.5)
    monkeypatch.setattr(health, "IN_THREAD", True)
    monkeypatch.setattr(health, "_last", None)
    try:
        started = time.monotonic()
        assert client.get("/salute/").status_code == 503
        assert time.monotonic() - started < 2
        started = time.monotonic()
        for _ in range(10):  # ten monitors asking while the database hangs: answered at once, no new thread
            assert client.get("/salute/").status_code == 503
        assert time.monotonic() - started < 1
        assert len(calls) == 1
    finally:
        release.set()
    for _ in range(50):  # the hung check ends: the next one runs
        if health._current.done.is_set():
            break
        time.sleep(0.05)
    time.sleep(0.5)  # the failure is no longer answered from memory
    monkeypatch.setattr(health, "CHECKS", (("database", lambda cache=None: True),))
    assert client.get("/salute/").status_code == 200


def test_monitors_asking_together_share_one_check_and_its_ok(monkeypatch):
    """Several checks at once on a healthy site (the containers' and an uptime monitor's): one run, and
    every one of them gets its "ok"."""
    calls = []

    def slow_ok(cache=None):
        calls.append(1)
        time.sleep(0.3)
        return True
    monkeypatch.setattr(health, "CHECKS", (("database", slow_ok),))
    monkeypatch.setattr(health, "IN_THREAD", True)
    monkeypatch.setattr(health, "_last", None)
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(health.checked_in_time())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [None] * 8 and len(calls) == 1


# --- PostgreSQL: a database that hangs (a table locked by another session) ---------------------------

@pytest.fixture
def table_locked():
    """Call it with a table's name: another session holds it locked until the test ends, so every
    statement touching it waits (a hung database, as a long migration or a stuck job makes one)."""
    db = settings.DATABASES["default"]
    holders = []

    def lock(table):
        conn = psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname=connection.settings_dict["NAME"],
                               password=db.get("PASSWORD") or None)
        conn.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        holders.append(conn)
    yield lock
    for conn in holders:
        conn.rollback()
        conn.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_hung_database_costs_seconds_the_last_page_or_the_503(table_locked):
    if connection.vendor != "postgresql":
        pytest.skip("a hung database is tested on PostgreSQL (make test-postgres)")
    assert "statement_timeout=5000" in settings.DATABASES["default"]["OPTIONS"]["options"]
    assert settings.DATABASES["default"]["OPTIONS"]["connect_timeout"] == 3
    tournament = TournamentFactory(organiser=OrganiserFactory())
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    seat_round(tournament, [regs])
    standings, rnd = (reverse("public:standings", args=[tournament.pk]),
                      reverse("public:round", args=[tournament.pk, 1]))
    anonymous = Client(raise_request_exception=False)
    first = anonymous.get(standings, headers={"Accept-Language": "it"})
    assert first.status_code == 200
    bump(tournament.pk)  # a change: the page must be rendered again
    table_locked("tournaments_tournament")
    started = time.monotonic()
    again = anonymous.get(standings, headers={"Accept-Language": "it"})
    assert time.monotonic() - started < 8
    assert (again.status_code, again.content) == (200, first.content)  # the last rendered page
    started = time.monotonic()
    never = anonymous.get(rnd, headers={"Accept-Language": "it"})
    assert time.monotonic() - started < 8
    assert never.status_code == 503 and one(never, "html")["lang"] == "it"  # never rendered: the Italian 503
    health.IN_THREAD, health._last = True, None
    try:
        started = time.monotonic()
        assert anonymous.get("/salute/").status_code == 503
        assert time.monotonic() - started < 8
    finally:
        health.IN_THREAD = None


# --- The cache generation: another database, another release ---------------------------------------


@pytest.mark.parametrize("swap", ["database", "release"])
def test_the_pages_of_another_database_or_release_are_never_served(swap, tournament, round_1, monkeypatch):
    """A restored database is a new one (a new oid on PostgreSQL), an upgrade a new release: the pages
    cached before, under the same results version, are not found again."""
    url = reverse("public:standings", args=[tournament.pk])
    report(round_1.tables.get(), [(50,), (40,), (30,), (20,)])
    player = round_1.tables.get().seats.first().registration.player
    before = Client().get(url)
    assert player.first_name.encode() in before.content
    Player.objects.filter(pk=player.pk).update(first_name="Ripristinato")  # the data of the restored dump
    assert Client().get(url).content == before.content  # same generation: the cached page
    if swap == "database":
        generation._noted("pg-restored")
    else:
        monkeypatch.setattr(generation, "_release", "next-release")
        monkeypatch.setattr(generation, "_current", None)
    try:
        after = Client().get(url)
        assert b"Ripristinato" in after.content and player.first_name.encode() not in after.content
    finally:
        generation._database, generation._current = None, None


def test_a_browsers_copy_from_another_database_is_not_confirmed(tournament, round_1):
    """Its ETag names the generation: after a restore the same version's text never answers 304."""
    url = reverse("public:standings", args=[tournament.pk])
    etag = Client().get(url)["ETag"]
    assert Client().get(url, headers={"If-None-Match": etag}).status_code == 304
    generation._noted("pg-restored")
    try:
        again = Client().get(url, headers={"If-None-Match": etag})
        assert again.status_code == 200 and again["ETag"] != etag
    finally:
        generation._database, generation._current = None, None


def test_the_cache_key_opens_no_connection_a_request_starting_does(monkeypatch):
    """The key function reads what the connections told; the one place that opens a connection to learn
    the database is the start of a request (before its first cache lookup)."""
    from django.core.signals import request_started

    class Connection:
        vendor, alias, settings_dict, connection = "sqlite", "default", {"NAME": "swapped.sqlite3"}, None
        opened = 0

        def ensure_connection(self):
            self.opened += 1
            self.connection = object()
            generation._on_connection(None, self)  # as Django's connection_created says
    fake = Connection()
    monkeypatch.setattr(generation, "connection", fake)
    monkeypatch.setattr(generation, "_database", None)
    monkeypatch.setattr(generation, "_current", None)
    monkeypatch.setattr(generation, "_failed_at", None)
    unknown = generation.make_key("k", "p", 1)
    assert fake.opened == 0 and generation.database() == "unknown"
    request_started.send(sender=None)
    assert fake.opened == 1 and generation.database() == "sqlite:swapped.sqlite3"
    assert generation.make_key("k", "p", 1) != unknown
    request_started.send(sender=None)  # open already: not again
    assert fake.opened == 1
