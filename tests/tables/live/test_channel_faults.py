"""The live channel through a bad day (issue 58): a heartbeat carries the results version, so a screen
whose announcements stopped still learns of a change; the hub hands on a version left unannounced; an
event id of another database generation is reset; a stream's failed read of the database closes that
thread's connection, does not cut the stream, and makes the live server's health page unhealthy until a
read works again."""
import asyncio

import psycopg
import pytest
from django.db import OperationalError, connection
from django.urls import reverse

from risiko_site import health
from tables.live import channel
from tests.factories import RegistrationFactory, report, seat_round
from tests.tables.live.sse import blocks
from tournaments.versions import results_version


@pytest.fixture(autouse=True)
def quick(settings, snapshots):
    settings.LIVE_POLL_SECONDS, settings.LIVE_STREAM_SECONDS, settings.LIVE_HEARTBEAT_SECONDS = 0.02, 0.5, 60
    channel.trouble.__init__()
    yield
    channel.trouble.__init__()


@pytest.fixture
def seated(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    return seat_round(tournament, [regs])


def _url(tournament):
    return reverse("public:live", args=[tournament.pk])


def _saved_unannounced(monkeypatch, seated, capture):
    """A result saved while nothing is announced (the worker stopped): the version moves, no message."""
    monkeypatch.setattr("tables.live.snapshot.announce", lambda *args, **kwargs: None)
    with capture(execute=True):
        report(seated.tables.get(), [(62,), (48,), (30,), (0, 1)])


def test_a_heartbeat_carries_the_results_version_now(client, settings, monkeypatch, tournament, seated,
                                                      django_capture_on_commit_callbacks):
    settings.LIVE_HEARTBEAT_SECONDS, settings.LIVE_STREAM_SECONDS = 0.1, 0.25
    before = results_version(tournament.pk)
    response = client.get(_url(tournament))
    chunks = iter(response.streaming_content)
    opening = next(chunks)  # the stream opened: its first heartbeat
    _saved_unannounced(monkeypatch, seated, django_capture_on_commit_callbacks)
    now = results_version(tournament.pk)
    assert now != before
    response.streaming_content = [opening, *chunks]
    found = blocks(response)
    assert {b["event"] for b in found} == {"beat"}
    assert found[0]["data"] == {"every": 0.1, "version": before}
    assert found[-1]["data"] == {"every": 0.1, "version": now}


def test_the_hub_hands_on_a_version_left_unannounced_at_its_second_look(monkeypatch, tournament, seated,
                                                                        django_capture_on_commit_callbacks):
    hub = channel._Hub()
    queue = asyncio.Queue(maxsize=8)
    hub.queues[tournament.pk] = {queue}
    channel.announce(tournament.pk)
    asyncio.run(hub.recheck_once())
    assert queue.get_nowait()["version"] == results_version(tournament.pk)
    _saved_unannounced(monkeypatch, seated, django_capture_on_commit_callbacks)
    asyncio.run(hub.recheck_once())
    assert queue.empty()  # the announcement may still be on its way
    asyncio.run(hub.recheck_once())
    assert [queue.get_nowait() for _ in range(queue.qsize())] == [{"version": results_version(tournament.pk),
                                                                    "what": ""}]
    asyncio.run(hub.recheck_once())
    assert queue.empty()
    assert hub.versions[tournament.pk] == results_version(tournament.pk)


def test_an_id_of_another_generation_gets_the_last_message_at_once(client, settings, tournament, seated,
                                                                    django_capture_on_commit_callbacks):
    settings.LIVE_STREAM_SECONDS = 0.05
    with django_capture_on_commit_callbacks(execute=True):
        report(seated.tables.get(), [(62,), (48,), (30,), (0, 1)])
    now = results_version(tournament.pk)
    gen = channel.generation()
    later = f"{now.split('-', 1)[0]}9-1-0:0"  # a higher version of the database before a restore

    def ids(last_id):
        return [b["id"] for b in blocks(client.get(_url(tournament), headers={"Last-Event-ID": last_id})) if b["id"]]

    assert ids(f"{later}@{gen}") == []
    assert ids(f"{later}@another") == [f"{now}@{gen}"]
    assert ids(f"{now}@{gen}") == []


def test_a_failed_read_of_the_database_closes_the_threads_connection_and_the_stream_goes_on(
        monkeypatch, tournament):
    def broken(pk):
        connection.ensure_connection()
        raise OperationalError("the connection is closed")

    closed = []
    monkeypatch.setattr(channel, "shown_publicly", broken)
    monkeypatch.setattr(channel, "close_old_connections", lambda: closed.append(True))
    assert channel.still_published(tournament.pk) is True
    assert closed == [True]
    assert channel.trouble.now() == "the live streams cannot read the database: the connection is closed"
    assert health.failing_part() == "live channel"
    monkeypatch.setattr(channel, "shown_publicly", lambda pk: True)
    assert channel.still_published(tournament.pk) is True
    assert channel.trouble.now() is None
    assert health.failing_part() is None


@pytest.mark.django_db(transaction=True)
def test_after_the_connection_died_the_next_read_opens_another(tournament):
    """What a database restart does to an executor thread's connection: closed under it. The failed read
    closes it, the next read opens another (no request signal ever runs on that thread)."""
    if connection.vendor != "postgresql":
        pytest.skip("a server's connection")
    assert channel.still_published(tournament.pk) is True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        [pid] = cursor.fetchone()
    other = psycopg.connect(**connection.get_connection_params(), autocommit=True)
    try:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    assert channel.still_published(tournament.pk) is True  # the failed read: not cut
    assert channel.trouble.now() is not None
    assert channel.still_published(tournament.pk) is True
    assert channel.trouble.now() is None


def test_redis_down_is_one_line_when_it_goes_and_one_when_it_comes_back(monkeypatch, caplog):
    import redis

    answers = {"up": False}

    class Client:
        def publish(self, name, payload):
            if not answers["up"]:
                raise redis.ConnectionError("Connection refused")

    monkeypatch.setitem(channel._publisher, "redis://127.0.0.1:1/0", Client())
    monkeypatch.setattr(channel, "PUBLISH_RETRY_SECONDS", 0)
    monkeypatch.setattr(channel, "_publishing", {"down_since": None, "tried_at": 0.0})
    caplog.set_level("WARNING", logger="torneo.live")
    for _ in range(20):
        channel._publish("redis://127.0.0.1:1/0", 1, "{}")
    answers["up"] = True
    channel._publish("redis://127.0.0.1:1/0", 1, "{}")
    channel._publish("redis://127.0.0.1:1/0", 1, "{}")
    lines = [(r.getMessage().split(" (")[0].split(" after")[0], r.exc_info) for r in caplog.records]
    assert lines == [("live: Redis does not answer", None), ("live: Redis answers again", None)]


def test_the_hub_hands_on_the_version_when_saves_go_on_unannounced(monkeypatch, tournament):
    """Saves going on while nothing is announced: each look finds another version; the second look in a
    row ahead of the last handed on hands the newest on (it does not wait for the version to settle)."""
    hub = channel._Hub()
    queue = asyncio.Queue(maxsize=8)
    hub.queues[tournament.pk] = {queue}
    seen = iter(["5-5-1:0", "7-7-1:0", "9-9-1:0"])
    monkeypatch.setattr(channel, "version_now", lambda pk: next(seen))
    monkeypatch.setattr(channel, "last_announced", lambda pk: {"version": "3-3-1:0", "what": "result"})
    asyncio.run(hub.recheck_once())
    assert queue.get_nowait()["version"] == "3-3-1:0" and queue.empty()
    asyncio.run(hub.recheck_once())
    assert queue.get_nowait() == {"version": "7-7-1:0", "what": ""}
    asyncio.run(hub.recheck_once())
    assert queue.empty()  # 9 is ahead of 7 at one look only
