"""Public pages rendered on write: after a change commits, the process that made it renders the
tournament's public pages anew, so a visitor's poll finds the new page ready instead of rendering it.

A page is "watched" while anonymous visitors ask for it: tables.standings.cache notes each request's
address, language and htmx flag under `watched:<tournament>` in the shared cache (each process at
most once per NOTE_SECONDS for a page), and a page stays watched WATCH_SECONDS after the last note.
When a change of the tournament commits (tournaments.versions calls `schedule`), a thread of the
committing process renders each watched page whose last render is older than the current version,
through the whole request handler as an anonymous visitor's request would (its language, its htmx
header, its host): the same middleware, view and template, so the same bytes. It takes the page's
render lock like any request (one render across all servers) and renders a page at most once per
PUBLIC_PAGE_REFRESH_SECONDS: the saves of a storm are coalesced, and once they stop the last
version is rendered within that interval.

Meanwhile a visitor's request gets the last rendered page: a page rendered on write stands in up to
the stale bound (tables.standings.cache). Only when nothing recent enough is there (the first change
after a quiet time, a process that died mid-render) does a visitor's request render the page
itself, as before. With the arbiters' pages served by a pool of their own (docker-compose.yml), the
pool answering the phones then only reads the cache.

After a pass has rendered what it had to (or found nothing to render), the listeners registered with
`on_rendered` are told the version the watched pages now show at least: the live channel announces
it then (tables/apps.py), so the screens it tells ask for a page that is there, once, rather than for
one still being rendered, and again (bench/bench_live.py). A change of a tournament whose pages
nobody watches is announced at its commit (`renders_on_write`).

PUBLIC_PAGE_RENDER_ON_WRITE turns it off (the tests do, and test it on its own)."""
import io
import logging
import threading
import time

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest, get_script_name
from django.db import close_old_connections
from django.urls import set_script_prefix

from tables.standings.cache import last_render, now, release_render_lock, take_render_lock
from tables.standings.watch import REFRESH_KEY, watched
from tournaments.versions import results_version

logger = logging.getLogger("torneo.standings")

RETRY_SECONDS = 0.1  # a page whose render lock another holds is looked at again after this

_handler = None
_handler_lock = threading.Lock()


def _render(path, language, htmx, meta):
    """Run an anonymous GET of `path` through the request handler's middleware and view (marked as
    the refresher's). Without the handler's request signals: the refresher's thread closes its
    database connection itself, after each pass."""
    global _handler
    with _handler_lock:
        if _handler is None:
            _handler = WSGIHandler()
    environ = {"REQUEST_METHOD": "GET", "SCRIPT_NAME": "", "PATH_INFO": path, "QUERY_STRING": "",
               "SERVER_NAME": "localhost", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
               "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": io.StringIO(),
               "HTTP_ACCEPT_LANGUAGE": language, REFRESH_KEY: True, **meta}
    if htmx:
        environ["HTTP_HX_REQUEST"] = "true"
    set_script_prefix(get_script_name(environ))
    return _handler.get_response(WSGIRequest(environ)).status_code


_rendered_listeners = []


def on_rendered(listener):
    """Call `listener(pk, version)` after each pass of the refresher over tournament `pk` that rendered
    a page or left nothing to render: every watched page shows `version` or a later one."""
    if listener not in _rendered_listeners:
        _rendered_listeners.append(listener)


def renders_on_write(pk):
    """Whether a change of tournament `pk` committing now will be rendered on write (and its listeners
    told by the refresher): render on write is on and a visitor watches one of its pages."""
    return settings.PUBLIC_PAGE_RENDER_ON_WRITE and bool(watched(pk, now()))


def _stale_pages(pk):
    """[(page, demand, seconds until it may be rendered again)] of the watched pages of tournament
    `pk` whose last render is older than its version and that a visitor asked for since that render
    started."""
    stale = []
    for page, demand in watched(pk, now()).items():
        last = last_render(pk, *page)
        if last is not None and (last.version == results_version(pk) or demand.asked <= last.started):
            continue
        wait = 0.0 if last is None else last.started + settings.PUBLIC_PAGE_REFRESH_SECONDS - now()
        stale.append((page, demand, wait))
    return stale


def refresh(pk):
    """Render the watched pages of tournament `pk` whose last render is older than its version and
    that a visitor asked for since that render started (a page nobody asks for again is not rendered
    again: its next request, or a later change, sees to it). Once one of them is due (rendered at
    least the refresh interval ago), the pass renders them all, so that the pages of a tournament
    keep one pace and each pass leaves them showing the same version. Returns the seconds after which
    to look again (pages rendered too recently, or whose render lock another holds), or None when
    there is nothing more to render. Then tells the `on_rendered` listeners the version read before
    the pass began, when it rendered every page behind or left nothing to render (not while a page's
    render lock is held elsewhere: a visitor's request begun during the change's transaction renders
    the version before it, and the page would be announced older than the change)."""
    shown = results_version(pk)
    stale = _stale_pages(pk)
    due = any(wait <= 0 for _page, _demand, wait in stale)
    again, rendered, held = None, False, False
    for (path, language, htmx), demand, wait in stale:
        if due and not take_render_lock(pk, path, language, htmx):
            held = True  # another render under way, perhaps of an older version: looked at again
        elif due:
            try:
                status = _render(path, language, htmx, demand.meta)
            except Exception:  # a page that cannot be rendered now is left to the visitors' requests
                release_render_lock(pk, path, language, htmx)
                logger.exception("refresh tournament=%s page=%s failed", pk, path)
                continue
            if status != 200:
                logger.warning("refresh tournament=%s page=%s answered %s", pk, path, status)
                continue
            rendered = True
            wait = settings.PUBLIC_PAGE_REFRESH_SECONDS  # versions saved meanwhile: looked at then
        wait = max(wait, RETRY_SECONDS)
        again = wait if again is None else min(again, wait)
    if (rendered and not held) or again is None:
        for listener in _rendered_listeners:
            listener(pk, shown)
    return again


class Refresher:
    """One thread per process rendering the pages of the tournaments scheduled to it."""

    def __init__(self):
        self.due = {}  # tournament pk -> monotonic time at which to refresh it
        self.condition = threading.Condition()
        self.thread = None

    def schedule(self, pk, delay=0.0):
        with self.condition:
            at = time.monotonic() + delay
            self.due[pk] = min(self.due.get(pk, at), at)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="torneo-refresh", daemon=True)
                self.thread.start()
            self.condition.notify()

    def _next(self):
        """The tournament due first, once it is due (waits for it)."""
        with self.condition:
            while True:
                now = time.monotonic()
                if self.due:
                    pk, at = min(self.due.items(), key=lambda item: item[1])
                    if at <= now:
                        del self.due[pk]
                        return pk
                    self.condition.wait(at - now)
                else:
                    self.condition.wait()

    def _run(self):
        while True:
            pk = self._next()
            try:
                again = refresh(pk)
            except Exception:  # the cache or the database out of reach: the visitors' requests render
                logger.exception("refresh tournament=%s failed", pk)
                again = None
            finally:
                close_old_connections()
            if again is not None:
                self.schedule(pk, again)


_refresher = Refresher()


def schedule(pk):
    """Called when a change of tournament `pk` commits."""
    if settings.PUBLIC_PAGE_RENDER_ON_WRITE:
        _refresher.schedule(pk)
