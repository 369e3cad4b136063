"""The live channel's limits against a patient visitor: streams per client address capped (429, the page
polls instead), render on write only for pages a visitor loaded and that exist (a 404 is never
watched), and a public stream that ends once its tournament is unpublished."""
import gc
import time

import pytest
from django.test import Client
from django.urls import reverse

from tables.live import channel
from tables.standings import cache as page_cache
from tables.standings.watch import watched
from tests.factories import RegistrationFactory


@pytest.fixture(autouse=True)
def quick(settings):
    settings.LIVE_POLL_SECONDS, settings.LIVE_STREAM_SECONDS, settings.LIVE_HEARTBEAT_SECONDS = 0.02, 20, 60


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


def test_a_page_that_answers_404_is_never_watched(tournament):
    registration = RegistrationFactory(tournament=tournament)
    real = reverse("public:player", args=[tournament.pk, registration.pk])
    missing = reverse("public:player", args=[tournament.pk, registration.pk + 1000])
    started = page_cache.now()
    for _ in range(3):
        assert Client().get(missing).status_code == 404
    assert watched(tournament.pk, started) == {}
    assert Client().get(real).status_code == 200
    assert [page[0] for page in watched(tournament.pk, started)] == [real]


def test_a_page_of_a_tournament_that_does_not_exist_is_never_watched(db):
    started = page_cache.now()
    assert Client().get(reverse("public:standings", args=[987654])).status_code == 404
    assert watched(987654, started) == {}


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
