"""One snapshot per tournament (tables/live/snapshot.py): after a change commits its snapshot job is queued,
at most once per refresh interval and never later than asked; the job renders the public pages the
screens follow, gives back a page's lock when its render fails, and announces the version with the
fragment the live channel carries; the dispute window's close is a job of its own."""
import datetime

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from tables.live import snapshot
from tables.live.selectors import last_announced
from tables.rounds import services as rounds
from tables.standings import cache as pages
from tests.html import one, parse, text, tr
from tests.tables.standings.test_public_pages_freshness import (  # noqa: F401 (fixtures)
    POLL, REFRESH, _save, _url, clock, played)
from tournaments.models import Tournament
from tournaments.versions import results_version


@pytest.fixture
def queued():
    """The jobs the pages' backend was handed: [(tournament pk, run after as epoch seconds or None)]."""
    backend = snapshot.take_snapshot.get_backend()
    backend.clear()

    def jobs(window=False):
        """`window`: with the jobs queued for the dispute window's close (a real date, where the tests'
        page clock is in 1970)."""
        found = [(r.args[0], r.task.run_after and r.task.run_after.timestamp()) for r in backend.results]
        return [job for job in found if window or job[1] is None or job[1] < 10**9]
    return jobs


def _key(tournament, language="it"):
    return pages.page_key(tournament.pk, _url(tournament), language, True)


def test_a_committed_change_queues_one_snapshot_at_once(clock, tournament, played, organiser, queued,
                                                        django_capture_on_commit_callbacks):
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    assert queued() == [(tournament.pk, None)]
    _save(tournament, 2, 66, organiser, django_capture_on_commit_callbacks)  # covered by the job queued
    assert queued() == [(tournament.pk, None)]


def test_the_next_snapshot_waits_for_the_refresh_interval(clock, tournament, played, organiser, queued,
                                                          django_capture_on_commit_callbacks):
    snapshot.take_snapshot.call(tournament.pk)  # started now: the next one not before REFRESH
    clock.now += 0.1
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    assert queued() == [(tournament.pk, pytest.approx(clock.now - 0.1 + REFRESH))]


def test_a_job_queued_for_later_never_delays_an_earlier_one(clock, tournament, played, organiser, queued,
                                                            django_capture_on_commit_callbacks):
    cache.set(snapshot._queued_key(tournament.pk), clock.now + 60, 60)  # queued far ahead
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    assert queued() == [(tournament.pk, None)]  # at once, as if nothing were queued


def test_the_job_renders_the_carried_fragment_and_announces_it(clock, tournament, played, organiser, settings,
                                                                django_capture_on_commit_callbacks):
    settings.LANGUAGE_CODE = "it"  # the site's language, as in production
    saved_version = results_version(tournament.pk)
    snapshot.take_snapshot.call(tournament.pk)
    kept = pages.read(_key(tournament, "it"))  # the site's language: always
    assert kept.version == saved_version and b"Classifica provvisoria" in kept.body
    assert pages.read(_key(tournament, "en")) is None  # nobody asked for it in English
    message = last_announced(tournament.pk)
    assert message["version"] == saved_version and list(message["pages"]) == [_url(tournament)]
    assert list(message["pages"][_url(tournament)]) == ["it"]
    poll = Client().get(_url(tournament), headers={**POLL, "Accept-Language": "it"})
    assert poll.content == kept.body and poll[pages.VERSION_HEADER] == saved_version  # the job's, byte for byte
    # A visitor asks in English: from then on the English fragment is rendered on write too.
    english = Client().get(_url(tournament), headers={**POLL, "Accept-Language": "en"})
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now += REFRESH
    snapshot.take_snapshot.call(tournament.pk)
    message = last_announced(tournament.pk)
    assert list(message["pages"][_url(tournament)]) == ["it", "en"]
    later = pages.read(_key(tournament, "en"))
    assert later.version == results_version(tournament.pk) != english[pages.VERSION_HEADER]
    assert b"Provisional standings" in later.body


def test_a_visitor_of_the_whole_english_page_gets_the_english_fragment_rendered_on_write(
        clock, tournament, played, organiser, settings, django_capture_on_commit_callbacks):
    """A phone that opened the whole page in English (no fragment asked yet) polls for the English
    fragment next: the snapshot renders it and the live channel carries it, as for the site's language."""
    settings.LANGUAGE_CODE = "it"
    whole = Client().get(_url(tournament), headers={"Accept-Language": "en"})
    assert whole.status_code == 200 and one(whole, "html")["lang"] == "en"
    assert pages.read(_key(tournament, "en")) is None  # the fragment itself was never asked for
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    snapshot.take_snapshot.call(tournament.pk)
    assert list(last_announced(tournament.pk)["pages"][_url(tournament)]) == ["it", "en"]
    kept = pages.read(_key(tournament, "en"))
    assert kept.version == results_version(tournament.pk)
    assert text(one(parse(kept.body), "[data-state]")).startswith(tr("Provisional standings", "en"))
    assert tr("Provisional standings", "en") != tr("Provisional standings", "it")


def test_a_failed_render_gives_its_lock_back(clock, tournament, played, monkeypatch, caplog):
    def broken(tournament, version):
        raise RuntimeError("template error")
    monkeypatch.setattr(snapshot, "page_list", lambda: [("public:standings", True, broken)])
    snapshot.take_snapshot.call(tournament.pk)
    assert "snapshot: tournament" in caplog.text
    assert pages.take_lock(_key(tournament))  # free again: the next request renders the page


