"""An anonymous visitor's public page answered before the middleware chain (tables/standings/cache.py,
PublicPageMiddleware): a 304 or a kept page costs the version's cache read and, for a 200, only the body
it sends; no database query, no URL resolved or reversed again, the chain's headers all there; the job's
page stands in while the job renders it."""
import gzip
import pickle

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from tables.standings import cache as public_cache
from tests.html import select
from tests.tables.standings.test_public_pages_cache import PAGES, _get, _played, _url

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture
def played(tournament, organiser):
    return _played(tournament, organiser, 8, rounds=1)


class Reads:
    """The shared cache's reads: how many round trips, which keys, how many bytes came back."""

    def __init__(self, monkeypatch):
        self.trips, self.keys, self.bytes = 0, [], 0
        backend = caches["default"]
        get, get_many = backend.get, backend.get_many

        def counted_get(key, default=None, version=None):
            value = get(key, default, version)
            self._count([key], [] if value is None else [value])
            return value

        def counted_get_many(keys, version=None):
            values = get_many(keys, version)
            self._count(list(keys), list(values.values()))
            return values
        monkeypatch.setattr(backend, "get", counted_get)
        monkeypatch.setattr(backend, "get_many", counted_get_many)

    def _count(self, keys, values):
        self.trips += 1
        self.keys += keys
        self.bytes += sum(len(pickle.dumps(value)) for value in values)


def _forbid(monkeypatch, name):
    def refused(*args, **kwargs):
        raise AssertionError(f"{name} called on the early path")
    monkeypatch.setattr(public_cache, name, refused)


@pytest.mark.parametrize("page", PAGES)
def test_a_kept_page_is_one_cache_read_no_query_no_url_resolved(page, tournament, played, monkeypatch,
                                                                django_assert_num_queries):
    first = _get(Client(), page, tournament, played[0], **GZIP)  # rendered down the chain, kept
    assert first.status_code == 200
    _forbid(monkeypatch, "resolve")
    _forbid(monkeypatch, "reverse")
    reads = Reads(monkeypatch)
    with django_assert_num_queries(0):
        second = _get(Client(), page, tournament, played[0], **GZIP)
        held = _get(Client(), page, tournament, played[0], **GZIP, **{"If-None-Match": first["ETag"]})
    assert (second.status_code, second["ETag"], second.content) == (200, first["ETag"], first.content)
    assert (held.status_code, held.content) == (304, b"")
    assert [key.split(":")[0] for key in reads.keys] == ["tournament-version"] * 2  # the version, nothing else
    assert reads.trips == 2


@pytest.mark.parametrize("accept, sent", [(GZIP, "gzip"), ({}, "body")])
def test_a_process_without_the_page_reads_only_the_body_it_sends(accept, sent, tournament, played, monkeypatch,
                                                                 django_assert_num_queries):
    first = _get(Client(), "standings", tournament, played[0], **accept)
    public_cache.forget_recent()  # another process: the snapshot and its bodies only in the shared cache
    reads = Reads(monkeypatch)
    with django_assert_num_queries(0):
        again = _get(Client(), "standings", tournament, played[0], **accept)
    assert again.content == first.content
    assert [key.split(":")[0] for key in reads.keys] == ["tournament-version", "snap", "snapbody"]
    assert reads.keys[-1].endswith(f":{sent}")
    packed = gzip.compress(gzip.decompress(again.content) if sent == "gzip" else again.content)
    assert reads.bytes < len(again.content) + 1000 < len(again.content) + len(packed)  # never both bodies
    reads.trips, reads.keys = 0, []
    _get(Client(), "standings", tournament, played[0], **accept)  # remembered now: the version alone
    assert reads.keys == [reads.keys[0]] and reads.keys[0].startswith("tournament-version")


def test_the_early_answer_carries_the_headers_of_the_chain(tournament, played):
    """The chain's answer (the first request, which renders) and the early one (the next) carry the same
    headers: the security middleware's, CSP, frame options, language, Vary, caching."""
    url = reverse("public:standings", args=[tournament.pk])
    chain = Client().get(url, headers=GZIP)
    early = Client().get(url, headers=GZIP)
    assert chain.status_code == early.status_code == 200
    assert "X-Frame-Options" in early and "Content-Security-Policy" in early and "Content-Language" in early
    assert sorted(chain.cookies) == sorted(early.cookies) == []  # no CSRF cookie, no session: nothing of a visitor
    skip = {"Date"}
    assert ({k: v for k, v in chain.headers.items() if k not in skip}
            == {k: v for k, v in early.headers.items() if k not in skip})
    held = Client().get(url, headers={**GZIP, "If-None-Match": early["ETag"]})
    assert held.status_code == 304
    assert (held["Content-Security-Policy"], held["X-Frame-Options"]) == (early["Content-Security-Policy"], "DENY")


def test_a_visitor_with_a_session_never_gets_the_kept_page(tournament, played, organiser):
    url = reverse("public:standings", args=[tournament.pk])
    kept = Client().get(url)  # kept for anonymous visitors
    client = Client()
    client.force_login(organiser)
    mine = client.get(url)
    assert mine.status_code == 200 and mine.content != kept.content  # their own page (their name, a token)
    assert select(mine, "input[name=csrfmiddlewaretoken]")
    assert not select(Client().get(url), "input[name=csrfmiddlewaretoken]")  # nothing of theirs kept for others


def test_no_version_in_the_cache_goes_down_the_chain(tournament, played):
    url = reverse("public:standings", args=[tournament.pk])
    first = Client().get(url)
    caches["default"].delete(f"tournament-version:{tournament.pk}")
    again = Client().get(url)  # the view reads the version from the database
    assert (again.status_code, again.content) == (200, first.content)


def test_a_query_or_another_address_goes_down_the_chain(tournament, played):
    url = reverse("public:standings", args=[tournament.pk])
    Client().get(url)
    assert Client().get(url + "?x=1").status_code == 301  # the view redirects it
    assert Client().get(url.replace(f"/{tournament.pk}/", f"/000{tournament.pk}/")).status_code == 301
    assert Client().post(url).status_code == 405


def test_a_lost_body_is_rendered_again(tournament, played):
    url = _url("standings", tournament, played[0])
    first = Client().get(url, headers=GZIP)
    public_cache.forget_recent()
    for key in [k for k in caches["default"]._cache if ":snapbody:" in k]:
        caches["default"].delete(key.split(":", 3)[3])  # evicted, the snapshot still there
    again = Client().get(url, headers=GZIP)  # rendered for this request, the snapshot dropped
    assert (again.status_code, again.content) == (200, gzip.decompress(first.content))
    kept = Client().get(url, headers=GZIP)  # rendered and kept again
    assert (kept.status_code, kept["Content-Encoding"], kept.content) == (200, "gzip", first.content)
