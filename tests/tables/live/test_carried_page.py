"""A stream opened for a public page (`?page=`, by an anonymous visitor) carries that page: each event
names the version of the page last rendered for it and holds it gzip-compressed (tables.live.channel),
built once per process and version; a page older than the change, a logged-in listener or a page of
another tournament gets the plain event. The stream keeps its page watched, so that it is rendered
on write; the heartbeat is an event the page sees."""
import asyncio
import base64
import gzip
import time

import pytest
from django.test import AsyncClient, Client
from django.urls import reverse

from tables.live import channel
from tables.standings import cache as page_cache
from tables.standings import watch as watch_module
from tables.standings.watch import watch, watched
from tests.factories import RegistrationFactory, TournamentFactory, report, seat_round
from tests.html import one
from tests.tables.live.sse import blocks
from tournaments.versions import results_version


@pytest.fixture(autouse=True)
def quick(settings):
    settings.LIVE_POLL_SECONDS, settings.LIVE_STREAM_SECONDS, settings.LIVE_HEARTBEAT_SECONDS = 0.02, 0.3, 60


@pytest.fixture(autouse=True)
def every_note_recorded(monkeypatch):
    """Each note of a page is recorded (a process does so at most once per NOTE_SECONDS)."""
    monkeypatch.setattr(watch_module, "NOTE_SECONDS", 0)


