"""The live channel (tables.live): one server-sent event for each change a screen shows, with the new
results version and what changed; 404 for the public on an unpublished tournament; a client coming
back with an older version gets the current one at once."""
import asyncio
import json
from decimal import Decimal

import pytest
from django.test import AsyncClient
from django.urls import reverse

from tables.arbitration import services as arbitration
from tables.clock.services import clock_start
from tables.live import channel
from tables.rounds import services as rounds
from tests.factories import RegistrationFactory, report, seat_round
from tests.tables.live.sse import blocks
from tournaments.services import tournament_room_save
from tournaments.versions import results_version


@pytest.fixture(autouse=True)
def quick(settings, snapshots):
    settings.LIVE_POLL_SECONDS, settings.LIVE_STREAM_SECONDS, settings.LIVE_HEARTBEAT_SECONDS = 0.02, 0.5, 60


@pytest.fixture
def seated(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    return seat_round(tournament, [regs])


def _url(tournament):
    return reverse("public:live", args=[tournament.pk])


def events(response):
    """The events naming a version: [(the id's version, data), ...], every id of this generation."""
    found = []
    for block in blocks(response):
        if block["id"]:
            version, _, gen = block["id"].partition("@")
            assert gen == channel.generation()
            found.append((version, block["data"]))
    return found


def test_the_channel_is_an_event_stream_that_ends_by_itself(client, tournament):
    response = client.get(_url(tournament))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    assert events(response) == []


def test_a_saved_result_is_one_event_with_the_new_version(client, tournament, seated,
                                                           django_capture_on_commit_callbacks):
    response = client.get(_url(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        report(seated.tables.get(), [(62,), (48,), (30,), (0, 1)])
    version = results_version(tournament.pk)
    assert events(response) == [(version, {"version": version, "what": "result"})]


def test_a_penalty_is_an_event(client, tournament, seated, organiser, django_capture_on_commit_callbacks):
    seat = seated.tables.get().seats.first()
    response = client.get(_url(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        arbitration.penalty_give(user=organiser, tournament=tournament, registration=seat.registration,
                                 kind="points", points=Decimal(5), reason="ritardo", seat=seat)
    assert [data["what"] for _id, data in events(response)] == ["penalty"]


def test_a_round_published_is_an_event(client, tournament, organiser, django_capture_on_commit_callbacks):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs], status="draft")
    response = client.get(_url(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_publish(user=organiser, rnd=rnd)
    [(version, data)] = events(response)
    assert data == {"version": results_version(tournament.pk), "what": "round"} and version == data["version"]


def test_an_unpublished_tournament_has_no_channel_for_the_public(client, tournament, organiser, arbiter,
                                                                  other_organiser):
    tournament.published = False
    tournament.save()
    assert client.get(_url(tournament)).status_code == 404
    client.force_login(other_organiser)
    assert client.get(_url(tournament)).status_code == 404
    for staff in (organiser, arbiter):  # their dashboards refresh by it
        client.force_login(staff)
        assert client.get(_url(tournament)).status_code == 200


def test_a_client_coming_back_with_an_older_version_gets_the_current_one_at_once(
        client, settings, tournament, seated, django_capture_on_commit_callbacks):
    settings.LIVE_STREAM_SECONDS = 0.05
    before = results_version(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        report(seated.tables.get(), [(62,), (48,), (30,), (0, 1)])
    now = results_version(tournament.pk)
    back = events(client.get(_url(tournament), headers={"Last-Event-ID": before}))
    assert back == [(now, {"version": now, "what": "result"})]
    assert events(client.get(_url(tournament), headers={"Last-Event-ID": now})) == []


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_stream_is_asynchronous(tournament, seated):
    table = seated.tables.get()
    opened = asyncio.Event()

    async def listen():
        response = await AsyncClient().get(_url(tournament))
        assert response.is_async
        chunks = []
        async for chunk in response.streaming_content:
            chunks.append(chunk)
            opened.set()  # its opening sent: the version it starts from is read, a save from now on is news
        return response, chunks

    async def scenario():
        task = asyncio.ensure_future(listen())
        await asyncio.wait_for(opened.wait(), 30)
        await asyncio.to_thread(report, table, [(62,), (48,), (30,), (0, 1)])
        return await task

    response, chunks = asyncio.run(scenario())
    assert response["Content-Type"] == "text/event-stream"
    text = b"".join(chunks).decode()
    assert f"id: {results_version(tournament.pk)}@{channel.generation()}\n" in text


def test_a_change_is_published_on_redis_when_the_cache_is_redis(monkeypatch, tournament):
    sent = []
    monkeypatch.setattr(channel, "redis_url", lambda: "redis://127.0.0.1:1/0")
    monkeypatch.setattr(channel, "_publish", lambda url, pk, payload: sent.append((pk, json.loads(payload))))
    channel.announce(tournament.pk)
    assert sent == [(tournament.pk, {"version": results_version(tournament.pk), "what": "", "pages": {}})]


def test_the_hub_hands_on_a_missed_announcement_once(tournament):
    """With Redis, the hub reads each tournament's last announcement now and then (once per process):
    one its subscription missed (Redis restarting) reaches the streams; one already handed on does not
    again."""
    hub = channel._Hub()
    queue = asyncio.Queue(maxsize=8)
    hub.queues[tournament.pk] = {queue}
    asyncio.run(hub.recheck_once())
    assert queue.empty()
    channel.announce(tournament.pk)  # published on no Redis: missed
    asyncio.run(hub.recheck_once())
    asyncio.run(hub.recheck_once())
    assert [queue.get_nowait() for _ in range(queue.qsize())] == [
        {"version": results_version(tournament.pk), "what": "", "pages": {}}]


def test_a_version_older_than_the_last_announced_is_not_announced(client, tournament, seated,
                                                                   django_capture_on_commit_callbacks):
    """Two servers' renders may end in either order: the older version is not announced after the newer."""
    table = seated.tables.get()
    with django_capture_on_commit_callbacks(execute=True):
        report(table, [(62,), (48,), (30,), (0, 1)])
    older = results_version(tournament.pk)
    table.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        report(table, [(61,), (48,), (30,), (0, 1)])
    newer = results_version(tournament.pk)
    channel.announce(tournament.pk, older)
    assert channel.last_announced(tournament.pk)["version"] == newer


def _changes(response):
    return [data["what"] for _id, data in events(response)]


def test_a_drafts_changes_are_no_event_and_its_publication_is_one(client, tournament, organiser,
                                                                 django_capture_on_commit_callbacks):
    """A draft's draw, redraw, swaps and deletion show on no public screen: no event; once published
    the round is one event."""
    for _ in range(8):
        RegistrationFactory(tournament=tournament, present=True)
    response = client.get(_url(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        rnd = rounds.round_create(user=organiser, tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_redraw(user=organiser, rnd=rnd)
    a, b = [table.seats.first() for table in rnd.tables.all()]
    with django_capture_on_commit_callbacks(execute=True):
        rounds.seats_swap(user=organiser, rnd=rnd, seat_a=a.pk, seat_b=b.pk)
    assert _changes(response) == []
    response = client.get(_url(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_publish(user=organiser, rnd=rnd)
    assert _changes(response) == ["round"]


def test_the_clock_and_the_rooms_settings_are_events(client, tournament, organiser, seated,
                                                     django_capture_on_commit_callbacks):
    response = client.get(_url(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        clock_start(user=organiser, rnd=seated, minutes=90)
    assert _changes(response) == ["clock"]
    response = client.get(_url(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        tournament_room_save(user=organiser, tournament=tournament, data={"screen_seconds": 20})
    assert _changes(response) == ["tournament"]


def test_a_client_that_missed_only_a_drafts_changes_gets_no_event(client, settings, tournament, organiser,
                                                                  django_capture_on_commit_callbacks):
    settings.LIVE_STREAM_SECONDS = 0.05
    for _ in range(8):
        RegistrationFactory(tournament=tournament, present=True)
    before = results_version(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_create(user=organiser, tournament=tournament)
    assert events(client.get(_url(tournament), headers={"Last-Event-ID": before})) == []
