"""The public cache's rules, each as a visitor or the room would notice it: the big screen shows a
result as soon as it is saved; a page is rendered at most once per refresh interval, then anew; a
render that fails gives its lock back; and an answer that sets a cookie is never stored for other
visitors."""
import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from tables.standings import cache as public_cache
from tests.tables.standings.test_public_pages_freshness import (  # noqa: F401 (fixtures)
    POLL, REFRESH, _save, _url, clock, played)

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(caplog):
    """The log lines of the pages rendered: [on write?, ...]."""
    caplog.set_level("INFO", logger="torneo.standings")

    def rendered():
        return [("on write" in r.getMessage()) for r in caplog.records if r.getMessage().startswith("rendered ")]
    return rendered


def _leader(client, tournament):
    data = client.get(reverse("public:screen_data", args=[tournament.pk])).json()
    return [(row["name"], row["total"]) for row in data["standings"][:1]], data["results"]


def test_the_big_screen_shows_a_result_as_soon_as_it_is_saved(tournament, played, organiser,
                                                              django_capture_on_commit_callbacks):
    client = Client()
    before, results_before = _leader(client, tournament)
    _save(tournament, 1, 99, organiser, django_capture_on_commit_callbacks)
    after, results_after = _leader(client, tournament)
    assert after != before
    assert [r["table"] for r in results_after] == [1] and results_before == []


def test_a_page_is_rendered_at_most_once_per_refresh_interval(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, renders):
    url = _url(tournament)
    rendered_at = clock.now
    first = Client().get(url, headers=POLL)           # a visitor's request renders the page
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now += 0.2                                  # 0.2 s later a visitor asks again: served the last render
    early = Client().get(url, headers=POLL)
    assert early.content == first.content and renders() == [False]
    clock.now = rendered_at + REFRESH                 # the interval has passed: rendered now
    later = Client().get(url, headers=POLL)
    assert later.content != first.content and renders() == [False, False]


def test_a_render_that_fails_gives_its_lock_back_to_the_next_visitor(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, monkeypatch, renders):
    url = _url(tournament)
    first = Client().get(url, headers=POLL)
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now += 10                                   # past the stale bound
    real = public_cache.render_snapshot

    def broken(key, version, started, render, page, on_write=False):
        return real(key, version, started, lambda: (_ for _ in ()).throw(RuntimeError("the template broke")), page)
    monkeypatch.setattr(public_cache, "render_snapshot", broken)
    assert Client(raise_request_exception=False).get(url, headers=POLL).status_code == 500
    key = public_cache.page_key(tournament.pk, url, first["Content-Language"], True)
    assert public_cache.take_lock(key)                # given back
    public_cache.release_lock(key)
    monkeypatch.setattr(public_cache, "render_snapshot", real)
    later = Client().get(url, headers=POLL)           # the next visitor renders
    assert later.status_code == 200 and later.content != first.content
    assert renders() == [False, False]


def test_an_answer_that_sets_a_cookie_is_never_stored_for_other_visitors(tournament):
    from django.contrib.auth.models import AnonymousUser
    calls = []

    def render():
        calls.append(1)
        response = HttpResponse(b"<p>per visitor</p>")
        response.set_cookie("scelta", "mia")
        return response

    def ask():
        request = RequestFactory().get(f"/t/{tournament.pk}/classifica/")
        request.user = AnonymousUser()
        return public_cache.serve_cached(request, tournament.pk, "v1", render)
    first, second = ask(), ask()
    assert len(calls) == 2                            # rendered for each visitor
    assert "scelta" in first.cookies and "scelta" in second.cookies
    assert [key for key in cache._cache if ":snap:" in key] == []   # nothing filed