@pytest.fixture
def seated(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    return seat_round(tournament, [regs])


def _standings(tournament):
    return reverse("public:standings", args=[tournament.pk])


def _stream(client, tournament, page, **kwargs):
    return client.get(reverse("public:live", args=[tournament.pk]), {"page": page}, **kwargs)


def _fragment(client, tournament):
    """The standings fragment as htmx asks for it, rendered and filed under the current version."""
    response = client.get(_standings(tournament), headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response


def test_the_event_carries_the_page_rendered_for_the_new_version(client, tournament, seated,
                                                                  django_capture_on_commit_callbacks):
    response = _stream(client, tournament, _standings(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        report(seated.tables.get(), [(62,), (48,), (30,), (0, 1)])
    fragment = _fragment(client, tournament)
    version = results_version(tournament.pk)
    [beat, carried] = blocks(response)
    assert beat == {"event": "beat", "id": None, "data": {"every": 60}}
    assert carried["event"] == "page" and carried["id"] == version == fragment["X-Results-Version"]
    assert carried["data"]["version"] == version and carried["data"]["what"] == "result"
    assert gzip.decompress(base64.b64decode(carried["data"]["gzip"])) == fragment.content
    assert one(fragment.content, f'tr[data-reg="{seated.tables.get().seats.first().registration_id}"]') is not None


def test_a_page_older_than_the_change_is_not_carried(client, tournament, seated, django_capture_on_commit_callbacks):
    _fragment(client, tournament)  # rendered before the save: the channel does not send it for the save
    response = _stream(client, tournament, _standings(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        report(seated.tables.get(), [(62,), (48,), (30,), (0, 1)])
    version = results_version(tournament.pk)
    assert [b for b in blocks(response) if b["event"] != "beat"] == [
        {"event": "message", "id": version, "data": {"version": version, "what": "result"}}]


@pytest.mark.parametrize("who", ["organiser", "other tournament's page", "not a page"])
def test_a_logged_in_listener_or_a_page_not_of_this_tournament_gets_the_plain_event(
        who, client, organiser, tournament, seated, django_capture_on_commit_callbacks):
    other = TournamentFactory(published=True)
    page = {"organiser": _standings(tournament), "other tournament's page": _standings(other),
            "not a page": "/accounts/login/"}[who]
    if who == "organiser":
        client.force_login(organiser)
    response = _stream(client, tournament, page)
    with django_capture_on_commit_callbacks(execute=True):
        report(seated.tables.get(), [(62,), (48,), (30,), (0, 1)])
    client.logout()
    _fragment(client, tournament)
    _fragment(client, other)
    assert [b["event"] for b in blocks(response)] == ["beat", "message"]


def test_a_client_coming_back_gets_the_current_page_at_once(client, tournament, seated,
                                                           django_capture_on_commit_callbacks):
    before = results_version(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        report(seated.tables.get(), [(62,), (48,), (30,), (0, 1)])
    fragment = _fragment(client, tournament)
    back = blocks(_stream(client, tournament, _standings(tournament), headers={"Last-Event-ID": before}))
    assert [(b["event"], b["id"]) for b in back] == [("beat", None), ("page", fragment["X-Results-Version"])]


def test_a_stream_keeps_its_page_watched_ahead_of_time(client, settings, tournament):
    client.get(_standings(tournament))  # the screen loaded whole: its fragment never asked for yet
    started = page_cache.now()
    blocks(_stream(client, tournament, _standings(tournament)))
    demands = watched(tournament.pk, started)
    assert set(demands) == {(_standings(tournament), settings.LANGUAGE_CODE, htmx) for htmx in (False, True)}
    demand = demands[(_standings(tournament), settings.LANGUAGE_CODE, True)]
    assert demand.asked >= started + 2 * channel.WATCH_NOTE_SECONDS - 1


def test_an_address_never_rendered_for_this_tournament_is_not_kept_watched(client, tournament):
    other = TournamentFactory(published=True)
    _fragment(client, other)
    for page in (_standings(other), "/accounts/login/", "/t/%d/nothing/" % tournament.pk):
        blocks(_stream(client, tournament, page))
    assert watched(tournament.pk, page_cache.now()) == {}


def test_a_visitors_request_does_not_bring_the_noted_demand_back(tournament):
    """A live stream notes its page as asked for until its next note: a poll meanwhile keeps that."""
    at = page_cache.now()
    watch(tournament.pk, "/t/1/classifica/", "it", True, {}, at + 10)
    watch(tournament.pk, "/t/1/classifica/", "it", True, {}, at + 1)  # another process's note
    [demand] = watched(tournament.pk, at).values()
    assert demand.asked == at + 10


def test_a_quiet_stream_sends_a_heartbeat_event(client, settings, tournament):
    settings.LIVE_HEARTBEAT_SECONDS, settings.LIVE_STREAM_SECONDS = 0.1, 0.35
    beats = blocks(client.get(reverse("public:live", args=[tournament.pk])))
    assert len(beats) >= 3 and {b["event"] for b in beats} == {"beat"}


def test_a_page_event_is_built_once_per_version_however_many_streams_carry_it(monkeypatch, tournament):
    built = []

    def page_event(pk, page, change):
        time.sleep(0.05)  # every stream asks while the first build is under way
        built.append(change["version"])
        return change["version"], b"event"
    monkeypatch.setattr(channel, "page_event", page_event)
    page = channel.Page("/t/1/classifica/", "it", {})
    events = channel._PageEvents()

    async def streams(version):
        return await asyncio.gather(*(events.get(tournament.pk, page, {"version": version, "what": ""})
                                      for _ in range(50)))

    async def scenario():
        return await streams("1.a:0"), await streams("1.a:0"), await streams("2.b:0")
    first, again, second = asyncio.run(scenario())
    assert built == ["1.a:0", "2.b:0"]
    assert set(first) == set(again) == {("1.a:0", b"event")} and set(second) == {("2.b:0", b"event")}


def test_the_hub_keeps_the_pages_of_its_streams_watched(client, settings, tournament):
    _fragment(client, tournament)
    hub = channel._Hub()
    queue = asyncio.Queue()
    hub.queues[tournament.pk] = {queue}
    hub.pages[queue] = channel.Page(_standings(tournament), settings.LANGUAGE_CODE, {"HTTP_HOST": "torneo.example"})
    started = page_cache.now()
    asyncio.run(hub.recheck_once())
    [(page, demand)] = watched(tournament.pk, started).items()
    assert page == (_standings(tournament), settings.LANGUAGE_CODE, True)
    assert demand.meta == {"HTTP_HOST": "torneo.example"} and demand.asked > started
    hub.unsubscribe(tournament.pk, queue)
    assert hub.pages == {} and hub.queues == {}


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_stream_carries_the_page_too(monkeypatch, settings, tournament, seated):
    settings.LIVE_STREAM_SECONDS = 2
    table = seated.tables.get()
    announce = channel.announce

    async def listen():
        response = await AsyncClient().get(reverse("public:live", args=[tournament.pk]),
                                           {"page": _standings(tournament)})
        return b"".join([chunk async for chunk in response.streaming_content])

    def save_render_announce():
        """The order of render on write: the page rendered, then the change announced."""
        monkeypatch.setattr(channel, "announce", lambda pk, version=None: None)
        report(table, [(62,), (48,), (30,), (0, 1)])
        fragment = _fragment(Client(), tournament)
        announce(tournament.pk)
        return fragment

    async def scenario():
        task = asyncio.ensure_future(listen())
        await asyncio.sleep(0.3)  # the stream opened (SQLite: one writer at a time)
        fragment = await asyncio.to_thread(save_render_announce)
        return fragment, await task

    fragment, text = asyncio.run(scenario())
    assert f"id: {fragment['X-Results-Version']}\nevent: page\n" in text.decode()
