"""One snapshot per tournament: after its changes commit, the public pages the screens follow are
rendered once, in the background, and the change is announced on the live channel with them.

`schedule(pk, closes_at)` is called when a change of tournament `pk` commits: tournaments.versions sends
`changes_committed`, whose receiver `changes_committed` below is connected in tables/apps.py. It queues
`take_snapshot` (Django's tasks framework, backend "pages"): at once, or PUBLIC_PAGE_REFRESH_SECONDS
after the last snapshot started, so a storm of saves costs one snapshot per interval and the last save
always gets one. A job already queued for an earlier time covers a
later one; a later one never delays an earlier. When the dispute window is open, a job is also
queued for its close: the standings turn final then with no change logged, and the screens are told.

`take_snapshot(pk)` reads the tournament's version, then renders the pages of `page_list()` through
tables/standings/cache.py's `render_snapshot` (holding each page's lock; a page already rendered at
that version is kept): the standings' fragment in the site's language, and each page in each language
that a visitor asked for; then it announces the version with the htmx fragments it rendered
(tables/live/channel.py): a thousand phones get the new standings without a request.
"""
import datetime
import logging

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.db.models import Q
from django.urls import reverse
from django.utils import translation
from django_tasks import task
from django_tasks_db import DatabaseBackend
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

from tables.live.channel import announce
from tables.standings import cache as pages
from tables.standings import versioned
from tables.standings.pages import standings_fragment, standings_json_response
from tournaments.models import Tournament
from tournaments.versions import results_version

logger = logging.getLogger("torneo.standings")

QUEUED_SECONDS = 60  # a job queued but never run (no worker) stops covering later changes after this


def _queued_key(pk):
    return pages.job_queued_key(pk)  # read by the page cache too: a page the job renders stands in


def _started_key(pk):
    return pages.job_started_key(pk)


def _window_key(pk):
    return f"snapshot-window:{pk}"


def page_list():
    """[(url name, htmx, render(tournament, version) -> response)]: the pages a snapshot renders, those
    that many screens ask for after each change (the standings' fragment, which the live channel
    carries to every phone; the standings' JSON of club websites). Any other public page is rendered
    by the first request that asks for it (tables/standings/cache.py)."""
    return [("public:standings", True, standings_fragment),
            ("public:standings_json", False, lambda tournament, version: standings_json_response(tournament))]


def _enqueue(pk, at):
    """Queue the tournament's snapshot for `at` (epoch seconds); a backend that cannot run a job later
    (`immediate`: no worker) runs it now, unless it is for later than the refresh interval."""
    backend = take_snapshot.get_backend()
    try:
        if at <= pages.now():
            take_snapshot.enqueue(pk)
        elif backend.supports_defer:
            take_snapshot.using(run_after=datetime.datetime.fromtimestamp(at, datetime.UTC)).enqueue(pk)
        elif at - pages.now() <= settings.PUBLIC_PAGE_REFRESH_SECONDS:
            take_snapshot.enqueue(pk)
        else:  # the dispute window's close, without a worker: said, not skipped silently
            logger.info("snapshot: tournament %s's close of the dispute window is not announced: the tasks "
                        "backend runs no job later (TASKS_BACKEND=immediate); its pages' own poll shows it", pk)
        return True
    except Exception:  # the queue out of reach: the visitors' requests render the pages
        logger.exception("snapshot: queueing tournament %s failed", pk)
        return False


def _queued_in_database(pk, at):
    """Whether a snapshot of tournament `pk` is already waiting to run by `at` in the queue itself (the
    database backend): the cache remembers the queued job, and while the cache is down (Redis) it
    remembers nothing, and every save queued one more (230 copies in a minute)."""
    if not isinstance(take_snapshot.get_backend(), DatabaseBackend):
        return False
    try:
        return (DBTaskResult.objects.filter(backend_name=take_snapshot.backend, status=TaskResultStatus.READY,
                                            task_path=take_snapshot.module_path,
                                            args_kwargs={"args": [pk], "kwargs": {}})
                .filter(Q(run_after=get_date_max()) | Q(run_after__lte=datetime.datetime.fromtimestamp(at, datetime.UTC)))
                .exists())
    except DatabaseError:
        return False


def schedule(pk, closes_at=None):
    """Queue the snapshot of tournament `pk` after a change committed (`closes_at`: when its dispute
    window closes, or None)."""
    at = max(pages.now(), (cache.get(_started_key(pk)) or 0) + settings.PUBLIC_PAGE_REFRESH_SECONDS)
    queued = cache.get(_queued_key(pk))
    if queued is None and _queued_in_database(pk, at):
        queued = at
    if queued is None or queued > at:  # the earliest wins: a job for later never delays this one
        cache.set(_queued_key(pk), at, QUEUED_SECONDS)  # before: the job may run at once, and clears it
        if not _enqueue(pk, at):
            cache.delete(_queued_key(pk))
    if closes_at is not None:
        close = closes_at.timestamp()
        if close > pages.now() and cache.get(_window_key(pk)) != close and _enqueue(pk, close):
            cache.set(_window_key(pk), close, int(close - pages.now()) + QUEUED_SECONDS)  # queued once


def changes_committed(sender, pk, closes_at, **kwargs):
    """The receiver of tournaments.versions.changes_committed (connected in tables/apps.py)."""
    schedule(pk, closes_at)


def _page(pk, tournament, version, started, name, htmx, render, language):
    """The page's snapshot at `version`: kept when there, else rendered holding its lock (waiting for a
    request that holds it); None when it could not be rendered."""
    path = reverse(name, args=[pk])
    key = pages.page_key(pk, path, language, htmx)
    if not pages.take_lock(key):
        waited, holding = pages.wait_for_render(key, version)
        if not holding:
            return waited
    kept = pages.rendered_at(key, version)
    if kept is not None:
        pages.release_lock(key)
        return kept
    try:
        with translation.override(language):
            return pages.render_snapshot(key, version, started, lambda: render(tournament, version),
                                         (pk, path, htmx), on_write=True)[1]
    except Exception:  # left to the visitors' requests (the lock was given back)
        logger.exception("snapshot: tournament %s page %s failed", pk, path)
        return None


def _wanted(pk, name, htmx, language):
    """Whether a snapshot renders this page in this language: the standings' fragment in the site's
    language always (the live channel carries it to every phone); any page once a visitor asked for it
    in that language (its last render, or the whole page's for a fragment, is in the cache), so a page
    nobody reads is never rendered on write."""
    if name == "public:standings" and htmx and language == settings.LANGUAGE_CODE:
        return True
    path = reverse(name, args=[pk])
    return any(pages.kept(pages.page_key(pk, path, language, form)) for form in {htmx, False})


@task(backend="pages", queue_name="pages")
def take_snapshot(pk):
    """Render the public pages of tournament `pk` at its current version and announce it."""
    cache.delete(_queued_key(pk))  # a change committed from now on queues the next snapshot
    started = pages.now()
    cache.set(_started_key(pk), started, versioned.CACHE_SECONDS)
    version = results_version(pk)  # before the data: the pages show this version or later
    tournament = Tournament.objects.filter(pk=pk, published=True).first()
    carried = {}
    for name, htmx, render in (page_list() if tournament is not None else []):
        for language, _label in settings.LANGUAGES:
            if not _wanted(pk, name, htmx, language):
                continue
            snapshot = _page(pk, tournament, version, started, name, htmx, render, language)
            if htmx and snapshot is not None and snapshot.version == version:
                carried.setdefault(reverse(name, args=[pk]), {})[language] = snapshot.packed
    announce(pk, version, carried)
