"""Public pages rendered on write (tables/standings/refresh.py): after a change commits, the pages
anonymous visitors ask for are rendered anew by the committing process, so a poll finds them ready;
a page rendered on write stands in up to the stale bound, never longer; pages nobody asked for are
not rendered. The refresher's pass is called directly here (the thread is tested on its own)."""
import threading

import pytest
from django.core.cache import cache
from django.test import Client

from tables.standings import cache as public_cache
from tables.live.selectors import last_announced
from tables.standings import refresh, watch
from tests.tables.standings.test_public_pages_freshness import (  # noqa: F401 (fixtures)
    POLL, REFRESH, STALE, _save, _through, _url, clock, played)
from tournaments import versions


@pytest.fixture
def renders(caplog):
    """The log lines of the pages rendered: [(tournament version, on write?)]."""
    caplog.set_level("INFO", logger="torneo.standings")

    def rendered():
        return [("on write" in r.getMessage()) for r in caplog.records if r.getMessage().startswith("rendered ")]
    return rendered


@pytest.fixture(autouse=True)
def every_request_noted(monkeypatch):
    """Each request's demand is recorded (a process does so at most once per NOTE_SECONDS)."""
    monkeypatch.setattr(watch, "NOTE_SECONDS", 0)


def _asked_again(clock, url):
    """A visitor asks for the page after a save, within the refresh interval: served the last render."""
    clock.now += 0.2
    return Client().get(url, headers=POLL)


def _last(tournament, response, htmx=True):
    return public_cache.last_render(tournament.pk, _url(tournament), response["Content-Language"], htmx)


def _saved_while_watched(clock, tournament, organiser, callbacks):
    """A visitor polls the page (it is watched), a result is saved, the visitor polls again:
    returns the url and the first poll's answer."""
    url = _url(tournament)
    first = Client().get(url, headers=POLL)
    _save(tournament, 1, 77, organiser, callbacks)
    _asked_again(clock, url)
    return url, first


def test_a_committed_save_is_rendered_on_write_and_the_next_poll_only_reads_it(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, renders):
    url = _url(tournament)
    first = Client().get(url, headers=POLL)  # a visitor asks for the page: it is watched
    assert renders() == [False]
    saved = _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    assert _through(_asked_again(clock, url)) < saved
    clock.now += REFRESH
    assert refresh.refresh(tournament.pk) == REFRESH  # rendered; looked at again after the interval
    assert renders() == [False, True]
    last = _last(tournament, first)
    assert last[0] == versions.results_version(tournament.pk) and last[3] is True
    poll = Client().get(url, headers=POLL)
    assert renders() == [False, True]  # the poll rendered nothing
    assert _through(poll) >= saved and poll.content != first.content
    # Rendered as the visitor's request would have been: the same bytes as a render by a request.
    cache.delete(f"last:{public_cache._base(tournament.pk, url, first['Content-Language'], 'anon', True)}")
    public_cache.forget_recent_pages()
    cache.delete(f"page:{public_cache._identity(tournament.pk, url, poll[public_cache.VERSION_HEADER], first['Content-Language'], 'anon', True)}")
    again = Client().get(url, headers=POLL)
    assert renders() == [False, True, False]
    assert again.content == poll.content and again["ETag"] == poll["ETag"]
    # Nothing new: nothing to render.
    assert refresh.refresh(tournament.pk) is None


def test_a_page_rendered_on_write_stands_in_up_to_the_stale_bound_then_a_request_renders(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, renders):
    url, _ = _saved_while_watched(clock, tournament, organiser, django_capture_on_commit_callbacks)
    clock.now += REFRESH
    refresh.refresh(tournament.pk)
    on_write = Client().get(url, headers=POLL)
    second = _save(tournament, 2, 66, organiser, django_capture_on_commit_callbacks)
    clock.now += STALE - 0.1  # past the refresh interval, within the stale bound: no request renders
    during = Client().get(url, headers=POLL)
    assert during.content == on_write.content and _through(during) < second
    assert renders() == [False, True]
    clock.now += 0.2  # past the bound (the refresher did not come): the request renders the page itself
    after = Client().get(url, headers=POLL)
    assert _through(after) >= second and renders() == [False, True, False]
    assert _last(tournament, after)[3] is False  # rendered by a request: the refresh interval applies again


def test_pages_nobody_asked_for_lately_are_not_rendered_on_write(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, renders):
    _, first = _saved_while_watched(clock, tournament, organiser, django_capture_on_commit_callbacks)
    clock.now += watch.WATCH_SECONDS + 1
    assert refresh.refresh(tournament.pk) is None
    assert renders() == [False]
    assert _last(tournament, first, htmx=False) is None  # the full page was never asked for: never rendered


def test_a_page_nobody_asked_for_since_its_last_render_is_not_rendered_again(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, renders):
    url = _url(tournament)
    rendered_at = clock.now
    Client().get(url, headers=POLL)  # rendered by this request, which was all the demand
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now += 0.1
    assert refresh.refresh(tournament.pk) is None
    assert renders() == [False]
    _asked_again(clock, url)  # a visitor asks again (served the last render): the next pass renders it
    clock.now = rendered_at + REFRESH
    assert refresh.refresh(tournament.pk) == REFRESH and renders() == [False, True]


