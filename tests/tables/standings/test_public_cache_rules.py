"""The public cache's rules, each as a visitor or the room would notice it: the big screen shows a
result as soon as it is saved; a page is rendered on write at most once per refresh interval, the
refresher coming back exactly when the interval ends; a render on write that fails leaves the page to
the next visitor; and an answer that sets a cookie is never stored for other visitors."""
import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from tables.standings import cache as public_cache
from tables.standings import refresh, watch
from tests.tables.standings.test_public_pages_freshness import (  # noqa: F401 (fixtures)
    POLL, REFRESH, _save, _url, clock, played)
from tests.tables.standings.test_render_on_write import _asked_again, renders  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def every_request_noted(monkeypatch):
    monkeypatch.setattr(watch, "NOTE_SECONDS", 0)


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


def test_a_page_is_rendered_on_write_at_most_once_per_refresh_interval_and_looked_at_when_it_ends(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, renders):
    url = _url(tournament)
    rendered_at = clock.now
    Client().get(url, headers=POLL)                   # a visitor's request renders the page
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    _asked_again(clock, url)                          # 0.2 s later a visitor asks again: served the last render
    assert refresh.refresh(tournament.pk) == pytest.approx(rendered_at + REFRESH - clock.now)
    assert renders() == [False]                       # too soon after the last render: not rendered
    clock.now = rendered_at + REFRESH                 # the interval has passed: rendered now
    assert refresh.refresh(tournament.pk) == REFRESH
    assert renders() == [False, True]


def test_a_render_on_write_that_fails_leaves_the_page_to_the_next_visitor(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, monkeypatch, renders):
    url = _url(tournament)
    first = Client().get(url, headers=POLL)
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    _asked_again(clock, url)
    clock.now += REFRESH

    def broken(*args):
        raise RuntimeError("the template broke")
    monkeypatch.setattr(refresh, "_render", broken)
    assert refresh.refresh(tournament.pk) is None
    assert public_cache.take_render_lock(tournament.pk, url, first["Content-Language"], True)  # released
    public_cache.release_render_lock(tournament.pk, url, first["Content-Language"], True)
    clock.now += 10                                   # past the stale bound: the next visitor renders
    later = Client().get(url, headers=POLL)
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
    assert [key for key in cache._cache if ":page:" in key or ":last:" in key] == []   # nothing filed
