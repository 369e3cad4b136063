"""A stream opened for a public page (`?page=`, by an anonymous visitor) carries that page: the snapshot
job (tables/snapshot.py) renders the standings' fragment and announces it with the version, and each
event holds it gzip-compressed (tables.live.channel), built once per message; a logged-in listener, or
a page the job did not render, gets the plain event; the heartbeat is an event the page sees."""
import asyncio
import base64
import gzip

import pytest
from django.test import AsyncClient
from django.urls import reverse

from tables.live import channel
from tests.factories import RegistrationFactory, TournamentFactory, report, seat_round
from tests.html import one
from tests.tables.live.sse import blocks
from tournaments.versions import results_version


@pytest.fixture(autouse=True)
def quick(settings, snapshots):
    settings.LIVE_POLL_SECONDS, settings.LIVE_STREAM_SECONDS, settings.LIVE_HEARTBEAT_SECONDS = 0.02, 0.3, 60


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
    assert beat == {"event": "beat", "id": None, "data": {"every": 60, "version": version}}  # read as the stream opens
    assert carried["event"] == "page" and carried["id"] == f"{version}@{channel.generation()}"
    assert version == fragment["X-Results-Version"]
    assert carried["data"]["version"] == version and carried["data"]["what"] == "result"
    assert gzip.decompress(base64.b64decode(carried["data"]["gzip"])) == fragment.content
    assert one(fragment.content, f'tr[data-reg="{seated.tables.get().seats.first().registration_id}"]') is not None


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
    assert [(b["event"], b["id"]) for b in back] == [
        ("beat", None), ("page", f'{fragment["X-Results-Version"]}@{channel.generation()}')]


def test_a_quiet_stream_sends_a_heartbeat_event(client, settings, tournament):
    settings.LIVE_HEARTBEAT_SECONDS, settings.LIVE_STREAM_SECONDS = 0.1, 0.35
    beats = blocks(client.get(reverse("public:live", args=[tournament.pk])))
    assert len(beats) >= 3 and {b["event"] for b in beats} == {"beat"}




def test_a_page_event_is_built_once_per_message_however_many_streams_carry_it():
    message = {"version": "5-5-1.0:0", "what": "result", "pages": {"/t/1/classifica/": {"it": "UEFHRQ=="}}}
    first = channel.event(message, ("/t/1/classifica/", "it"))
    assert channel.event(message, ("/t/1/classifica/", "it")) is first
    assert first.startswith("id: 5-5-1.0:0\nevent: page\n")
    assert channel.event(message, ("/t/1/classifica/", "en")).startswith("id: 5-5-1.0:0\ndata: ")  # not rendered in English
    assert channel.event(message, None) is channel.event(message, ("/t/2/classifica/", "it"))


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_stream_carries_the_page_too(settings, tournament, seated, django_capture_on_commit_callbacks):
    settings.LIVE_STREAM_SECONDS = 2
    table = seated.tables.get()

    opened = asyncio.Event()

    async def listen():
        response = await AsyncClient().get(reverse("public:live", args=[tournament.pk]),
                                           {"page": _standings(tournament)})
        chunks = []
        async for chunk in response.streaming_content:
            chunks.append(chunk)
            opened.set()  # its opening sent: the version it starts from is read, a save from now on is news
        return b"".join(chunks)

    def save():
        report(table, [(62,), (48,), (30,), (0, 1)])  # committed: the snapshot job runs, then announces
        return results_version(tournament.pk)

    async def scenario():
        task = asyncio.ensure_future(listen())
        await asyncio.wait_for(opened.wait(), 30)  # the stream opened (SQLite: one writer at a time)
        version = await asyncio.to_thread(save)
        return version, await task

    version, text = asyncio.run(scenario())
    assert f"id: {version}@{channel.generation()}\nevent: page\n" in text.decode()
