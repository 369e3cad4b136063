"""The live channel's limits against a patient visitor: streams per client address capped (429, the page
polls instead) and streams of all addresses together (503), refused before the database is asked, the pages rendered after a change a fixed list whatever visitors ask for (a 404 is
never kept), and a public stream that ends once its tournament is unpublished."""
import gc
import time

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from tables.live import channel
from tables.live import views as live_views
from tables.standings import cache as page_cache
from tables.live import snapshot
from tests.factories import RegistrationFactory


@pytest.fixture(autouse=True)
def quick(settings):
    settings.LIVE_POLL_SECONDS, settings.LIVE_STREAM_SECONDS, settings.LIVE_HEARTBEAT_SECONDS = 0.02, 20, 60


@pytest.fixture(autouse=True)
def fresh_slots(monkeypatch):
    """The process's slots as a new process starts with them: no stream of another test counted."""
    fresh = channel.Slots()
    monkeypatch.setattr(channel, "slots", fresh)
    monkeypatch.setattr(live_views, "slots", fresh)


def _live(tournament):
    return reverse("public:live", args=[tournament.pk])


@pytest.mark.django_db(transaction=True)   # a stream closed before its end closes its connection, as a server does
def test_one_client_address_holds_at_most_its_streams_then_429(settings, tournament):
    settings.LIVE_STREAMS_PER_CLIENT = 2
    held = [Client(REMOTE_ADDR="203.0.113.9").get(_live(tournament)) for _ in range(2)]
    assert [r.status_code for r in held] == [200, 200]
    refused = Client(REMOTE_ADDR="203.0.113.9").get(_live(tournament))
    assert (refused.status_code, refused["Retry-After"]) == (429, "60")
    assert Client(REMOTE_ADDR="203.0.113.10").get(_live(tournament)).status_code == 200  # another address
    for response in held:  # the streams close: their places are given back
        response.close()
    del held, response
    gc.collect()
    assert channel.slots.holding("203.0.113.9") == 0
    assert Client(REMOTE_ADDR="203.0.113.9").get(_live(tournament)).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_all_addresses_together_hold_at_most_the_process_cap_then_503(settings, tournament):
    settings.LIVE_STREAMS_MAX = 3
    held = [Client(REMOTE_ADDR=f"203.0.113.{n}").get(_live(tournament)) for n in range(1, 4)]
    assert [r.status_code for r in held] == [200, 200, 200]
    refused = Client(REMOTE_ADDR="198.51.100.7").get(_live(tournament))
    assert (refused.status_code, refused["Retry-After"]) == (503, "60")
    held.pop().close()
    gc.collect()
    assert channel.slots.total == 2
    assert Client(REMOTE_ADDR="198.51.100.7").get(_live(tournament)).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_refused_open_never_waits_for_the_thread_the_streams_share(settings, tournament, monkeypatch):
    """Past either cap the answer comes before the database is asked anything (under ASGI that asking
    queues on the one thread every open shares: 1,450 refused opens made another phone wait 8.3 s)."""
    settings.LIVE_STREAMS_PER_CLIENT = 1
    opened = []
    real_open = live_views._open
    monkeypatch.setattr(live_views, "_open", lambda request, pk: opened.append(pk) or real_open(request, pk))
    held = Client(REMOTE_ADDR="203.0.113.9").get(_live(tournament))
    assert held.status_code == 200 and opened == [tournament.pk]
    for _ in range(5):
        assert Client(REMOTE_ADDR="203.0.113.9").get(_live(tournament)).status_code == 429
    assert opened == [tournament.pk]
    held.close()


def test_an_open_refused_by_the_tournament_gives_its_slot_back(tournament):
    tournament.published = False
    tournament.save()
    assert Client(REMOTE_ADDR="203.0.113.9").get(_live(tournament)).status_code == 404
    assert (channel.slots.holding("203.0.113.9"), channel.slots.total) == (0, 0)


def test_a_page_that_answers_404_is_never_kept(tournament):
    registration = RegistrationFactory(tournament=tournament)
    missing = reverse("public:player", args=[tournament.pk, registration.pk + 1000])
    for _ in range(3):
        assert Client().get(missing).status_code == 404
    assert page_cache.read(page_cache.page_key(tournament.pk, missing, "it", False)) is None


def test_what_visitors_ask_for_adds_nothing_to_what_a_change_renders(tournament, caplog):
    """The snapshot job renders its fixed list of pages (the standings' fragment, and their JSON once a
    visitor asked for it), however many other addresses an anonymous client asked for before: no
    visitor can multiply the renders of every save."""
    registrations = [RegistrationFactory(tournament=tournament) for _ in range(12)]
    for registration in registrations:
        assert Client().get(reverse("public:player", args=[tournament.pk, registration.pk])).status_code == 200
    caplog.set_level("INFO", logger="torneo.standings")
    snapshot.take_snapshot.call(tournament.pk)
    on_write = [r for r in caplog.records if r.getMessage().startswith("rendered ") and "on write" in r.getMessage()]
    assert len(on_write) == 1  # the standings' fragment in Italian


def test_a_public_stream_ends_once_its_tournament_is_unpublished(monkeypatch, tournament):
    monkeypatch.setattr(channel, "RECHECK_SECONDS", 0.05)
    response = Client().get(_live(tournament))
    chunks = iter(response.streaming_content)
    next(chunks)  # the stream is open
    tournament.published = False
    tournament.save()
    start = time.monotonic()
    rest = list(chunks)   # ends by itself
    assert time.monotonic() - start < 5   # not the stream's 20 seconds
    assert b"".join(rest) == b""


def test_a_stream_whose_slot_the_live_server_took_takes_no_second_one(tournament, rf):
    """risiko_site/asgi.py takes the slot before Django's handler (`live_slot` in the scope): the view
    counts it once, not twice."""
    from asgiref.sync import async_to_sync
    request = rf.get(_live(tournament), REMOTE_ADDR="203.0.113.9")
    request.scope = {"live_slot": "203.0.113.9"}
    request.user = AnonymousUser()
    response = async_to_sync(live_views.live)(request, tournament.pk)
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    assert (channel.slots.total, channel.slots.holding("203.0.113.9")) == (0, 0)
    response.close()