def test_the_refresher_leaves_a_page_to_the_render_under_way_elsewhere(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, renders):
    url, first = _saved_while_watched(clock, tournament, organiser, django_capture_on_commit_callbacks)
    clock.now += REFRESH
    assert public_cache.take_render_lock(tournament.pk, url, first["Content-Language"], True)  # another server
    assert refresh.refresh(tournament.pk) == refresh.RETRY_SECONDS
    assert renders() == [False]
    public_cache.release_render_lock(tournament.pk, url, first["Content-Language"], True)
    assert refresh.refresh(tournament.pk) == REFRESH and renders() == [False, True]


def test_a_visitors_header_cannot_pass_for_the_refresher(clock, tournament, played):
    url = _url(tournament)
    Client().get(url, headers=POLL)
    response = Client().get(url, headers={**POLL, watch.REFRESH_KEY: "1"})
    assert response.status_code == 200
    assert not public_cache.refreshing(response.wsgi_request)


def test_a_commit_schedules_the_refresh_when_render_on_write_is_on(
        settings, tournament, played, organiser, django_capture_on_commit_callbacks, monkeypatch):
    scheduled = []
    monkeypatch.setattr(refresh._refresher, "schedule", scheduled.append)
    settings.PUBLIC_PAGE_RENDER_ON_WRITE = False
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    assert scheduled == []
    settings.PUBLIC_PAGE_RENDER_ON_WRITE = True
    _save(tournament, 1, 66, organiser, django_capture_on_commit_callbacks)
    assert scheduled == [tournament.pk]


def test_the_refresher_thread_refreshes_and_looks_again_when_asked(monkeypatch):
    calls, done = [], threading.Event()
    answers = iter([0.01, None])

    def fake_refresh(pk):
        calls.append(pk)
        answer = next(answers)
        if answer is None:
            done.set()
        return answer
    monkeypatch.setattr(refresh, "refresh", fake_refresh)
    refresher = refresh.Refresher()
    refresher.schedule(7)
    assert done.wait(5)
    assert calls == [7, 7] and refresher.due == {}


@pytest.fixture
def rendering_on_write(settings, monkeypatch):
    """Render on write on, the refresher's passes called by the test rather than its thread."""
    settings.PUBLIC_PAGE_RENDER_ON_WRITE = True
    monkeypatch.setattr(refresh._refresher, "schedule", lambda pk, delay=0.0: None)


def test_a_watched_tournaments_change_is_announced_once_its_page_is_rendered(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, rendering_on_write):
    url = _url(tournament)
    Client().get(url, headers=POLL)  # a visitor asks for the page: it is watched
    before = last_announced(tournament.pk)
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    assert last_announced(tournament.pk) == before  # not at the commit: the new page is not there yet
    clock.now += REFRESH
    refresh.refresh(tournament.pk)
    version = versions.results_version(tournament.pk)
    assert last_announced(tournament.pk) == {"version": version, "what": "result"}
    assert Client().get(url, headers=POLL)[public_cache.VERSION_HEADER] == version  # the page it names is there


def test_a_change_nobody_watches_is_announced_at_its_commit(
        tournament, played, organiser, django_capture_on_commit_callbacks, rendering_on_write):
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    assert last_announced(tournament.pk) == {"version": versions.results_version(tournament.pk), "what": "result"}


def test_once_one_page_is_due_the_pass_renders_every_page_behind_so_they_keep_one_pace(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, renders):
    """The fragment was rendered a moment ago, the full page a while ago: a save makes both behind;
    the full page is due, and the fragment is rendered with it rather than in a pass of its own."""
    url = _url(tournament)
    page = Client().get(url)  # the full page, rendered now
    clock.now += REFRESH - 0.1
    fragment = Client().get(url, headers=POLL)  # the fragment, rendered 0.4 s later
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now += 0.2  # the full page is due, the fragment not yet; both asked for again (noted)
    for response, htmx in ((page, False), (fragment, True)):
        watch.watch(tournament.pk, url, response["Content-Language"], htmx, {}, clock.now)
    assert refresh.refresh(tournament.pk) == REFRESH
    assert renders() == [False, False, True, True]
    shown = versions.results_version(tournament.pk)
    assert _last(tournament, page, htmx=False).version == _last(tournament, fragment).version == shown
    assert last_announced(tournament.pk)["version"] == shown


def test_a_pass_leaving_a_page_to_a_render_under_way_elsewhere_announces_nothing_yet(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks, renders, rendering_on_write):
    """A visitor's request begun during the save's transaction renders the version before it: the
    change is announced once every page behind shows it, not when only some do."""
    url = _url(tournament)
    page, fragment = Client().get(url), Client().get(url, headers=POLL)
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    announced = last_announced(tournament.pk)
    assert announced is None or announced["version"] != versions.results_version(tournament.pk)
    clock.now += REFRESH
    for response, htmx in ((page, False), (fragment, True)):
        watch.watch(tournament.pk, url, response["Content-Language"], htmx, {}, clock.now)
    language = fragment["Content-Language"]
    assert public_cache.take_render_lock(tournament.pk, url, language, True)  # a visitor's render under way
    assert refresh.refresh(tournament.pk) == refresh.RETRY_SECONDS
    assert renders() == [False, False, True]  # the full page only
    assert last_announced(tournament.pk) == announced
    public_cache.release_render_lock(tournament.pk, url, language, True)
    assert refresh.refresh(tournament.pk) == REFRESH and renders() == [False, False, True, True]
    assert last_announced(tournament.pk)["version"] == versions.results_version(tournament.pk)