def test_a_failed_request_render_gives_its_lock_back(clock, tournament, played, monkeypatch):
    monkeypatch.setattr("tables.standings.pages.standings_table",
                        lambda *a: (_ for _ in ()).throw(RuntimeError("template error")))
    client = Client(raise_request_exception=False)
    assert client.get(_url(tournament), headers=POLL).status_code == 500
    assert pages.take_lock(_key(tournament))


def test_the_dispute_windows_close_is_a_job_that_announces_it(clock, tournament, organiser, queued, monkeypatch,
                                                              django_capture_on_commit_callbacks):
    Tournament.objects.filter(pk=tournament.pk).update(dispute_window_minutes=30)
    from tests.factories import RegistrationFactory, report, seat_round
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(40,), (30,), (20,), (0, 1)])
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_close(user=organiser, rnd=rnd)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.standings_publish(user=organiser, rnd=rnd)
    rnd.refresh_from_db()
    closes = rnd.standings_published_at + datetime.timedelta(minutes=30)
    assert (tournament.pk, pytest.approx(closes.timestamp())) in queued(window=True)
    snapshot.take_snapshot.call(tournament.pk)
    open_version = last_announced(tournament.pk)["version"]
    later = closes + datetime.timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    snapshot.take_snapshot.call(tournament.pk)  # the job queued for the close runs
    closed = last_announced(tournament.pk)
    assert closed["version"] != open_version and closed["version"].endswith(":1")
    assert closed["what"] == ""


def test_a_page_the_job_rendered_stands_in_up_to_the_stale_bound(clock, tournament, played, organiser,
                                                                 django_capture_on_commit_callbacks):
    """The job renders the page again within the refresh interval after a change, so the polls meanwhile
    only read its last render, up to the stale bound; past it a visitor's request renders the page."""
    from tests.tables.standings.test_public_pages_freshness import STALE, _through
    rendered_at = clock.now
    snapshot.take_snapshot.call(tournament.pk)
    before = Client().get(_url(tournament), headers=POLL)
    saved = _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now = rendered_at + REFRESH + 0.1  # the job is due: the polls still read
    during = Client().get(_url(tournament), headers=POLL)
    assert during.content == before.content and _through(during) < saved
    clock.now = rendered_at + STALE + 0.01  # the job did not come (its worker stopped): a request renders
    after = Client().get(_url(tournament), headers=POLL)
    assert after.content != before.content and _through(after) >= saved


@pytest.mark.django_db(transaction=True)
def test_with_the_cache_down_the_queue_itself_dedupes_the_snapshot_jobs(settings, tournament, monkeypatch):
    """Redis down: the cache remembers no queued job, yet a hundred changes queue one snapshot (the
    database backend is asked), and one more once that one has started."""
    from django_tasks_db.compat import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {**settings.TASKS, "pages": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["pages"]}}
    monkeypatch.setattr(snapshot.cache, "get", lambda *args, **kwargs: None)  # an empty cache, all the time
    monkeypatch.setattr(snapshot.cache, "set", lambda *args, **kwargs: None)
    for _ in range(100):
        snapshot.schedule(tournament.pk)
    jobs = DBTaskResult.objects.filter(task_path="tables.live.snapshot.take_snapshot")
    assert list(jobs.values_list("args_kwargs", "status")) == [({"args": [tournament.pk], "kwargs": {}},
                                                                TaskResultStatus.READY)]
    jobs.update(status=TaskResultStatus.RUNNING)
    snapshot.schedule(tournament.pk)
    snapshot.schedule(tournament.pk)
    assert sorted(jobs.values_list("status", flat=True)) == [TaskResultStatus.READY, TaskResultStatus.RUNNING]


def test_the_polls_after_a_save_leave_the_render_to_the_job_coming(clock, tournament, played, organiser,
                                                                   django_capture_on_commit_callbacks):
    """Saves further apart than the stale bound: the job's last render is older than the bound when the next
    save commits, yet the polls read it while that save's job is queued (up to the refresh interval past
    its time) or running (up to the stale bound since it started), rather than render the page themselves."""
    from tests.tables.standings.test_public_pages_freshness import STALE, _through
    snapshot.take_snapshot.call(tournament.pk)
    before = Client().get(_url(tournament), headers=POLL)
    clock.now += STALE + 1  # a quiet moment, longer than the stale bound
    saved = _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)  # its job queued, not run
    during = Client().get(_url(tournament), headers=POLL)
    assert during.content == before.content and _through(during) < saved  # the job's page, nothing rendered
    clock.now += 0.1
    snapshot.take_snapshot.call(tournament.pk)  # the worker runs it
    after = Client().get(_url(tournament), headers=POLL)
    kept = pages.read(_key(tournament, after["Content-Language"]))
    assert (kept.version, kept.on_write, kept.started) == (after[pages.VERSION_HEADER], True, clock.now)
    assert _through(after) >= saved and after.content == kept.body  # the job's render, byte for byte


def test_a_job_that_never_comes_leaves_the_render_to_the_polls(clock, tournament, played, organiser,
                                                               django_capture_on_commit_callbacks):
    from tests.tables.standings.test_public_pages_freshness import STALE, _through
    snapshot.take_snapshot.call(tournament.pk)
    before = Client().get(_url(tournament), headers=POLL)
    clock.now += STALE + 1
    saved = _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now += REFRESH + 0.01  # queued, due, and no worker took it
    after = Client().get(_url(tournament), headers=POLL)
    assert after.content != before.content and _through(after) >= saved
