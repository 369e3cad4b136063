"""Which public pages anonymous visitors are asking for, so that they are rendered on write
(tables.standings.refresh): tables.standings.cache notes every anonymous request of a tournament's
public page here; a page stays watched WATCH_SECONDS after its last note, and is rendered on write
only when asked for since its last render (no more renders than the visitors' requests would make)."""
import threading
import time
from typing import NamedTuple

from django.core.cache import cache

# A page is rendered on write while a visitor has asked for it in the last WATCH_SECONDS.
WATCH_SECONDS = 60
WATCHED_PAGES = 24  # per tournament, the most recently asked for kept
NOTE_SECONDS = 0.25  # each process records a page's demand at most this often
# The WSGI environ key that marks the refresher's own request (a visitor's headers cannot set it:
# they arrive as HTTP_* keys).
REFRESH_KEY = "torneo.refresh"

class Demand(NamedTuple):
    """A watched page's demand: the host headers of the request to render it for, and when a visitor
    last asked for it (the render clock)."""
    meta: dict
    asked: float


HOST_HEADERS = ("HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "wsgi.url_scheme", "HTTP_X_FORWARDED_PROTO")
def host_headers(meta):
    """What a page is rendered on write for, of a request's environ: its host and scheme."""
    return {name: meta[name] for name in HOST_HEADERS if name in meta}


_noted = {}  # (pk, path, language, htmx) -> when this process last recorded it (monotonic)
_noted_lock = threading.Lock()


def _watched_key(pk):
    return f"watched:{pk}"


def watch(pk, path, language, htmx, meta, at, exists=None):
    """Record that an anonymous visitor asked for this page of tournament `pk` at `at` (the render
    clock, tables.standings.cache.now; `meta`: the request's WSGI environ, whose host and scheme the
    page is rendered for). Costs nothing most of the time: each process writes a page's record at
    most once per NOTE_SECONDS. `exists`: asked then, whether the page was ever rendered for a
    visitor (a page that answers 404, or that nobody loaded, is never watched, so never rendered on
    write)."""
    page = (path, language, bool(htmx))
    now = time.monotonic()
    with _noted_lock:
        if now - _noted.get((pk, *page), -NOTE_SECONDS) < NOTE_SECONDS:
            return
    if exists is not None and not exists():
        return
    with _noted_lock:
        _noted[(pk, *page)] = now
        if len(_noted) > 4 * WATCHED_PAGES:
            _noted.clear()
    key = _watched_key(pk)
    pages = cache.get(key) or {}
    before = pages.get(page)
    asked = at if before is None else max(at, Demand(*before).asked)  # a live stream notes it ahead of time
    pages[page] = Demand(host_headers(meta), asked)
    if len(pages) > WATCHED_PAGES:
        pages = dict(sorted(pages.items(), key=lambda item: Demand(*item[1]).asked)[-WATCHED_PAGES:])
    cache.set(key, pages, WATCH_SECONDS)


def forget_watched():
    """Empty this process's record of what it noted (tests empty the shared cache between them)."""
    with _noted_lock:
        _noted.clear()


def watched(pk, now):
    """{(path, language, htmx): Demand} of the pages asked for in the WATCH_SECONDS before `now`."""
    pages = {page: Demand(*demand) for page, demand in (cache.get(_watched_key(pk)) or {}).items()}
    return {page: demand for page, demand in pages.items() if now - demand.asked <= WATCH_SECONDS}


